import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { connectMcp } from "@/tests/support/mcp-client.ts";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { createTestUser, createTimedNote } from "@/tests/support/factories.ts";

// ask_notes over MCP, with the SDK's own client: the answer's citations as structured output
// (checked by the client against the tool's output schema), only the caller's notes, the API's
// validation as a refusal the model reads, and the scope.

const database = setUpTestDatabase();
before(() => database.ready);

const connect = connectMcp;

type ToolAnswer = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text: string }[] };

describe("the MCP tool ask_notes", () => {
  test("answers with citations to the caller's notes and their times; read-only", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const note = await createTimedNote(user, [["Hello there.", 0, 1], ["The launch moves to the second week of March.", 1.2, 4.8]], { title: "Launch plan" });
    await createTimedNote(other, [["Our launch is in April.", 0, 2]]);
    const client = await connect(user.key);
    const { tools } = await client.listTools();
    const ask = tools.find((t) => t.name === "ask_notes");
    assert.equal(ask?.annotations?.readOnlyHint, true);
    assert.deepEqual(ask?.inputSchema.required, ["question"]);
    assert.ok(ask?.outputSchema, "structured output is declared");

    const answer = (await client.callTool({ name: "ask_notes", arguments: { question: "When is the launch?" } })) as ToolAnswer;
    assert.equal(answer.isError, undefined, answer.content[0].text);
    const result = answer.structuredContent as { found: boolean; answered_by: string; citations: { note_id: string; note_title: string; quote: string; start: number; end: number }[] };
    assert.equal(result.found, true);
    assert.equal(result.answered_by, "offline");
    assert.deepEqual(result.citations.map((c) => [c.note_id, c.note_title, c.quote, c.start, c.end]), [
      [note.id, "Launch plan", "The launch moves to the second week of March.", 1.2, 4.8],
    ]);
    assert.match(answer.content[0].text, /second week of March/);

    const bad = (await client.callTool({ name: "ask_notes", arguments: { question: "launch", since: "2026-11-02", until: "2026-11-01" } })) as ToolAnswer;
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /validation_failed/);
    await client.close();

    const contentOnly = await createTestUser({ scopes: ["content:read"] });
    const limited = await connect(contentOnly.key);
    const refused = (await limited.callTool({ name: "ask_notes", arguments: { question: "launch" } })) as ToolAnswer;
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /insufficient_scope/);
    await limited.close();
  });
});
