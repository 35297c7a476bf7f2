import { readFileSync } from "node:fs";
import path from "node:path";
import type { Metadata } from "next";
import { DocsFrame } from "../docs-frame.tsx";
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
    <DocsFrame
      title="Configuration and the admin CLI"
      meta={
        <>
          For whoever runs this server: its settings are environment variables, read when it starts. <a href="/docs">API reference</a>
        </>
      }
      contents={markdownHeadings(text).map((heading) => (
        <li key={heading}>
          <a href={`#${slug(heading)}`}>{heading}</a>
        </li>
      ))}
    >
      <Markdown markdown={text} tableClass={styles.table} scrollClass={styles.scroll} />
    </DocsFrame>
  );
}
