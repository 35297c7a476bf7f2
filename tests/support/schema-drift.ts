// Compares a live PostgreSQL database with prisma/schema.prisma, so a forgotten or wrong
// hand-written migration fails CI.
//
// Why not ask Prisma itself (`migrate diff` from the database to the schema)? That needs the
// schema engine. The native binary can't be downloaded here, and although the prisma package
// ships schema_engine_bg.wasm, it ships without the wasm-bindgen JS glue that wasm needs (90
// build-specific imports, including the async driver-adapter bridge); the CLI never loads it.
// Driving it would mean adding @prisma/schema-engine-wasm as a dependency.
//
// So we do the next most honest thing: Prisma's own schema parser (prisma_schema_build_bg.wasm,
// the wasm behind the CLI's getDMMF, loaded through a few lines of glue below) turns
// schema.prisma into the DMMF, we derive from it what Prisma's migrations create (types,
// nullability, defaults, constraint names, referential actions) and compare that with
// pg_catalog. Schema features the DMMF does not describe fully make this throw instead of
// silently passing. Things schema.prisma can't express (check constraints, triggers, views)
// are not compared.

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "enum" | "object" | "unsupported";
  isList: boolean;
  isRequired: boolean;
  type: string;
  nativeType: [string, string[]] | null;
  default?: unknown;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}
interface DmmfIndex {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  dbName?: string;
  algorithm?: string;
  fields: { name: string; sortOrder?: "asc" | "desc" }[];
}
interface DmmfEnum {
  name: string;
  dbName: string | null;
  values: { name: string; dbName: string | null }[];
}
interface Datamodel {
  models: DmmfModel[];
  enums: DmmfEnum[];
  indexes: DmmfIndex[];
}

interface SchemaWasm {
  memory: WebAssembly.Memory;
  __wbindgen_externrefs: WebAssembly.Table;
  __wbindgen_start(): void;
  __wbindgen_malloc(size: number, align: number): number;
  __wbindgen_free(ptr: number, size: number, align: number): void;
  __externref_table_dealloc(index: number): void;
  get_dmmf(ptr: number, len: number): [number, number, number, number];
}

let schemaWasm: SchemaWasm | undefined;
let panicMessage = "";

// Mirrors the wasm-bindgen glue bundled in prisma/build/cli.js. Import names carry a per-build
// hash, so they are matched by prefix; if a Prisma upgrade changes this ABI, this throws.
function loadSchemaWasm(): SchemaWasm {
  if (schemaWasm) return schemaWasm;
  const prismaDir = path.dirname(createRequire(import.meta.url).resolve("prisma/package.json"));
  const wasmModule = new WebAssembly.Module(fs.readFileSync(path.join(prismaDir, "build/prisma_schema_build_bg.wasm")));
  const text = (ptr: number, len: number) => new TextDecoder().decode(new Uint8Array(wasm.memory.buffer, ptr >>> 0, len));
  const imports: Record<string, (...args: number[]) => unknown> = {};
  for (const { name } of WebAssembly.Module.imports(wasmModule)) {
    if (name.startsWith("__wbg_Error_")) imports[name] = (ptr, len) => new Error(text(ptr, len));
    else if (name.startsWith("__wbg___wbindgen_throw_")) imports[name] = (ptr, len) => { throw new Error(text(ptr, len)); };
    else if (name.startsWith("__wbg_set_message_")) imports[name] = (ptr, len) => void (panicMessage = text(ptr, len));
    else if (name === "__wbindgen_init_externref_table") {
      imports[name] = () => {
        const table = wasm.__wbindgen_externrefs;
        const base = table.grow(4);
        [undefined, null, true, false].forEach((value, i) => table.set(base + i, value));
        table.set(0, undefined);
      };
    } else throw new Error(`schema-drift: unknown import ${name} in prisma_schema_build_bg.wasm`);
  }
  const wasm = new WebAssembly.Instance(wasmModule, { __wbindgen_placeholder__: imports }).exports as unknown as SchemaWasm;
  wasm.__wbindgen_start();
  return (schemaWasm = wasm);
}

