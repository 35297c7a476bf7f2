import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { NotFoundError, Voicedraft, type TranscriptionResult } from "../dist/index.js";
import { getService, JFK_WAV } from "./service.ts";

// A note's recording, search, settings and deletion through the client (issue 24, 25).
describe("notes: audio, search, settings, delete", () => {
  let client: Voicedraft;
  let note: TranscriptionResult;
  before(async () => {
    const service = await getService();
    client = new Voicedraft({ baseUrl: service.baseUrl, apiKey: service.apiKey });
    note = await client.transcribe(JFK_WAV);
  });

  test("the kept recording, whole and a byte range", async () => {
    assert.ok(note.audio && note.audio.bytes > 1000, JSON.stringify(note.audio));
    const whole = await client.notes.getAudio(note.id);
    assert.equal(whole.bytes.length, note.audio!.bytes);
    assert.match(whole.contentType, /^audio\/webm/);
    const head = await client.notes.getAudio(note.id, { range: { start: 0, end: 3 } });
    assert.deepEqual([...head.bytes], [0x1a, 0x45, 0xdf, 0xa3]);
    assert.equal(head.contentRange, `bytes 0-3/${note.audio!.bytes}`);
    assert.equal(head.size, note.audio!.bytes);
  });

  test("search finds the note by a word in it, the word flagged in the snippet", async () => {
    const page = await client.notes.list({ q: "country" });
    const found = page.transcriptions.find((t) => t.id === note.id);
    assert.ok(found?.search, "found, with its match");
    assert.ok(found.search.snippet.some((p) => p.match && /country/i.test(p.text)));
  });

  test("tags and pin: set on a note, listed first and by tag, searched with tag:, renamed and deleted everywhere", async () => {
    const other = await client.transcribe(JFK_WAV, { idempotencyKey: `tags-${Date.now()}` });
    const tagged = await client.notes.update(other.id, { tags: ["#Speeches ", "history", "speeches"], pinned: true });
    assert.deepEqual([tagged.tags, tagged.pinned], [["Speeches", "history"], true]);
    assert.equal((await client.notes.list({ limit: 1 })).transcriptions[0].id, other.id);
    assert.deepEqual((await client.notes.list({ tag: "SPEECHES" })).transcriptions.map((t) => t.id), [other.id]);
    assert.deepEqual((await client.notes.list({ q: "tag:history countr" })).transcriptions.map((t) => t.id), [other.id]);
    assert.ok((await client.tags.list()).tags.some((t) => t.name === "Speeches" && t.notes === 1));
    assert.deepEqual(await client.tags.rename({ from: "speeches", to: "Oratory" }), { tag: { name: "Oratory", notes: 1 }, merged: false });
    assert.deepEqual(await client.tags.delete({ name: "oratory" }), { deleted: { name: "Oratory", notes: 1 } });
    await assert.rejects(client.tags.delete({ name: "oratory" }), NotFoundError);
    await client.notes.delete(other.id);
  });

  test("settings: the language, and what the recognizer can do for it", async () => {
    const settings = await client.settings.update({ language: "auto" });
    assert.equal(settings.language, "auto");
    assert.equal((await client.settings.get()).recognizer.language_supported, true);
  });

  test("delete: the note and its recording are gone", async () => {
    const other = await client.transcribe(JFK_WAV, { idempotencyKey: `delete-${Date.now()}` });
    await client.notes.delete(other.id);
    await assert.rejects(client.notes.get(other.id), NotFoundError);
    await assert.rejects(client.notes.getAudio(other.id), NotFoundError);
  });

  test("export: a ZIP stream", async () => {
    const reader = (await client.account.export()).getReader();
    const { value } = await reader.read();
    assert.deepEqual([...value!.subarray(0, 4)], [0x50, 0x4b, 0x03, 0x04]);
    await reader.cancel();
  });
});

// A recording sent while it is made (issue 32): slices by offset, then one note.
describe("live recordings", () => {
  test("notes.appendLiveAudio by offset, then notes.finishLiveRecording makes one note; finishing again answers it", async () => {
    const service = await getService();
    const client = new Voicedraft({ baseUrl: service.baseUrl, apiKey: service.apiKey });
    const { readFile } = await import("node:fs/promises");
    const wav = new Uint8Array(await readFile(JFK_WAV));
    const id = `sdk-live-${Date.now()}`;
    const slice = Math.ceil(wav.length / 4);
    for (let offset = 0; offset < wav.length; offset += slice) {
      const state = await client.notes.appendLiveAudio(id, wav.subarray(offset, offset + slice), { offset, contentType: "audio/wav" });
      assert.equal(state.bytes_received, Math.min(wav.length, offset + slice));
    }
    const note = await client.notes.finishLiveRecording(id);
    // Recognized in pieces as it came: words (PocketSphinx hears the 11 s clip cut in pieces roughly).
    assert.ok((note.text.match(/\p{L}+/gu) ?? []).length >= 8, note.text);
    assert.ok(Math.abs(note.duration - 11) < 1, `the whole recording: ${note.duration} s`);
    assert.equal((await client.notes.finishLiveRecording(id)).id, note.id);
    assert.equal((await client.notes.getLiveRecording(id)).transcription_id, note.id);
  });
});
