import { open } from "node:fs/promises";

// Which audio container an upload is, from its bytes — never from its name or declared type,
// which phones and browsers get wrong (a webm recording named "voice.m4a", an empty type).
// The answer also picks ffmpeg's demuxer: nothing that could make ffmpeg open another file or URL
// (playlists, concat lists, manifests) is ever recognized as audio.

export type AudioFormat = "wav" | "mp3" | "mp4" | "aac" | "ogg" | "webm" | "flac" | "aiff" | "caf" | "amr";

/** How many leading bytes are sniffed (and searched for playlist and manifest markers). */
export const FORMAT_SNIFF_BYTES = 8192;

const ascii = (bytes: Uint8Array, offset: number, text: string) =>
  bytes.length >= offset + text.length && [...text].every((c, i) => bytes[offset + i] === c.charCodeAt(0));

/** MPEG audio frame header: 11 sync bits, then a valid version, layer III/II/I, bitrate, sample rate. */
function isMpegAudioFrame(b: Uint8Array, i: number): boolean {
  if (b.length < i + 4 || b[i] !== 0xff || (b[i + 1] & 0xe0) !== 0xe0) return false;
  const version = (b[i + 1] >> 3) & 0x03;
  const layer = (b[i + 1] >> 1) & 0x03;
  const bitrate = b[i + 2] >> 4;
  const sampleRate = (b[i + 2] >> 2) & 0x03;
  return version !== 0x01 && layer !== 0x00 && bitrate !== 0x0f && bitrate !== 0 && sampleRate !== 0x03;
}

/** ADTS (raw AAC) header: 12 sync bits, layer 00. */
const isAdts = (b: Uint8Array) => b.length >= 2 && b[0] === 0xff && (b[1] & 0xf6) === 0xf0;

// What starts an HLS playlist, an ffconcat list, a DASH or Smooth Streaming manifest, SMIL, an IMF
// composition or an SDP session: formats whose content names other files or URLs. Specific enough
// that compressed audio practically never contains them by chance.
const REFERENCE_MARKERS = /#extm3u|#ext-x-|ffconcat|<mpd[\s>]|<smil[\s>]|<smoothstreamingmedia|<compositionplaylist|^v=0\r?\n/i;

/** True when the bytes contain a playlist or manifest marker anywhere. */
export function referencesOtherFiles(bytes: Uint8Array): boolean {
  return REFERENCE_MARKERS.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
}

/** Length of the ID3v2 tag at the start (header, body and footer), or 0 if there is none. */
export function id3TagLength(b: Uint8Array): number {
  if (!ascii(b, 0, "ID3") || b.length < 10 || b[3] < 2 || b[3] > 4 || b[4] === 0xff) return 0;
  if ([b[6], b[7], b[8], b[9]].some((x) => x >= 0x80)) return 0; // the size is "syncsafe": 7 bits a byte
  const size = (b[6] << 21) | (b[7] << 14) | (b[8] << 7) | b[9];
  return 10 + size + (b[5] & 0x10 ? 10 : 0);
}

/** The container of `bytes` (an upload's first bytes), or null if it is not audio this service decodes. */
export function detectAudioFormat(bytes: Uint8Array): AudioFormat | null {
  if (referencesOtherFiles(bytes)) return null;
  return detectAt(bytes);
}

function detectAt(bytes: Uint8Array): AudioFormat | null {
  if (ascii(bytes, 0, "ID3")) {
    // ffmpeg skips an ID3v2 tag before any container, so what follows it is what must be audio.
    const tag = id3TagLength(bytes);
    if (!tag || tag >= bytes.length) return null;
    return detectAt(skipZeros(bytes.subarray(tag)));
  }
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WAVE")) return "wav";
  if (ascii(bytes, 0, "RF64") && ascii(bytes, 8, "WAVE")) return "wav";
  if (ascii(bytes, 0, "fLaC")) return "flac";
  if (ascii(bytes, 0, "OggS")) return "ogg";
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return "webm"; // EBML: webm/mkv
  if (ascii(bytes, 4, "ftyp")) return "mp4"; // m4a, mp4, 3gp, mov
  if (ascii(bytes, 0, "FORM") && (ascii(bytes, 8, "AIFF") || ascii(bytes, 8, "AIFC"))) return "aiff";
  if (ascii(bytes, 0, "caff")) return "caf";
  if (ascii(bytes, 0, "#!AMR")) return "amr";
  if (isAdts(bytes)) return "aac";
  if (isMpegAudioFrame(bytes, 0)) return "mp3";
  return null;
}

// Encoders often pad between the ID3 tag and the first frame.
function skipZeros(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  return bytes.subarray(i);
}

/**
 * The format of an audio file on disk: like detectAudioFormat on its first bytes, but an ID3v2
 * tag longer than those (cover art runs to megabytes) is skipped by reading past it.
 */
export async function detectAudioFileFormat(filePath: string): Promise<AudioFormat | null> {
  const file = await open(filePath, "r");
  try {
    const read = async (position: number) => {
      const buffer = Buffer.alloc(FORMAT_SNIFF_BYTES);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
      return buffer.subarray(0, bytesRead);
    };
    let offset = 0;
    for (;;) {
      const window = await read(offset);
      if (referencesOtherFiles(window)) return null;
      if (!ascii(window, 0, "ID3")) return detectAt(window);
      const tag = id3TagLength(window);
      if (!tag) return null;
      const after = await read(offset + tag);
      offset += tag + (after.length - skipZeros(after).length);
    }
  } finally {
    await file.close();
  }
}

/** ffmpeg's demuxer for each format, forced so that ffmpeg never guesses one from the content. */
export const FFMPEG_DEMUXER: Record<AudioFormat, string> = {
  wav: "wav",
  mp3: "mp3",
  mp4: "mov",
  aac: "aac",
  ogg: "ogg",
  webm: "matroska",
  flac: "flac",
  aiff: "aiff",
  caf: "caf",
  amr: "amr",
};

export const SUPPORTED_FORMATS_TEXT = "WAV, MP3, M4A/MP4/AAC, OGG/Opus, WebM/Opus, FLAC, AIFF, CAF or AMR";