function getDatamodel(schemaPath: string): Datamodel {
  const wasm = loadSchemaWasm();
  const input = new TextEncoder().encode(
    JSON.stringify({ prismaSchema: [[schemaPath, fs.readFileSync(schemaPath, "utf8")]], noColor: true }),
  );
  const ptr = wasm.__wbindgen_malloc(input.length, 1) >>> 0;
  new Uint8Array(wasm.memory.buffer, ptr, input.length).set(input);
  let result: [number, number, number, number];
  try {
    result = wasm.get_dmmf(ptr, input.length);
  } catch (error) {
    schemaWasm = undefined; // a trapped wasm instance is unusable
    throw new Error(`schema-drift: Prisma's schema parser crashed: ${panicMessage || error}`);
  }
  const [outPtr, outLen, errorRef, failed] = result;
  if (failed) {
    const error = wasm.__wbindgen_externrefs.get(errorRef) as Error;
    wasm.__externref_table_dealloc(errorRef);
    const message = (() => { try { return JSON.parse(error.message).message as string; } catch { return error.message; } })();
    throw new Error(`schema-drift: ${schemaPath} is invalid:\n${message}`);
  }
  try {
    const json = new TextDecoder().decode(new Uint8Array(wasm.memory.buffer, outPtr >>> 0, outLen));
    return (JSON.parse(json) as { datamodel: Datamodel }).datamodel;
  } finally {
    wasm.__wbindgen_free(outPtr, outLen, 1);
  }
}

