import type { ReactNode } from "react";

// Just enough Markdown for the document's own prose (## headings, paragraphs, "- " lists,
// indented code, `code` spans); React escapes every piece of text.

export function Inline({ text }: { text: string }): ReactNode {
  return text
    .split(/(`[^`]+`)/)
    .map((part, i) => (/^`[^`]+`$/.test(part) ? <code key={i}>{part.slice(1, -1)}</code> : part));
}

export const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

type Section = { heading?: string; blocks: string[] };

function sections(markdown: string): Section[] {
  const result: Section[] = [{ blocks: [] }];
  for (const block of markdown.trim().split(/\n{2,}/)) {
    if (block.startsWith("## ")) result.push({ heading: block.slice(3).trim(), blocks: [] });
    else result[result.length - 1].blocks.push(block);
  }
  return result;
}

export const proseHeadings = (markdown: string) => sections(markdown).flatMap((s) => (s.heading ? [s.heading] : []));

function Block({ block }: { block: string }) {
  const lines = block.split("\n");
  if (lines.every((line) => line.startsWith("- "))) {
    return (
      <ul>
        {lines.map((line) => (
          <li key={line}>
            <Inline text={line.slice(2)} />
          </li>
        ))}
      </ul>
    );
  }
  if (lines.every((line) => line.startsWith("    "))) {
    return (
      <pre tabIndex={0}>
        <code>{lines.map((line) => line.slice(4)).join("\n")}</code>
      </pre>
    );
  }
  return (
    <p>
      <Inline text={lines.join(" ")} />
    </p>
  );
}

/** Markdown prose; each "## " heading opens a section labelled by it. */
export function Prose({ markdown, className }: { markdown: string; className?: string }) {
  return sections(markdown).map(({ heading, blocks }, i) => {
    const body = blocks.map((block, j) => <Block key={j} block={block} />);
    if (!heading) return <div key={i}>{body}</div>;
    return (
      <section key={i} aria-labelledby={slug(heading)} className={className}>
        <h2 id={slug(heading)}>{heading}</h2>
        {body}
      </section>
    );
  });
}

/** A description: paragraphs separated by blank lines, with `code` spans. */
export function Paragraphs({ text }: { text: string }) {
  return text
    .split(/\n{2,}/)
    .filter(Boolean)
    .map((paragraph, i) => (
      <p key={i}>
        <Inline text={paragraph} />
      </p>
    ));
}
