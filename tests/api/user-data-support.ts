// Shared by the delete and export tests: a user's notes (with kept audio in either store), posts
// made from them (a master and a variant on a channel), and a quick look at where audio lives.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { db } from "@/lib/db/client.ts";
import { env } from "@/lib/env.ts";
import { audioStore, type AudioStorage } from "@/lib/note-audio/audio-store.ts";
import type { TestUser } from "@/tests/support/factories.ts";

/** Bytes that stand for a kept recording (the stores keep any bytes; a WebM header for show). */
export const FAKE_WEBM = Buffer.concat([Buffer.from("1a45dfa3", "hex"), randomBytes(300 * 1024)]);

type NoteOptions = { text?: string; rawText?: string; title?: string | null; audio?: AudioStorage; optimizedText?: string; recordedAt?: Date };

/** A note of this user, written straight to the database (no recognizer needed), with its audio kept if asked. */
export async function noteOf(user: TestUser, options: NoteOptions = {}) {
  const prisma = await db();
  const requestHash = randomBytes(32).toString("hex");
  const optimization = options.optimizedText
    ? await prisma.cleanUpWorkflow.create({
        data: {
          userId: user.id, requestHash, name: "transcript-optimization", optimizer: "local", mode: "background",
          status: "completed", callId: "call", chunksTotal: 1, chunksDone: 1, optimizedText: options.optimizedText,
          chunks: { create: [{ index: 0, inputText: options.rawText ?? "raw", outputText: options.optimizedText }] },
        },
      })
    : null;
  await prisma.recognitionWorkflow.create({
    data: {
      userId: user.id, requestHash, status: "completed", piecesTotal: 1, durationSec: 12,
      pieces: { create: [{ index: 0, startSec: 0, endSec: 12, status: "completed", result: { text: "raw" } }] },
    },
  });
  const rawText = options.rawText ?? "so this is the recognized text. and more of it";
  const note = await prisma.note.create({
    data: {
      userId: user.id, text: options.text ?? rawText, rawText, language: "en", durationSec: 12.4, engine: "test",
      audioSha256: "0".repeat(64), requestHash, optimizationId: optimization?.id ?? null, title: options.title ?? null,
      recordedAt: options.recordedAt ?? null,
    },
  });
  if (options.audio) {
    const dir = await mkdtemp(path.join(tmpdir(), "vd-note-"));
    try {
      const file = path.join(dir, "a.webm");
      await writeFile(file, FAKE_WEBM);
      const bytes = await audioStore(options.audio).put({ userId: user.id, transcriptionId: note.id }, file);
      await prisma.note.update({
        where: { id: note.id },
        data: { audioStorage: options.audio, audioType: "audio/webm; codecs=opus", audioBytes: bytes, audioKeptAt: new Date() },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return note;
}

/** A master made from the note and one variant of it on a new channel (with a task and a delivery). */
export async function postsOf(user: TestUser, transcriptionId: string | null, body = "A post about the note.") {
  const prisma = await db();
  const channel = await prisma.channel.create({ data: { userId: user.id, platform: "linkedin", name: "my linkedin" } });
  const preset = await prisma.preset.findFirstOrThrow({ where: { userId: null } });
  const hash = randomBytes(32).toString("hex");
  const master = await prisma.post.create({
    data: { userId: user.id, kind: "master", title: "A post", body, contentHash: hash, sourceTranscriptionId: transcriptionId, sourceTextKind: "recognized" },
  });
  const variant = await prisma.post.create({
    data: {
      userId: user.id, kind: "variant", masterId: master.id, title: "A post", body: `${body} #linkedin`, contentHash: hash,
      channelId: channel.id, presetId: preset.id, sourceTitle: "A post", sourceBody: body, sourceHash: hash, sourceVersion: 1,
      generationTasks: {
        create: [{ userId: user.id, state: "succeeded", generator: "local", baseVersion: 1, sourceTitle: "A post", sourceBody: body, sourceHash: hash, sourceVersion: 1 }],
      },
      deliveries: {
        create: [{ userId: user.id, method: "copy", state: "copied", contentHash: hash, events: { create: [{ userId: user.id, clientEventId: randomBytes(8).toString("hex"), toState: "copied", requestHash: hash }] } }],
      },
    },
  });
  return { master, variant, channel };
}

export const audioFileOf = (userId: string, id: string) => path.join(env().dataDir, "audio", userId, `${id}.webm`);
export const audioDirOf = (userId: string) => path.join(env().dataDir, "audio", userId);
export const exists = existsSync;
