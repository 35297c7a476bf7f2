import assert from "node:assert/strict";
import { test } from "node:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { detectAudioFileFormat, detectAudioFormat } from "@/lib/transcription/audio/audio-format.ts";

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))));

test("containers are recognized from their first bytes", () => {
  const cases: Array<[string, Buffer, string]> = [
    ["wav", bytes("RIFF", [0, 0, 0, 0], "WAVEfmt "), "wav"],
    ["rf64", bytes("RF64", [0, 0, 0, 0], "WAVE"), "wav"],
    ["flac", bytes("fLaC", [0, 0, 0, 34]), "flac"],
    ["ogg", bytes("OggS", [0, 2]), "ogg"],
    ["webm", bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f]), "webm"],
    ["m4a", bytes([0, 0, 0, 0x20], "ftypM4A "), "mp4"],
    ["aiff", bytes("FORM", [0, 0, 0, 0], "AIFF"), "aiff"],
    ["id3 + mp3 frame", bytes("ID3", [4, 0, 0, 0, 0, 0, 2], "XY", [0xff, 0xfb, 0x90, 0x64]), "mp3"],
    ["id3 + zero padding + mp3 frame", bytes("ID3", [3, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0xff, 0xfb, 0x90, 0x64]), "mp3"],
    ["id3 + adts", bytes("ID3", [4, 0, 0, 0, 0, 0, 0], [0xff, 0xf1, 0x50, 0x80]), "aac"],
    ["id3 + flac", bytes("ID3", [4, 0, 0, 0, 0, 0, 0], "fLaC", [0, 0, 0, 34]), "flac"],
    ["two id3 tags + mp3 frame", bytes("ID3", [4, 0, 0, 0, 0, 0, 0], "ID3", [3, 0, 0, 0, 0, 0, 0], [0xff, 0xfb, 0x90, 0x64]), "mp3"],
    ["bare mp3 frame (MPEG-1 layer III, 128 kbit/s, 44.1 kHz)", bytes([0xff, 0xfb, 0x90, 0x64]), "mp3"],
    ["adts aac", bytes([0xff, 0xf1, 0x50, 0x80]), "aac"],
    ["amr", bytes("#!AMR\n"), "amr"],
  ];
  for (const [name, head, format] of cases) assert.equal(detectAudioFormat(head), format, name);
});

test("non-audio and lookalikes are not audio", () => {
  const cases: Array<[string, Buffer]> = [
    ["empty", Buffer.alloc(0)],
    ["text", bytes("hello world, not audio")],
    ["png", bytes([0x89], "PNG\r\n\x1a\n")],
    ["pdf", bytes("%PDF-1.7")],
    ["riff but avi", bytes("RIFF", [0, 0, 0, 0], "AVI LIST")],
    ["zip", bytes("PK", [3, 4])],
    ["mpeg sync with a reserved version", bytes([0xff, 0xeb, 0x90, 0x64])],
    ["mpeg sync with a bad bitrate", bytes([0xff, 0xfb, 0xf0, 0x64])],
  ];
  for (const [name, head] of cases) assert.equal(detectAudioFormat(head), null, name);
});

const id3 = (body = "") => bytes("ID3", [4, 0, 0, 0, 0, 0, body.length], body);
const HLS = "#EXTM3U\n#EXT-X-TARGETDURATION:11\n#EXTINF:11,\n/srv/voice/jfk.mp3\n#EXT-X-ENDLIST\n";
const FFCONCAT = "ffconcat version 1.0\nfile /srv/voice/jfk.mp3\n";
const DASH = '<?xml version="1.0"?>\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011"><Period><BaseURL>http://127.0.0.1/a.mp3</BaseURL></Period></MPD>';

test("an ID3 tag makes nothing audio by itself: what follows it must be", () => {
  const cases: Array<[string, Buffer]> = [
    ["bare ID3 header", bytes("ID3", [4, 0, 0])],
    ["ID3 and nothing after it", id3()],
    ["ID3 + text", Buffer.concat([id3(), bytes("hello, this is not audio")])],
    ["ID3 + garbage", Buffer.concat([id3(), Buffer.alloc(64, 0x5a)])],
    ["ID3 whose size is not syncsafe", bytes("ID3", [4, 0, 0, 0, 0, 0, 0x80], [0xff, 0xfb, 0x90, 0x64])],
    ["ID3 longer than the bytes", bytes("ID3", [4, 0, 0, 0, 0, 1, 0], [0xff, 0xfb, 0x90, 0x64])],
  ];
  for (const [name, head] of cases) assert.equal(detectAudioFormat(head), null, name);
});

test("playlists, concat lists and manifests are never audio, with or without an ID3 prefix", () => {
  const lists = { HLS, FFCONCAT, DASH, SMIL: '<smil><body><audio src="/etc/passwd"/></body></smil>', SDP: "v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\n" };
  for (const [name, text] of Object.entries(lists)) {
    assert.equal(detectAudioFormat(bytes(text)), null, name);
    assert.equal(detectAudioFormat(Buffer.concat([id3(), bytes(text)])), null, `ID3 + ${name}`);
    assert.equal(detectAudioFormat(Buffer.concat([bytes("ID3", [4, 0, 0, 0, 0, 0, 0], [0, 0]), bytes(text)])), null, `ID3 + padding + ${name}`);
  }
  // Behind a real audio header too: the first bytes name the demuxer, but no marker may follow.
  const mp3ThenHls = Buffer.concat([id3(), bytes([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(400), bytes(HLS.toLowerCase())]);
  assert.equal(detectAudioFormat(mp3ThenHls), null);
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
