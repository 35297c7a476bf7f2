import { readFileSync } from "node:fs";
import path from "node:path";
import type { Metadata } from "next";
import Link from "next/link";
import { Markdown, markdownHeadings } from "../markdown.tsx";
import { slug } from "../prose.tsx";
import styles from "../docs.module.css";

// GET /docs/configuration – docs/configuration.md as the repository has it: every setting of the
// server and the admin CLI, for whoever runs it (Settings → Writing links here). Read when the
// page is built, so the page and the file never disagree.

export const metadata: Metadata = {
  title: "Configuration",
  description: "Voicedraft's settings for whoever runs the server: the writer, every environment variable, the admin CLI.",
};

const markdown = () => readFileSync(path.join(process.cwd(), "docs", "configuration.md"), "utf8");

export default function ConfigurationPage() {
  const text = markdown();
  return (
    <div className={styles.page}>
      <a href="#content" className={styles.skip}>
        Skip to content
      </a>
      <header className={styles.header}>
        <p className={styles.brand}>
          <Link href="/">Voicedraft</Link>
        </p>
        <h1>Configuration and the admin CLI</h1>
        <p className={styles.meta}>
          For whoever runs this server: its settings are environment variables, read when it starts. <a href="/docs">API reference</a>
        </p>
      </header>
      <div className={styles.layout}>
        <nav className={styles.toc} aria-label="Contents">
          <h2 className={styles.tocTitle}>Contents</h2>
          <ul>
            {markdownHeadings(text).map((heading) => (
              <li key={heading}>
                <a href={`#${slug(heading)}`}>{heading}</a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="content" className={styles.main} tabIndex={-1}>
          <Markdown markdown={text} tableClass={styles.table} scrollClass={styles.scroll} />
        </main>
      </div>
    </div>
  );
}
