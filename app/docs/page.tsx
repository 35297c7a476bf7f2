import type { Metadata } from "next";
import Link from "next/link";
import { ERROR_STATUS, type ErrorCode } from "@/lib/http/errors.ts";
import { buildOpenApiDocument } from "@/lib/api/openapi-document.ts";
import { HTTP_METHODS, type OpenApiDocument, type OperationObject } from "@/lib/openapi/types.ts";
import { OperationSection, FieldTable } from "./operation-section.tsx";
import { Prose, proseHeadings, slug } from "./prose.tsx";
import { DocsFrame } from "./docs-frame.tsx";
import { fields } from "./schema-fields.ts";
import styles from "./docs.module.css";

export const metadata: Metadata = {
  title: "API reference",
  description: "The Voicedraft HTTP API: authentication, errors, and every public endpoint.",
};

type Entry = { path: string; method: string; op: OperationObject };

function operationsByTag(doc: OpenApiDocument): Map<string, Entry[]> {
  const byTag = new Map<string, Entry[]>(doc.tags.map((tag) => [tag.name, []]));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), { path, method, op }]);
    }
  }
  return byTag;
}

/** Each error code the documented operations return, with the operations that return it. */
function errorCodes(groups: Map<string, Entry[]>): [ErrorCode, Entry[]][] {
  const byCode = new Map<ErrorCode, Entry[]>();
  for (const entry of [...groups.values()].flat()) {
    for (const response of Object.values(entry.op.responses)) {
      for (const { code } of response["x-error-codes"] ?? []) {
        const list = byCode.get(code as ErrorCode) ?? [];
        if (!list.includes(entry)) byCode.set(code as ErrorCode, [...list, entry]);
      }
    }
  }
  return [...byCode].sort(([a], [b]) => ERROR_STATUS[a] - ERROR_STATUS[b] || a.localeCompare(b));
}

// GET /docs – the API reference, rendered on the server from the same OpenAPI document clients get
export default function DocsPage() {
  const doc = buildOpenApiDocument();
  const groups = operationsByTag(doc);
  const codes = errorCodes(groups);
  return (
    <DocsFrame
      title="API reference"
      meta={
        <>
          Version {doc.info.version} · <a href="/api/v1/openapi.json">OpenAPI 3.1 document (JSON)</a>
        </>
      }
      contents={
        <>
          {proseHeadings(doc.info.description).map((heading) => (
            <li key={heading}>
              <a href={`#${slug(heading)}`}>{heading}</a>
            </li>
          ))}
          <li>
            <a href="#error-codes">Error codes</a>
          </li>
          {[...groups].map(([tag, entries]) => (
            <li key={tag}>
              <a href={`#tag-${slug(tag)}`}>{tag}</a>
              <ul>
                {entries.map(({ op, method, path }) => (
                  <li key={op.operationId}>
                    <a href={`#${op.operationId}`}>
                      <span className={styles.tocMethod}>{method.toUpperCase()}</span> {path}
                    </a>
                  </li>
                ))}
              </ul>
            </li>
          ))}
          <li>
            <a href="#schemas">Schemas</a>
          </li>
        </>
      }
      footer={
        <footer className={styles.footer}>
          <p>
            Generated from the service&apos;s own schemas. <Link href="/">Voicedraft home</Link>
          </p>
        </footer>
      }
    >
      <Prose markdown={doc.info.description} className={styles.intro} />
      <p>
        The examples read the server address and your key from the environment:{" "}
        <code>export VOICEDRAFT_URL=http://localhost:3000 VOICEDRAFT_API_KEY=vd_…</code>
      </p>

      <section aria-labelledby="error-codes">
        <h2 id="error-codes">Error codes</h2>
        <div className={styles.scroll} role="region" aria-label="Error codes" tabIndex={0}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Status</th>
                <th scope="col">Returned by</th>
              </tr>
            </thead>
            <tbody>
              {codes.map(([code, entries]) => (
                <tr key={code}>
                  <th scope="row">
                    <code>{code}</code>
                  </th>
                  <td>{ERROR_STATUS[code]}</td>
                  <td>
                    {entries.map(({ op }, i) => (
                      <span key={op.operationId}>
                        {i > 0 && ", "}
                        <a href={`#${op.operationId}`}>{op.summary}</a>
                      </span>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      {[...groups].map(([tag, entries]) => (
        <section key={tag} aria-labelledby={`tag-${slug(tag)}`}>
          <h2 id={`tag-${slug(tag)}`}>{tag}</h2>
          <p>{doc.tags.find((t) => t.name === tag)?.description}</p>
          {entries.map(({ path, method, op }) => (
            <OperationSection key={op.operationId} doc={doc} path={path} method={method} op={op} />
          ))}
        </section>
      ))}

      <section aria-labelledby="schemas">
        <h2 id="schemas">Schemas</h2>
        {Object.entries(doc.components.schemas).map(([name, schema]) => (
          <article key={name} className={styles.schema} aria-labelledby={`schema-${name}`}>
            <h3 id={`schema-${name}`}>{name}</h3>
            {typeof schema.description === "string" && <p>{schema.description}</p>}
            <FieldTable label={`Fields of ${name}`} rows={fields(doc, schema)} />
          </article>
        ))}
      </section>
    </DocsFrame>
  );
}
