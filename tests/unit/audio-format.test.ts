import assert from "node:assert/strict";
import { test } from "node:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { detectAudioFileFormat, detectAudioFormat } from "@/lib/transcription/audio/audio-format.ts";
import { AUDIO_HEADS, bytes, DASH, HLS, ID3_WITHOUT_AUDIO, id3, LISTS, LOOKALIKES, MP3_THEN_HLS } from "@/tests/support/audio-heads.ts";

test("containers are recognized from their first bytes", () => {
  for (const [name, head, format] of AUDIO_HEADS) assert.equal(detectAudioFormat(head), format, name);
});

test("non-audio and lookalikes are not audio", () => {
  for (const [name, head] of LOOKALIKES) assert.equal(detectAudioFormat(head), null, name);
});

test("an ID3 tag makes nothing audio by itself: what follows it must be", () => {
  for (const [name, head] of ID3_WITHOUT_AUDIO) assert.equal(detectAudioFormat(head), null, name);
});

test("playlists, concat lists and manifests are never audio, with or without an ID3 prefix", () => {
  for (const [name, text] of Object.entries(LISTS)) {
    assert.equal(detectAudioFormat(bytes(text)), null, name);
    assert.equal(detectAudioFormat(Buffer.concat([id3(), bytes(text)])), null, `ID3 + ${name}`);
    assert.equal(detectAudioFormat(Buffer.concat([bytes("ID3", [4, 0, 0, 0, 0, 0, 0], [0, 0]), bytes(text)])), null, `ID3 + padding + ${name}`);
  }
  // Behind a real audio header too: the first bytes name the demuxer, but no marker may follow.
  assert.equal(detectAudioFormat(MP3_THEN_HLS), null);
});

test("on disk, an ID3 tag longer than the sniffed bytes is skipped by reading past it", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "vd-sniff-"));
  try {
    const file = path.join(dir, "upload");
    const bigTag = (after: Buffer) => {
      const size = 100_000; // cover art
      const header = bytes("ID3", [4, 0, 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
      return Buffer.concat([header, Buffer.alloc(size, 0x41), after]);
    };
    await writeFile(file, bigTag(bytes([0xff, 0xfb, 0x90, 0x64], Buffer.alloc(1000).toString("latin1"))));
    assert.equal(await detectAudioFileFormat(file), "mp3");
    await writeFile(file, bigTag(bytes(HLS)));
    assert.equal(await detectAudioFileFormat(file), null, "a playlist behind a long ID3 tag");
    await writeFile(file, bigTag(Buffer.alloc(0)));
    assert.equal(await detectAudioFileFormat(file), null, "an ID3 tag and nothing else");
    await writeFile(file, Buffer.concat([id3(), bytes(DASH)]));
    assert.equal(await detectAudioFileFormat(file), null);
    await writeFile(file, Buffer.concat([bytes("fLaC", [0, 0, 0, 34]), Buffer.alloc(40)]));
    assert.equal(await detectAudioFileFormat(file), "flac");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
