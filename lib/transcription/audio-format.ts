// Which audio container an upload is, from its first bytes — never from its name or declared
// type, which phones and browsers get wrong (a webm recording named "voice.m4a", an empty type).

export type AudioFormat = "wav" | "mp3" | "mp4" | "aac" | "ogg" | "webm" | "flac" | "aiff" | "caf" | "amr";

/** How many leading bytes detectAudioFormat needs. */
export const FORMAT_SNIFF_BYTES = 64;

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

export function detectAudioFormat(bytes: Uint8Array): AudioFormat | null {
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WAVE")) return "wav";
  if (ascii(bytes, 0, "RF64") && ascii(bytes, 8, "WAVE")) return "wav";
  if (ascii(bytes, 0, "fLaC")) return "flac";
  if (ascii(bytes, 0, "OggS")) return "ogg";
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return "webm"; // EBML: webm/mkv
  if (ascii(bytes, 4, "ftyp")) return "mp4"; // m4a, mp4, 3gp, mov
  if (ascii(bytes, 0, "FORM") && (ascii(bytes, 8, "AIFF") || ascii(bytes, 8, "AIFC"))) return "aiff";
  if (ascii(bytes, 0, "caff")) return "caf";
  if (ascii(bytes, 0, "#!AMR")) return "amr";
  if (ascii(bytes, 0, "ID3")) return "mp3"; // an ID3v2 tag; ffmpeg checks what follows it
  if (isAdts(bytes)) return "aac";
  if (isMpegAudioFrame(bytes, 0)) return "mp3";
  return null;
}

export const SUPPORTED_FORMATS_TEXT = "WAV, MP3, M4A/MP4/AAC, OGG/Opus, WebM/Opus, FLAC, AIFF, CAF or AMR";
