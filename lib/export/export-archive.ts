import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { dictionaryEntriesInIdOrder } from "@/lib/dictionary/store/dictionary-entries.ts";
import { notesInIdOrder } from "@/lib/notes/store/note-lists.ts";
import { postsInIdOrder } from "@/lib/posts/store/post-lists.ts";
import { log, errorFields } from "@/lib/log.ts";
import { audioStore, type AudioStorage } from "@/lib/note-audio/audio-store.ts";
import { csvRow, noteMarkdown, postMarkdown } from "@/lib/export/export-files.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { heavyTurns } from "@/lib/turns/heavy-turns.ts";

// Everything of one user as a ZIP, produced as it is read: notes (Markdown) and their kept
// recordings, the dictionary (CSV) and posts (Markdown). Rows are read 100 at a time and audio
// chunk by chunk, and the generator only advances when the reader takes the previous bytes, so
// memory stays at a batch and a chunk whatever the account's size (fflate's streaming Zip).

const BATCH = 100;
/** Notes a read: a note may hold 1M characters, and one read of 100 such held the embedded database's one session for seconds. */
const NOTE_BATCH = 10;
/** Exports one person may have under way; another is refused (429) before it starts. */
export const EXPORTS_OPEN_PER_PERSON = 2;
// Each step of an export (a read, a file compressed) is one of the person's turns, the next resting as
// long as the last took (lib/turns/heavy-turns.ts): four exports at once made others' reads 27–35× slower.
const exportTurns = heavyTurns("exports", { perPerson: 1, maxWaiting: EXPORTS_OPEN_PER_PERSON, restFor: (elapsed) => elapsed });
const open = new Map<string, number>();
const encoder = new TextEncoder();

/** Rows in id order (uuid v7: creation order), a batch per query. */
async function* batches<T extends { id: string }>(read: (after: string | undefined) => Promise<T[]>, size = BATCH): AsyncGenerator<T> {
  let after: string | undefined;
  for (;;) {
    const rows = await read(after);
    yield* rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1].id;
  }
}

export async function* exportArchive({ userId }: { userId: string }): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, data) => {
    if (err) failure = err;
    else out.push(data);
  });
  function* flush(): Generator<Uint8Array> {
    if (failure) throw failure;
    while (out.length) yield out.shift()!;
  }
  const taken = new Set<string>();
  const unique = (folder: string, base: string, ext: string) => {
    let name = `${folder}/${base}${ext}`;
    for (let n = 2; taken.has(name); n++) name = `${folder}/${base}-${n}${ext}`;
    taken.add(name);
    return name;
  };
  const addText = (name: string, text: string, date?: Date) => {
    const file = new ZipDeflate(name, { level: 6 });
    if (date) file.mtime = date;
    zip.add(file);
    file.push(encoder.encode(text), true);
  };

  const notes = batches((after) =>
    notesInIdOrder({ userId, after, take: NOTE_BATCH }, {
      id: true, title: true, text: true, rawText: true, language: true, durationSec: true, editedAt: true, recordedAt: true,
      createdAt: true, audioStorage: true, audioBytes: true, optimization: { select: { status: true, optimizedText: true } }, insights: true, tags: true,
    }),
    NOTE_BATCH,
  );
  for await (const note of notes) {
    const { base, markdown, date } = noteMarkdown(note);
    const name = unique("notes", base, ".md");
    addText(name, markdown, date);
    yield* flush();
    if (note.audioStorage && note.audioBytes) {
      yield* addAudio(note.audioStorage as AudioStorage, { userId, transcriptionId: note.id }, note.audioBytes, name.replace(/^notes\//, "audio/").replace(/\.md$/, ".webm"), date);
    }
  }

  const dictionary = new ZipDeflate("dictionary.csv", { level: 6 });
  zip.add(dictionary);
  dictionary.push(encoder.encode(csvRow(["misspelling", "correct_spelling"])));
  const entries = batches((after) => dictionaryEntriesInIdOrder({ userId, after, take: BATCH }));
  for await (const entry of entries) {
    dictionary.push(encoder.encode(csvRow([entry.misspelling, entry.correctSpelling])));
    yield* flush();
  }
  dictionary.push(new Uint8Array(0), true);
  yield* flush();

  const posts = batches((after) =>
    postsInIdOrder({ userId, after, take: BATCH }, {
      id: true, kind: true, title: true, body: true, masterId: true, sourceTranscriptionId: true, approvedHash: true, contentHash: true,
      createdAt: true, updatedAt: true, channel: { select: { name: true, platform: true } },
      deliveries: { select: { state: true }, orderBy: { createdAt: "desc" }, take: 1 },
    }),
  );
  for await (const post of posts) {
    const { base, markdown, date } = postMarkdown(post);
    addText(unique("posts", base, ".md"), markdown, date);
    yield* flush();
  }

  zip.end();
  yield* flush();

  /** A recording, stored as it is (Opus is compressed already), read from its store chunk by chunk. */
  async function* addAudio(kind: AudioStorage, key: { userId: string; transcriptionId: string }, size: number, name: string, date: Date) {
    const chunks = audioStore(kind).read(key, { start: 0, end: size - 1 })[Symbol.asyncIterator]();
    let next: IteratorResult<Uint8Array>;
    try {
      next = await chunks.next();
    } catch (err) {
      // A recording its store lost (a file removed by hand) costs the export that file, not the rest.
      log.warn("export: a kept recording could not be read", { transcription_id: key.transcriptionId, ...errorFields(err) });
      return;
    }
    const file = new ZipPassThrough(name);
    file.mtime = date;
    zip.add(file);
    for (; !next.done; next = await chunks.next()) {
      file.push(next.value);
      yield* flush();
    }
    file.push(new Uint8Array(0), true);
    yield* flush();
  }
}

/**
 * The archive as a response body: made as it is read, a step a turn; a reader that goes away stops
 * the reading. A person's third export at once is refused (429) before anything is sent.
 */
export function exportStream({ userId }: { userId: string }): ReadableStream<Uint8Array> {
  const under = open.get(userId) ?? 0;
  if (under >= EXPORTS_OPEN_PER_PERSON) {
    throw new ApiError("rate_limited", `You have ${under} exports under way; wait for one to finish. Try again in 10 s.`, { headers: { "Retry-After": "10" } });
  }
  open.set(userId, under + 1);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    const left = (open.get(userId) ?? 1) - 1;
    if (left) open.set(userId, left);
    else open.delete(userId);
  };
  const chunks = exportArchive({ userId });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await exportTurns(userId, () => chunks.next());
          if (next.done) {
            close();
            controller.close();
          } else controller.enqueue(next.value);
        } catch (err) {
          close();
          // The status (200) is sent already: the download ends early, and the log says why.
          log.error("export failed after it began", { user_id: userId, ...errorFields(err) });
          controller.error(err);
        }
      },
      async cancel() {
        close();
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
