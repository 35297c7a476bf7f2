import { open } from "node:fs/promises";
import type { Piece } from "@/lib/transcription/audio/plan-pieces.ts";

// The audio of one piece of a long recording, cut from the decoded recording to be stored with
// the piece (where every worker can read it).

const RATE = 16_000;

/** One piece of the decoded recording as its own 16 kHz mono s16le WAV file's bytes. */
export async function pieceWav(wavPath: string, dataOffset: number, piece: Piece): Promise<Buffer> {
  const first = Math.round(piece.start * RATE);
  const count = Math.max(0, Math.round(piece.end * RATE) - first);
  const wav = Buffer.alloc(44 + count * 2);
  const file = await open(wavPath, "r");
  let read = 0;
  try {
    ({ bytesRead: read } = await file.read(wav, 44, count * 2, dataOffset + first * 2));
  } finally {
    await file.close();
  }
  const data = read & ~1;
  wav.write("RIFF", 0, "ascii");
  wav.writeUInt32LE(36 + data, 4);
  wav.write("WAVEfmt ", 8, "ascii");
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(RATE, 24);
  wav.writeUInt32LE(RATE * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36, "ascii");
  wav.writeUInt32LE(data, 40);
  return wav.subarray(0, 44 + data);
}
