// The first bytes of audio files and of what must never pass for audio: the inputs of
// tests/unit/audio-format.test.ts, and of bench/libraries.ts, which runs file-type on the same ones.

/** Bytes from latin1 text and byte lists. */
export const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))));

/** An ID3v2.4 tag holding `body`. */
export const id3 = (body = "") => bytes("ID3", [4, 0, 0, 0, 0, 0, body.length], body);

/** A container's first bytes, and the format the service decodes it as. */
export const AUDIO_HEADS: Array<[string, Buffer, string]> = [
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

/** Other files, and lookalikes of audio headers. */
export const LOOKALIKES: Array<[string, Buffer]> = [
  ["empty", Buffer.alloc(0)],
  ["text", bytes("hello world, not audio")],
  ["png", bytes([0x89], "PNG\r\n\x1a\n")],
  ["pdf", bytes("%PDF-1.7")],
  ["riff but avi", bytes("RIFF", [0, 0, 0, 0], "AVI LIST")],
  ["zip", bytes("PK", [3, 4])],
  ["mpeg sync with a reserved version", bytes([0xff, 0xeb, 0x90, 0x64])],
  ["mpeg sync with a bad bitrate", bytes([0xff, 0xfb, 0xf0, 0x64])],
];

/** An ID3 tag with no audio after it. */
export const ID3_WITHOUT_AUDIO: Array<[string, Buffer]> = [
  ["bare ID3 header", bytes("ID3", [4, 0, 0])],
  ["ID3 and nothing after it", id3()],
  ["ID3 + text", Buffer.concat([id3(), bytes("hello, this is not audio")])],
  ["ID3 + garbage", Buffer.concat([id3(), Buffer.alloc(64, 0x5a)])],
  ["ID3 whose size is not syncsafe", bytes("ID3", [4, 0, 0, 0, 0, 0, 0x80], [0xff, 0xfb, 0x90, 0x64])],
  ["ID3 longer than the bytes", bytes("ID3", [4, 0, 0, 0, 0, 1, 0], [0xff, 0xfb, 0x90, 0x64])],
];

export const HLS = "#EXTM3U\n#EXT-X-TARGETDURATION:11\n#EXTINF:11,\n/srv/voice/jfk.mp3\n#EXT-X-ENDLIST\n";
export const DASH = '<?xml version="1.0"?>\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011"><Period><BaseURL>http://127.0.0.1/a.mp3</BaseURL></Period></MPD>';

/** Texts that make a demuxer read other files (playlists, concat lists, manifests). */
export const LISTS: Record<string, string> = {
  HLS,
  FFCONCAT: "ffconcat version 1.0\nfile /srv/voice/jfk.mp3\n",
  DASH,
  SMIL: '<smil><body><audio src="/etc/passwd"/></body></smil>',
  SDP: "v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\n",
};

/** A real MP3 header with an HLS playlist behind it. */
export const MP3_THEN_HLS = Buffer.concat([id3(), bytes([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(400), bytes(HLS.toLowerCase())]);
