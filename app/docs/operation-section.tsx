import { accessNote } from "@/lib/openapi/operation.ts";
import type { OpenApiDocument, OperationObject } from "@/lib/openapi/types.ts";
import { Inline, Paragraphs } from "./prose.tsx";
import type { ReactNode } from "react";
import { curlExample, fields, notes, refName, typeOf, type Field, type TypePart } from "./schema-fields.ts";
import styles from "./docs.module.css";

export function TypeLabel({ parts }: { parts: TypePart[] }) {
  return parts.map((part, i) =>
    typeof part === "string" ? (
      part
    ) : (
      <a key={i} href={`#schema-${part.ref}`}>
        {part.ref}
      </a>
    ),
  );
}

/** A table in a focusable, labelled region so it can scroll sideways on a phone. */
function Scroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.scroll} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

export function FieldTable({ label, rows, nameHeading = "Field" }: { label: string; rows: Field[]; nameHeading?: string }) {
  return (
    <Scroll label={label}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{nameHeading}</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((field) => (
            <tr key={field.name}>
              <th scope="row">
                <code>{field.name}</code>{" "}
                <span className={field.required ? styles.required : styles.optional}>
                  {field.required ? "required" : "optional"}
                </span>
              </th>
              <td>
                <TypeLabel parts={field.type} />
              </td>
              <td>
                {field.description && <Inline text={field.description} />}
                {field.notes.length > 0 && (
                  <ul className={styles.notes}>
                    {field.notes.map((note) => (
                      <li key={note}>{note}</li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

type Props = { doc: OpenApiDocument; path: string; method: string; op: OperationObject };

export function OperationSection({ doc, path, method, op }: Props) {
  const scope = op["x-required-scope"];
  const description = op.description.replace(`\n\n${accessNote(scope ?? "public")}`, "");
  const headingId = op.operationId;
  const body = op.requestBody?.content["application/json"]?.schema;
  const form = op.requestBody?.content["multipart/form-data"]?.schema;
  const bodyName = refName(body);
  const bodySchema = bodyName ? doc.components.schemas[bodyName] : undefined;
  return (
    <article className={styles.operation} aria-labelledby={headingId}>
      <h3 id={headingId}>{op.summary}</h3>
      <p className={styles.endpoint}>
        <span className={`${styles.method} ${styles[method] ?? ""}`}>{method.toUpperCase()}</span>{" "}
        <code className={styles.path}>{path}</code>
      </p>
      <p className={styles.access}>
        {scope ? (
          <>
            API key with scope <code>{scope}</code>
          </>
        ) : (
          "Public: no API key"
        )}
      </p>
      <Paragraphs text={description} />

      {op.parameters && op.parameters.length > 0 && (
        <>
          <h4>Parameters</h4>
          <FieldTable
            label={`Parameters of ${op.summary}`}
            nameHeading="Parameter"
            rows={op.parameters.map((p) => ({
              name: p.name,
              type: typeOf(p.schema),
              required: p.required,
              description: `${{ query: "Query", path: "Path", header: "Header" }[p.in]} parameter. ${p.description ?? ""}`,
              notes: [...notes(p.schema), ...(p.example === undefined ? [] : [`example: ${JSON.stringify(p.example)}`])],
            }))}
          />
        </>
      )}

      {body && (
        <>
          <h4>Request body</h4>
          <p>
            JSON (<code>Content-Type: application/json</code>)
            {bodyName && (
              <>
                , schema <a href={`#schema-${bodyName}`}>{bodyName}</a>
              </>
            )}
            .{bodySchema?.additionalProperties === false && " Fields not listed here are refused."}
          </p>
          <FieldTable label={`Request body of ${op.summary}`} rows={fields(doc, body)} />
        </>
      )}

      {form && (
        <>
          <h4>Request body</h4>
          <p>
            A form upload (<code>Content-Type: multipart/form-data</code>). Fields not listed here are refused.
          </p>
          <FieldTable label={`Form fields of ${op.summary}`} rows={fields(doc, form)} />
        </>
      )}

      <h4>Responses</h4>
      <Scroll label={`Responses of ${op.summary}`}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Meaning</th>
              <th scope="col">Body</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(op.responses).map(([status, response]) => {
              const schema = response.content?.["application/json"]?.schema;
              const schemaName = refName(schema);
              const extraHeaders = Object.keys(response.headers ?? {}).filter((h) => h !== "X-Request-Id");
              return (
                <tr key={status}>
                  <th scope="row" className={Number(status) < 400 ? styles.ok : styles.error}>
                    {status}
                  </th>
                  <td>
                    {response["x-error-codes"] ? (
                      <ul className={styles.codes}>
                        {response["x-error-codes"].map(({ code, when }) => (
                          <li key={code}>
                            <code>{code}</code>: <Inline text={when} />
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <Inline text={response.description} />
                    )}
                    {extraHeaders.length > 0 && (
                      <p className={styles.headers}>
                        Header{extraHeaders.length > 1 ? "s" : ""}:{" "}
                        {extraHeaders.map((h, i) => (
                          <span key={h}>
                            {i > 0 && ", "}
                            <code>{h}</code>
                          </span>
                        ))}
                      </p>
                    )}
                  </td>
                  <td>
                    {schemaName ? (
                      <a href={`#schema-${schemaName}`}>{schemaName}</a>
                    ) : schema && "description" in schema ? (
                      String(schema.description)
                    ) : (
                      "—"
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </Scroll>

      <h4>Example</h4>
      <pre className={styles.code} tabIndex={0} aria-label={`curl example: ${op.summary}`}>
        <code>{curlExample(doc, path, method, op)}</code>
      </pre>
    </article>
  );
}
