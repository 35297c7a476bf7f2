import assert from "node:assert/strict";
import { test } from "node:test";
import { detectAudioFormat } from "@/lib/transcription/audio-format.ts";

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
    ["id3 mp3", bytes("ID3", [4, 0, 0]), "mp3"],
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
