import { readFileSync } from "node:fs";
import path from "node:path";
import type { ReactNode } from "react";
import { DocsFrame } from "./docs-frame.tsx";
import { Markdown, markdownHeadings } from "./markdown.tsx";
import { slug } from "./prose.tsx";
import styles from "./docs.module.css";

/**
 * A page of docs/ as the repository has it (`file`, e.g. "phone.md"), read as the page is rendered,
 * so the page and the file never disagree: its headings are the contents beside it.
 */
export function MarkdownDoc({ file, title, meta }: { file: string; title: string; meta: ReactNode }) {
  const text = readFileSync(path.join(process.cwd(), "docs", file), "utf8");
  return (
    <DocsFrame
      title={title}
      meta={meta}
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
