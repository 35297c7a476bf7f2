import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/server";
import { askNotes } from "@/lib/ask/ask-notes.ts";
import { AskAnswer, AskInput } from "@/lib/ask/schemas.ts";
import { parseWith, toolRegistrar, type Caller } from "@/lib/mcp/tools.ts";

// ask_notes: POST /api/v1/ask for an assistant. The same input schema (question, tag, since,
// until) and answer: the text and its citations (note, quote, start/end seconds) as structured
// output, so the assistant can name the note and the moment. It only reads.

export function registerAskTool(server: McpServer, caller: Caller): void {
  toolRegistrar(server, caller)(
    "ask_notes",
    {
      title: "Ask the notes",
      description:
        "Answers a question from the person's voice notes, with citations: each names the note (id, title), quotes the " +
        "sentence and gives its time in the recording in seconds. Written by the person's writer when one is set up, " +
        "else the best-matching sentences grouped by note; found is false when nothing matched.",
      inputSchema: AskInput.shape,
      // A copy without the schema's OpenAPI id: with it the SDK writes a $ref, and a tool's output schema must be an object.
      outputSchema: z.object(AskAnswer.shape),
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    "transcribe",
    async (input) => askNotes({ userId: caller.userId, input: parseWith(AskInput, input) }),
  );
}