// Features whose database effect the DMMF does not (fully) describe.
const UNSUPPORTED_FEATURES: [RegExp, string][] = [
  [/\bUnsupported\s*\(/, "Unsupported(...) fields"],
  [/@@?ignore\b/, "@ignore / @@ignore"],
  [/@relation\([^)]*\bmap\s*:/, "custom foreign key names (@relation(map: ...))"],
  [/@@schema\s*\(/, "multiSchema (@@schema)"],
  [/\brelationMode\s*=\s*"prisma"/, 'relationMode = "prisma"'],
  [/^\s*view\s+\w+\s*\{/m, "views"],
  [/\bops\s*:/, "index operator classes (ops:)"],
  [/\bwhere\s*:/, "partial indexes (where:)"],
];

function assertSupported(schemaPath: string): void {
  const source = fs.readFileSync(schemaPath, "utf8").replace(/(^|\s)\/\/.*$/gm, "$1");
  const used = UNSUPPORTED_FEATURES.filter(([pattern]) => pattern.test(source)).map(([, name]) => name);
  if (used.length) throw new Error(`schema-drift: ${schemaPath} uses ${used.join(", ")}, which tests/support/schema-drift.ts does not check yet`);
}

// ---------------------------------------------------------------------------------------------
// What the migrations for schema.prisma must have created

interface Named {
  table: string;
  text: string;
}
interface ExpectedColumn {
  type: string;
  notNull: boolean;
  default: { text: string; matches(actual: string | null): boolean };
}
interface ActualColumn {
  type: string;
  notNull: boolean;
  default: string | null;
}
interface Shape<Column> {
  tables: Map<string, Map<string, Column>>;
  indexes: Map<string, Named>;
  foreignKeys: Map<string, Named>;
  enums: Map<string, string[]>;
}

const SCALAR_TYPES: Record<string, string> = {
  String: "text",
  Boolean: "boolean",
  Int: "integer",
  BigInt: "bigint",
  Float: "double precision",
  Decimal: "numeric(65,30)",
  DateTime: "timestamp(3) without time zone",
  Json: "jsonb",
  Bytes: "bytea",
};

const withArgs = (name: string, args: string[]) => (args.length ? `${name}(${args.join(",")})` : name);
// @db.* attributes, spelled the way PostgreSQL's format_type() reports them.
const NATIVE_TYPES: Record<string, (args: string[]) => string> = {
  Text: () => "text",
  VarChar: (args) => withArgs("character varying", args),
  Char: (args) => withArgs("character", args.length ? args : ["1"]),
  Bit: (args) => withArgs("bit", args.length ? args : ["1"]),
  VarBit: (args) => withArgs("bit varying", args),
  Uuid: () => "uuid",
  Xml: () => "xml",
  Inet: () => "inet",
  Citext: () => "citext",
  Boolean: () => "boolean",
  SmallInt: () => "smallint",
  Integer: () => "integer",
  BigInt: () => "bigint",
  Oid: () => "oid",
  Real: () => "real",
  DoublePrecision: () => "double precision",
  Money: () => "money",
  Decimal: (args) => withArgs("numeric", args),
  Date: () => "date",
  Timestamp: (args) => `${withArgs("timestamp", args)} without time zone`,
  Timestamptz: (args) => `${withArgs("timestamp", args)} with time zone`,
  Time: (args) => `${withArgs("time", args)} without time zone`,
  Timetz: (args) => `${withArgs("time", args)} with time zone`,
  Json: () => "json",
  JsonB: () => "jsonb",
  ByteA: () => "bytea",
};

const REFERENTIAL_ACTIONS: Record<string, string> = {
  Cascade: "CASCADE",
  Restrict: "RESTRICT",
  NoAction: "NO ACTION",
  SetNull: "SET NULL",
  SetDefault: "SET DEFAULT",
};

// Prisma's default constraint names (psl ConstraintNames): PostgreSQL's 63-byte identifier
// limit minus the suffix.
function constraintName(table: string, columns: string[], suffix: string): string {
  let name = [table, ...columns].join("_");
  while (Buffer.byteLength(name) > 63 - suffix.length) name = name.slice(0, -1);
  return name + suffix;
}

function expectedShape(dm: Datamodel): Shape<ExpectedColumn> {
  const models = new Map(dm.models.map((model) => [model.name, model]));
  const enums = new Map(dm.enums.map((e) => [e.name, e]));
  const tableOf = (model: DmmfModel) => model.dbName ?? model.name;
  const columnOf = (model: DmmfModel, fieldName: string) => {
    const field = model.fields.find((f) => f.name === fieldName);
    return field?.dbName ?? fieldName;
  };
  const shape: Shape<ExpectedColumn> = { tables: new Map(), indexes: new Map(), foreignKeys: new Map(), enums: new Map() };

  for (const e of dm.enums) shape.enums.set(e.dbName ?? e.name, e.values.map((v) => v.dbName ?? v.name));

  for (const model of dm.models) {
    const table = tableOf(model);
    const columns = new Map<string, ExpectedColumn>();
    for (const field of model.fields) {
      if (field.kind === "object") continue;
      let type: string;
      if (field.kind === "enum") type = `enum ${enums.get(field.type)?.dbName ?? field.type}`;
      else if (field.nativeType) {
        const [native, args] = field.nativeType;
        const render = NATIVE_TYPES[native];
        if (!render) throw new Error(`schema-drift: no PostgreSQL type known for @db.${native}`);
        type = render(args);
      } else type = SCALAR_TYPES[field.type] ?? `unknown Prisma type ${field.type}`;
      // Prisma creates scalar list columns nullable, even for required lists.
      columns.set(field.dbName ?? field.name, {
        type: field.isList ? `${type}[]` : type,
        notNull: field.isRequired && !field.isList,
        default: expectedDefault(field, enums.get(field.type)),
      });
    }
    shape.tables.set(table, columns);

    for (const field of model.fields) {
      if (field.kind !== "object" || !field.relationFromFields?.length) continue;
      const target = models.get(field.type);
      if (!target) throw new Error(`schema-drift: unknown relation target ${field.type}`);
      const columns = field.relationFromFields.map((name) => columnOf(model, name));
      const refColumns = (field.relationToFields ?? []).map((name) => columnOf(target, name));
      const onDelete = field.relationOnDelete ?? (field.isRequired ? "Restrict" : "SetNull");
      const onUpdate = field.relationOnUpdate ?? "Cascade";
      shape.foreignKeys.set(constraintName(table, columns, "_fkey"), {
        table,
        text: foreignKeyText(table, columns, tableOf(target), refColumns, REFERENTIAL_ACTIONS[onDelete], REFERENTIAL_ACTIONS[onUpdate]),
      });
    }
  }

  for (const index of dm.indexes) {
    const model = models.get(index.model);
    if (!model) throw new Error(`schema-drift: index on unknown model ${index.model}`);
    if (index.type === "fulltext") throw new Error("schema-drift: @@fulltext does not exist on PostgreSQL");
    const table = tableOf(model);
    const columns = index.fields.map((f) => columnOf(model, f.name));
    const suffix = { id: "_pkey", unique: "_key", normal: "_idx" }[index.type];
    const name = index.dbName ?? constraintName(table, index.type === "id" ? [] : columns, suffix);
    const kind = { id: "primary key", unique: "unique index", normal: "index" }[index.type];
    const keyColumns = index.fields.map((f, i) => (f.sortOrder === "desc" ? `${columns[i]} DESC` : columns[i]));
    shape.indexes.set(name, { table, text: indexText(kind, table, keyColumns, (index.algorithm ?? "BTree").toLowerCase()) });
  }
  return shape;
}

const indexText = (kind: string, table: string, columns: string[], method: string, where?: unknown) =>
  `${kind} on ${table} (${columns.join(", ")}) using ${method}${where ? ` where ${where}` : ""}`;

const foreignKeyText = (table: string, columns: string[], refTable: string, refColumns: string[], onDelete?: string, onUpdate?: string) =>
  `${table} (${columns.join(", ")}) references ${refTable} (${refColumns.join(", ")}) on delete ${onDelete} on update ${onUpdate}`;

// uuid(), cuid(), nanoid() and ulid() are generated by Prisma Client, not the database.
const CLIENT_SIDE_DEFAULTS = new Set(["uuid", "cuid", "nanoid", "ulid"]);
const NO_DEFAULT = { text: "no default", matches: (actual: string | null) => actual === null };

function expectedDefault(field: DmmfField, enumType?: DmmfEnum): ExpectedColumn["default"] {
  const value = field.default;
  if (value === undefined) return NO_DEFAULT;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const { name, args } = value as { name: string; args: unknown[] };
    if (CLIENT_SIDE_DEFAULTS.has(name)) return NO_DEFAULT;
    if (name === "now") return { text: "CURRENT_TIMESTAMP", matches: (a) => a !== null && /^(CURRENT_TIMESTAMP|now\(\))$/i.test(a) };
    if (name === "autoincrement") return { text: "nextval() of a sequence (SERIAL)", matches: (a) => a?.startsWith("nextval(") ?? false };
    if (name === "dbgenerated" && args.length === 0) return { text: "any database default", matches: (a) => a !== null };
    if (name === "dbgenerated") {
      const wanted = String(args[0]);
      return { text: wanted, matches: (a) => a !== null && sameExpression(a, wanted) };
    }
    throw new Error(`schema-drift: unsupported default ${name}() on ${field.name}`);
  }
  const enumValue = (v: unknown) => enumType?.values.find((ev) => ev.name === v)?.dbName ?? v;
  const canonical = (v: unknown) => canonicalLiteral(field.type, field.kind === "enum" ? enumValue(v) : v);
  const wanted = Array.isArray(value) ? JSON.stringify(value.map(canonical)) : canonical(value);
  return {
    text: JSON.stringify(value),
    matches: (actual) => {
      const parsed = actual === null ? undefined : parseLiteral(actual);
      if (parsed === undefined) return false;
      return (Array.isArray(parsed) ? JSON.stringify(parsed.map(canonical)) : canonical(parsed)) === wanted;
    },
  };
}

function sameExpression(a: string, b: string): boolean {
  const squash = (s: string) => s.replace(/\s+/g, " ").trim();
  const uncast = (s: string) => squash(s).replace(/::[\w ]+(\(\d+(,\d+)?\))?(\[\])?/g, "");
  return squash(a) === squash(b) || uncast(a) === uncast(b);
}

function canonicalLiteral(type: string, value: unknown): string {
  const text = String(value);
  switch (type) {
    case "Int":
    case "BigInt":
    case "Float":
    case "Decimal":
      return String(Number(text));
    case "DateTime": {
      // PostgreSQL prints '2020-01-01 00:00:00+00' (timestamptz) or no zone at all (UTC).
      let iso = text.replace(" ", "T");
      if (/T[\d:.]+[+-]\d\d$/.test(iso)) iso += ":00";
      else if (/T[\d:.]+$/.test(iso)) iso += "Z";
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? text : date.toISOString();
    }
    case "Json":
      return stableJson(JSON.parse(text));
    default:
      return text;
  }
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

// Parses what pg_get_expr() prints for a literal default: 'text'::type, 42, (-1.5), true,
// ARRAY['a'::text, 'b'::text] or '{a,b}'::text[]. Returns undefined for anything else.
function parseLiteral(expr: string): string | string[] | undefined {
  const array = /^ARRAY\[(.*?)\](::[\w ."]+(\[\])*)?$/s.exec(expr);
  if (array) {
    const items = splitTopLevel(array[1]).map(parseLiteral);
    return items.every((item) => typeof item === "string") ? (items as string[]) : undefined;
  }
  const quoted = /^'((?:[^']|'')*)'(::[\w ."]+(\(\d+(,\d+)?\))?)?(\[\])?$/s.exec(expr);
  if (quoted) {
    const text = quoted[1].replace(/''/g, "'");
    if (!quoted[5]) return text;
    const inner = /^\{(.*)\}$/s.exec(text);
    return inner ? splitTopLevel(inner[1], ",", '"').map((item) => item.replace(/^"(.*)"$/s, "$1").replace(/\\(.)/g, "$1")) : undefined;
  }
  const number = /^\(?(-?\d+(\.\d+)?(e[+-]?\d+)?)\)?(::[\w ]+)?$/i.exec(expr);
  if (number) return number[1];
  return /^(true|false)$/.test(expr) ? expr : undefined;
}

function splitTopLevel(list: string, separator = ",", quote = "'"): string[] {
  if (!list.trim()) return [];
  const items: string[] = [];
  let current = "";
  let quoted = false;
  for (const char of list) {
    if (char === quote) quoted = !quoted;
    if (char === separator && !quoted) {
      items.push(current.trim());
      current = "";
    } else current += char;
  }
  return [...items, current.trim()];
}

// ---------------------------------------------------------------------------------------------
// What the database has

const IN_SCHEMA = `n.nspname = current_schema() AND c.relname <> '_prisma_migrations'`;

const TABLES_SQL = `
  SELECT c.relname AS table_name
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE ${IN_SCHEMA} AND c.relkind IN ('r', 'p') AND NOT c.relispartition`;

const COLUMNS_SQL = `
  SELECT c.relname AS table_name, a.attname AS column_name, a.attnotnull AS not_null,
    CASE WHEN et.typtype = 'e'
      THEN 'enum ' || et.typname || CASE WHEN t.typcategory = 'A' THEN '[]' ELSE '' END
      ELSE format_type(a.atttypid, a.atttypmod) END AS type,
    pg_get_expr(d.adbin, d.adrelid) AS default_expr,
    a.attidentity::text AS identity, a.attgenerated::text AS generated
  FROM pg_attribute a
  JOIN pg_class c ON c.oid = a.attrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_type t ON t.oid = a.atttypid
  JOIN pg_type et ON et.oid = CASE WHEN t.typcategory = 'A' THEN t.typelem ELSE t.oid END
  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  WHERE ${IN_SCHEMA} AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
  ORDER BY c.relname, a.attnum`;

const INDEXES_SQL = `
  SELECT c.relname AS table_name, i.relname AS index_name, x.indisprimary AS is_primary,
    x.indisunique AS is_unique, am.amname AS method, pg_get_expr(x.indpred, x.indrelid) AS predicate,
    (SELECT json_agg(
        COALESCE(a.attname, pg_get_indexdef(x.indexrelid, k.i::int, true))
          || CASE WHEN x.indoption[k.i - 1] & 1 = 1 THEN ' DESC' ELSE '' END
        ORDER BY k.i)
      FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, i)
      LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum AND k.attnum <> 0
    ) AS columns
  FROM pg_index x
  JOIN pg_class i ON i.oid = x.indexrelid
  JOIN pg_class c ON c.oid = x.indrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_am am ON am.oid = i.relam
  WHERE ${IN_SCHEMA}`;

const FOREIGN_KEYS_SQL = `
  SELECT c.relname AS table_name, con.conname AS name, r.relname AS ref_table,
    con.confdeltype::text AS on_delete, con.confupdtype::text AS on_update,
    (SELECT json_agg(a.attname ORDER BY k.i) FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, i)
      JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS columns,
    (SELECT json_agg(a.attname ORDER BY k.i) FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, i)
      JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum) AS ref_columns
  FROM pg_constraint con
  JOIN pg_class c ON c.oid = con.conrelid
  JOIN pg_class r ON r.oid = con.confrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE ${IN_SCHEMA} AND con.contype = 'f'`;

const ENUMS_SQL = `
  SELECT t.typname AS name, json_agg(e.enumlabel ORDER BY e.enumsortorder) AS labels
  FROM pg_type t
  JOIN pg_enum e ON e.enumtypid = t.oid
  JOIN pg_namespace n ON n.oid = t.typnamespace
  WHERE n.nspname = current_schema()
  GROUP BY t.typname`;

const ACTION_CODES: Record<string, string> = { a: "NO ACTION", r: "RESTRICT", c: "CASCADE", n: "SET NULL", d: "SET DEFAULT" };

async function actualShape(query: Query): Promise<Shape<ActualColumn>> {
  // One after another: `query` may wrap a single connection (node-postgres deprecates overlapping queries).
  const tables = await query(TABLES_SQL);
  const columns = await query(COLUMNS_SQL);
  const indexes = await query(INDEXES_SQL);
  const foreignKeys = await query(FOREIGN_KEYS_SQL);
  const enums = await query(ENUMS_SQL);
  const shape: Shape<ActualColumn> = { tables: new Map(), indexes: new Map(), foreignKeys: new Map(), enums: new Map() };
  for (const row of tables) shape.tables.set(String(row.table_name), new Map());
  for (const row of columns) {
    const expr = row.default_expr as string | null;
    let defaultExpr = expr;
    if (row.generated === "s") defaultExpr = `GENERATED ALWAYS AS (${expr}) STORED`;
    else if (row.identity === "a" || row.identity === "d") defaultExpr = "GENERATED AS IDENTITY";
    shape.tables.get(String(row.table_name))?.set(String(row.column_name), {
      type: String(row.type),
      notNull: row.not_null === true,
      default: defaultExpr,
    });
  }
  for (const row of indexes) {
    const kind = row.is_primary ? "primary key" : row.is_unique ? "unique index" : "index";
    const table = String(row.table_name);
    shape.indexes.set(String(row.index_name), {
      table,
      text: indexText(kind, table, row.columns as string[], String(row.method), row.predicate),
    });
  }
  for (const row of foreignKeys) {
    const table = String(row.table_name);
    shape.foreignKeys.set(String(row.name), {
      table,
      text: foreignKeyText(
        table, row.columns as string[], String(row.ref_table), row.ref_columns as string[],
        ACTION_CODES[String(row.on_delete)], ACTION_CODES[String(row.on_update)],
      ),
    });
  }
  for (const row of enums) shape.enums.set(String(row.name), row.labels as string[]);
  return shape;
}

// ---------------------------------------------------------------------------------------------

function diffNamed(kind: string, expected: Map<string, Named>, actual: Map<string, Named>, skipTables: Set<string>): string[] {
  const out: string[] = [];
  for (const [name, want] of expected) {
    if (skipTables.has(want.table)) continue;
    const have = actual.get(name);
    if (!have) out.push(`${kind} "${name}" is missing: expected ${want.text}`);
    else if (have.text !== want.text) out.push(`${kind} "${name}" differs: database has ${have.text}, schema.prisma expects ${want.text}`);
  }
  for (const [name, have] of actual) {
    if (!expected.has(name) && !skipTables.has(have.table)) out.push(`${kind} "${name}" is not in schema.prisma: ${have.text}`);
  }
  return out;
}

/**
 * What the migrations create on purpose and schema.prisma cannot describe: the full-text search
 * vectors (generated tsvector columns, prisma/migrations/20261126130000_note_search) and their
 * GIN indexes; the partial unique index that allows one owner (20261208120000). Each must be there as listed; it is then left out of the comparison.
 */
const DATABASE_ONLY = {
  columns: [
    { table: "transcriptions", column: "search", type: "tsvector" },
    { table: "optimization_workflows", column: "search", type: "tsvector" },
  ],
  indexes: [
    { name: "transcriptions_search_idx", text: "index on transcriptions (search) using gin" },
    { name: "optimization_workflows_search_idx", text: "index on optimization_workflows (search) using gin" },
    { name: "users_one_owner_key", text: "unique index on users (is_owner) using btree where is_owner" },
  ],
};

type DatabaseOnly = typeof DATABASE_ONLY;

function setAsideDatabaseOnly(actual: Shape<ActualColumn>, databaseOnly: DatabaseOnly): string[] {
  const out: string[] = [];
  for (const { table, column, type } of databaseOnly.columns) {
    const got = actual.tables.get(table)?.get(column);
    if (!got) out.push(`database-only column "${table}"."${column}" is missing: expected ${type}`);
    else if (got.type !== type) out.push(`database-only column "${table}"."${column}" has type ${got.type}, expected ${type}`);
    actual.tables.get(table)?.delete(column);
  }
  for (const { name, text } of databaseOnly.indexes) {
    const got = actual.indexes.get(name);
    if (!got) out.push(`database-only index "${name}" is missing: expected ${text}`);
    else if (got.text !== text) out.push(`database-only index "${name}" differs: database has ${got.text}, expected ${text}`);
    actual.indexes.delete(name);
  }
  return out;
}

function diffShapes(expected: Shape<ExpectedColumn>, actual: Shape<ActualColumn>, databaseOnly: DatabaseOnly): string[] {
  const out: string[] = setAsideDatabaseOnly(actual, databaseOnly);
  const skipTables = new Set<string>();

  for (const [name, values] of expected.enums) {
    const have = actual.enums.get(name);
    if (!have) {
      out.push(`enum "${name}" is missing: expected values ${values.join(", ")}`);
      continue;
    }
    const missing = values.filter((v) => !have.includes(v));
    const extra = have.filter((v) => !values.includes(v));
    if (missing.length) out.push(`enum "${name}" lacks values ${missing.join(", ")}`);
    if (extra.length) out.push(`enum "${name}" has values not in schema.prisma: ${extra.join(", ")}`);
  }
  for (const name of actual.enums.keys()) {
    if (!expected.enums.has(name)) out.push(`enum "${name}" is not in schema.prisma`);
  }

  for (const [table, columns] of expected.tables) {
    const have = actual.tables.get(table);
    if (!have) {
      out.push(`table "${table}" is missing`);
      skipTables.add(table);
      continue;
    }
    for (const [name, want] of columns) {
      const column = `column "${table}"."${name}"`;
      const got = have.get(name);
      if (!got) {
        out.push(`${column} is missing: expected ${want.type}${want.notNull ? " NOT NULL" : ""}`);
        continue;
      }
      if (got.type !== want.type) out.push(`${column} has type ${got.type}, schema.prisma expects ${want.type}`);
      if (got.notNull !== want.notNull) out.push(`${column} is ${got.notNull ? "NOT NULL" : "nullable"}, schema.prisma expects ${want.notNull ? "NOT NULL" : "nullable"}`);
      if (!want.default.matches(got.default)) out.push(`${column} has ${got.default === null ? "no default" : `default ${got.default}`}, schema.prisma expects ${want.default.text}`);
    }
    for (const [name, got] of have) {
      if (!columns.has(name)) out.push(`column "${table}"."${name}" is not in schema.prisma: ${got.type}${got.notNull ? " NOT NULL" : ""}`);
    }
  }
  for (const table of actual.tables.keys()) {
    if (!expected.tables.has(table)) {
      out.push(`table "${table}" is not in schema.prisma`);
      skipTables.add(table);
    }
  }

  out.push(...diffNamed("index", expected.indexes, actual.indexes, skipTables));
  out.push(...diffNamed("foreign key", expected.foreignKeys, actual.foreignKeys, skipTables));
  return out;
}

/** Differences between the database behind `query` and schema.prisma; empty when they match. */
export async function findSchemaDrift(query: Query, options: { schemaPath?: string } = {}): Promise<string[]> {
  const schemaPath = path.resolve(options.schemaPath ?? fileURLToPath(new URL("../../prisma/schema.prisma", import.meta.url)));
  assertSupported(schemaPath);
  // The database-only objects belong to this project's schema, not to a schema a test writes.
  const databaseOnly = options.schemaPath ? { columns: [], indexes: [] } : DATABASE_ONLY;
  return diffShapes(expectedShape(getDatamodel(schemaPath)), await actualShape(query), databaseOnly);
}
