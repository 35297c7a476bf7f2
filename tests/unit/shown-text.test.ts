import assert from "node:assert/strict";
import { test } from "node:test";
import { PGlite } from "@electric-sql/pglite";
import { Prisma } from "@/lib/db/generated/client.ts";
import { SHOWN_TEXT_KIND_SQL, SHOWN_TEXT_SQL } from "@/lib/notes/store/shown-text-sql.ts";
import { presentedTextOf, shownTextOf, TRIMMED_WHITESPACE } from "@/lib/notes/store/shown-text.ts";

// Which text a note shows (lib/notes/store/shown-text.ts): one rule for the stored note and the note as
// the API answers it, used by the note's page, insights, rewrites, posts, exports and the assistant.

const stored = (editedAt: Date | null, optimization: { status: string; optimizedText: string | null } | null) => ({ text: "the recognized text", editedAt, optimization });
const presented = (edited_at: string | null, optimization: { status: string; text: string | null } | null) => ({ text: "the recognized text", edited_at, optimization });

test("the person's edit, else a completed clean-up that is not blank, else the recognized text", () => {
  const cases: [Parameters<typeof stored>, Parameters<typeof presented>, string, string][] = [
    [[new Date(), { status: "completed", optimizedText: "The clean text." }], ["2026-11-29T10:00:00Z", { status: "completed", text: "The clean text." }], "the recognized text", "edited"],
    [[null, { status: "completed", optimizedText: "The clean text." }], [null, { status: "completed", text: "The clean text." }], "The clean text.", "optimized"],
    [[null, { status: "completed", optimizedText: "  \n" }], [null, { status: "completed", text: "  \n" }], "the recognized text", "recognized"],
    [[null, { status: "running", optimizedText: null }], [null, { status: "running", text: null }], "the recognized text", "recognized"],
    [[null, { status: "failed", optimizedText: "half" }], [null, { status: "failed", text: "half" }], "the recognized text", "recognized"],
    [[null, null], [null, null], "the recognized text", "recognized"],
  ];
  for (const [row, answer, text, kind] of cases) {
    assert.deepEqual(shownTextOf(stored(...row)), { text, kind }, JSON.stringify(row));
    assert.deepEqual(presentedTextOf(presented(...answer)), { text, kind }, JSON.stringify(answer));
  }
});

test("a recording's joined parts, which no one edits, show their clean-up once it is complete", () => {
  assert.deepEqual(presentedTextOf({ text: "part one part two", optimization: { status: "completed", text: "Part one. Part two." } }), { text: "Part one. Part two.", kind: "optimized" });
  assert.deepEqual(presentedTextOf({ text: "part one part two", optimization: null }), { text: "part one part two", kind: "recognized" });
});

test("the blank characters are exactly what trim() trims", () => {
  const trimmed = [];
  for (let code = 0; code <= 0xffff; code++) if (String.fromCharCode(code).trim() === "") trimmed.push(String.fromCharCode(code));
  assert.deepEqual([...TRIMMED_WHITESPACE].sort(), trimmed.sort());
});

// The SQL twin (lib/notes/store/shown-text-sql.ts), run by the database on the same cases: the
// raw queries (Ask's passages) and the TypeScript (the note's page, snippets, posts) cannot disagree.
test("the SQL twin shows what shownTextOf shows", async () => {
  const pg = new PGlite();
  try {
    const blanks = ["", "  \n", ...TRIMMED_WHITESPACE];
    const cases: Parameters<typeof stored>[] = [
      [new Date(), { status: "completed", optimizedText: "The clean text." }],
      [new Date(), null],
      [null, { status: "completed", optimizedText: "The clean text." }],
      [null, { status: "completed", optimizedText: "  padded, kept as it is \n" }],
      ...blanks.map((blank): Parameters<typeof stored> => [null, { status: "completed", optimizedText: blank }]),
      [null, { status: "completed", optimizedText: "\u200b" }], // a zero-width space is no blank to trim()
      [null, { status: "completed", optimizedText: "\u0085" }],
      [null, { status: "completed", optimizedText: null }],
      [null, { status: "running", optimizedText: "half of it" }],
      [null, { status: "failed", optimizedText: "half" }],
      [null, null],
    ];
    for (const [editedAt, optimization] of cases) {
      const query = Prisma.sql`
        SELECT ${SHOWN_TEXT_SQL} AS text, ${SHOWN_TEXT_KIND_SQL} AS kind
        FROM (SELECT ${"the recognized text"}::text AS text, ${editedAt?.toISOString() ?? null}::timestamptz AS edited_at) t
        LEFT JOIN (SELECT ${optimization?.status ?? null}::text AS status, ${optimization?.optimizedText ?? null}::text AS optimized_text) o ON ${optimization !== null}`;
      const { rows } = await pg.query<{ text: string; kind: string }>(query.text, query.values);
      assert.deepEqual(rows[0], shownTextOf(stored(editedAt, optimization)), JSON.stringify([editedAt, optimization]));
    }
  } finally {
    await pg.close();
  }
});
