// Compares one row of the client's OPERATIONS table with the service's OpenAPI document and
// returns every disagreement (empty: in sync).
import type { Operation } from "../dist/index.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the OpenAPI document is loosely typed JSON
export type Schema = Record<string, any>;

function deref(doc: Schema, schema: Schema | undefined): Schema | undefined {
  let current = schema;
  for (let hops = 0; current?.$ref && hops < 20; hops++) {
    current = (current.$ref as string)
      .replace(/^#\//, "")
      .split("/")
      .reduce<Schema | undefined>((node, key) => node?.[key], doc);
  }
  return current;
}

/** The schema itself and its anyOf/oneOf/allOf branches (nullable fields are anyOf [T, null]). */
function variants(doc: Schema, schema: Schema | undefined): Schema[] {
  const resolved = deref(doc, schema);
  if (!resolved) return [];
  const branches = [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.allOf ?? [])];
  return [resolved, ...branches.flatMap((b: Schema) => variants(doc, b))];
}

function field(doc: Schema, schema: Schema | undefined, dotted: string): Schema | undefined {
  let current: Schema | undefined = schema;
  for (const step of dotted.split(".")) {
    const name = step.replace(/\[\]$/, "");
    current = variants(doc, current).find((s) => s.properties?.[name])?.properties[name];
    if (current && step.endsWith("[]")) current = variants(doc, current).find((s) => s.items)?.items;
    if (!current) return undefined;
  }
  return current;
}

function required(doc: Schema, schema: Schema | undefined): string[] {
  return variants(doc, schema).flatMap((s) => s.required ?? []);
}

export function disagreements(doc: Schema, name: string, op: Operation): string[] {
  const where = `${name} (${op.method} ${op.path})`;
  const operation = doc.paths?.[op.path]?.[op.method.toLowerCase()];
  if (!operation) return [`${where}: the service documents no such operation`];
  const problems: string[] = [];
  const parameters: Schema[] = operation.parameters ?? [];
  const params = (kind: string) => parameters.filter((p) => p.in === kind);

  const pathNames = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  for (const p of params("path")) if (!pathNames.includes(p.name)) problems.push(`${where}: path parameter ${p.name} is not filled`);

  const query = op.query ?? [];
  for (const q of query) if (!params("query").some((p) => p.name === q)) problems.push(`${where}: query ${q} is not documented`);
  for (const p of params("query")) {
    if (p.required && !query.includes(p.name)) problems.push(`${where}: required query ${p.name} is not sent`);
  }
  for (const h of op.headers ?? []) {
    if (!params("header").some((p) => p.name.toLowerCase() === h.toLowerCase())) problems.push(`${where}: header ${h} is not documented`);
  }

  const mediaType = op.multipart ? "multipart/form-data" : "application/json";
  const bodySchema = operation.requestBody?.content?.[mediaType]?.schema;
  if (op.body) {
    if (!bodySchema) problems.push(`${where}: no ${mediaType} request body is documented`);
    else {
      for (const f of op.body) if (!field(doc, bodySchema, f)) problems.push(`${where}: request field ${f} is not documented`);
      const sent = (r: string) => op.body!.some((f) => f === r || f.startsWith(`${r}.`) || f.startsWith(`${r}[]`));
      for (const r of required(doc, bodySchema)) {
        if (!sent(r)) problems.push(`${where}: required request field ${r} is not sent`);
      }
    }
  } else if (operation.requestBody?.required) {
    problems.push(`${where}: the service requires a request body the client does not send`);
  }

  const success = Object.keys(operation.responses ?? {}).filter((s) => /^2\d\d$/.test(s)).sort()[0];
  const responseSchema = success && operation.responses[success].content?.["application/json"]?.schema;
  if (!responseSchema) problems.push(`${where}: no JSON success response is documented`);
  else for (const f of op.response) if (!field(doc, responseSchema, f)) problems.push(`${where}: response field ${f} is not documented`);
  return problems;
}
