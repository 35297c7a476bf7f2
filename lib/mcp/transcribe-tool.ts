import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/server";
import { env } from "@/lib/env.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { uploadOfBytes } from "@/lib/transcription/audio/receive-upload.ts";
import { transcribeReceived } from "@/lib/transcription/upload/transcribe-upload.ts";
import { toolRegistrar, type Caller } from "@/lib/mcp/tools.ts";

// transcribe_audio: a recording the assistant holds, sent as base64 in the call (never a URL the
// server would fetch), made into a note exactly as POST /transcribe makes one: the same sniffing,
// limits, recognizer, dictionary and clean-up. The MCP request's body is bounded by what it may carry.

/** The most audio one call may carry (decoded), within the upload limit. */
export const MCP_AUDIO_MAX_BYTES = 25 * 1024 * 1024;
/** The MCP request body that carries it: base64 (4/3) and the JSON-RPC envelope. */
export const MCP_BODY_MAX_BYTES = Math.ceil((MCP_AUDIO_MAX_BYTES * 4) / 3) + 64 * 1024;

// A person's recordings take turns however they come (transcribe-upload.ts): over MCP a large one
// is refused (429) before its body is read when four of the person's are under way (lib/mcp/handle-mcp.ts).

export function registerTranscribeTool(server: McpServer, caller: Caller): void {
  toolRegistrar(server, caller)(
    "transcribe_audio",
    {
      title: "Transcribe a recording",
      description: `Makes a note of a recording (any common audio format, at most ${MCP_AUDIO_MAX_BYTES / 1024 / 1024} MiB), with the person's dictionary and clean-up; answers the note's id and text.`,
      inputSchema: {
        audio_base64: z.string().min(1).describe("The recording's bytes, base64."),
        file_name: z.string().max(200).default("recording").describe("Its name, for the person's list."),
        language: z.string().max(16).optional().describe("ISO 639-1, when known."),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    "transcribe",
    async ({ audio_base64, language }) => {
      // Its size is known from the text; the bytes are decoded once, straight into one Buffer, and written to disk.
      const max = Math.min(MCP_AUDIO_MAX_BYTES, env().MAX_UPLOAD_BYTES);
      const size = Buffer.byteLength(audio_base64, "base64");
      if (size > max) throw new ApiError("payload_too_large", `The recording is ${size} bytes; one call carries at most ${max}.`);
      const bytes = Buffer.from(audio_base64, "base64");
      if (!bytes.length) throw new ApiError("missing_audio", "audio_base64 holds no bytes.");
      const upload = await uploadOfBytes(bytes);
      const body = await transcribeReceived({ upload, userId: caller.userId, fields: language ? { language } : {}, signal: caller.signal });
      return { id: body.id, text: body.text, duration: body.duration, language: body.language };
    },
  );
}
