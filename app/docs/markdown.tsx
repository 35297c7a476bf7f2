import type { ReactNode } from "react";
import { slug } from "./prose.tsx";

// Enough Markdown for a page of docs/ served as it is written in the repository (## and ###
// headings, paragraphs, "- " lists whose items run on over indented lines, ``` fences, tables,
// `code`, **bold**, [links]); React escapes every piece of text. A link to another file of the
// repository is its words only: the app serves this one page, not the folder.

type Block = { kind: "heading"; level: 2 | 3; text: string } | { kind: "fence"; code: string } | { kind: "lines"; lines: string[] };

function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  let lines: string[] = [];
  const end = () => {
    if (lines.length) blocks.push({ kind: "lines", lines });
    lines = [];
  };
  const all = markdown.split("\n");
  for (let i = 0; i < all.length; i++) {
    const line = all[i];
    if (line.startsWith("```")) {
      end();
      const code: string[] = [];
      while (++i < all.length && !all[i].startsWith("```")) code.push(all[i]);
      blocks.push({ kind: "fence", code: code.join("\n") });
    } else if (/^#{2,3} /.test(line)) {
      end();
      blocks.push({ kind: "heading", level: line.startsWith("### ") ? 3 : 2, text: line.replace(/^#+ /, "").trim() });
    } else if (!line.trim()) end();
    else lines.push(line);
  }
  end();
  return blocks;
}

const INLINE = /(`[^`]+`|\*\*[^*]+\*\*|\[[^\]]+\]\([^)\s]+\))/;

export function MarkdownInline({ text }: { text: string }): ReactNode {
  return text.split(INLINE).map((part, i) => {
    if (/^`[^`]+`$/.test(part)) return <code key={i}>{part.slice(1, -1)}</code>;
    if (/^\*\*[^*]+\*\*$/.test(part)) return <strong key={i}>{part.slice(2, -2)}</strong>;
    const link = part.match(/^\[([^\]]+)\]\(([^)\s]+)\)$/);
    if (link) {
      const [, words, href] = link;
      return /^(https?:\/\/|#)/.test(href) ? <a key={i} href={href}>{words}</a> : <span key={i}>{words}</span>;
    }
    return part;
  });
}

const cells = (row: string) => row.trim().replace(/^\||\|$/g, "").split("|").map((cell) => cell.trim());

function Lines({ lines, label, tableClass, scrollClass }: { lines: string[]; label: string; tableClass?: string; scrollClass?: string }) {
  if (lines[0].startsWith("|") && lines.length > 2) {
    const [head, , ...rows] = lines;
    return (
      <div className={scrollClass} role="region" aria-label={label} tabIndex={0}>
        <table className={tableClass}>
          <thead>
            <tr>
              {cells(head).map((cell) => (
                <th key={cell} scope="col">
                  <MarkdownInline text={cell} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row}>
                {cells(row).map((cell, i) => (i === 0 ? <th key={i} scope="row"><MarkdownInline text={cell} /></th> : <td key={i}><MarkdownInline text={cell} /></td>))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  if (lines[0].startsWith("- ")) {
    // An item runs on over the indented lines under it.
    const items: string[] = [];
    for (const line of lines) {
      if (line.startsWith("- ")) items.push(line.slice(2));
      else items[items.length - 1] += ` ${line.trim()}`;
    }
    return (
      <ul>
        {items.map((item) => (
          <li key={item}>
            <MarkdownInline text={item} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <p>
      <MarkdownInline text={lines.join(" ")} />
    </p>
  );
}

/** The page's headings, for its contents. */
export const markdownHeadings = (markdown: string) => blocksOf(markdown).flatMap((b) => (b.kind === "heading" && b.level === 2 ? [b.text] : []));

/** A Markdown page (its "# " title and a "Back to …" line left to the page around it). */
export function Markdown({ markdown, tableClass, scrollClass }: { markdown: string; tableClass?: string; scrollClass?: string }) {
  let heading = "";
  return blocksOf(markdown).map((block, i) => {
    if (block.kind === "heading") {
      heading = block.text;
      const Tag = block.level === 2 ? "h2" : "h3";
      return (
        <Tag key={i} id={slug(block.text)}>
          {block.text}
        </Tag>
      );
    }
    if (block.kind === "fence")
      return (
        <pre key={i} tabIndex={0}>
          <code>{block.code}</code>
        </pre>
      );
    if (/^# |^Back to /.test(block.lines[0])) return null;
    return <Lines key={i} lines={block.lines} label={heading || "Table"} tableClass={tableClass} scrollClass={scrollClass} />;
  });
}
