import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";

// A tiny llama-architecture model in GGUF v3 (github.com/ggml-org/ggml docs/gguf.md): random F32
// weights, two layers of width 64, and a byte-level BPE vocabulary (the 256 bytes as GPT-2 spells
// them, no merges) with ChatML's control tokens and template. About 450 KB. node-llama-cpp loads
// it on the CPU and generates under a grammar like any model; what it writes is nonsense, which is
// what the tests want: the whole path of the local writer, without weights anyone must download.

const ALIGNMENT = 32;
const N_EMBD = 64;
const N_HEAD = 4;
const N_FF = 128;
const N_LAYER = 2;
const CONTEXT = 4096;
const SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"];
const CHAT_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

// GGUF value types and ggml tensor types used here.
const U32 = 4, I32 = 5, F32 = 6, STRING = 8, ARRAY = 9;
const GGML_F32 = 0;
const QUOTE = 0x22;
const QUOTE_WEIGHT = 0.4;
const OUTPUT_SCALE = 5;

/** GPT-2's byte → printable character table (each byte a token the BPE tokenizer can always fall back on). */
function byteTokens(): string[] {
  const printable = [...range(33, 126), ...range(161, 172), ...range(174, 255)];
  const tokens: string[] = [];
  let extra = 0;
  for (let byte = 0; byte < 256; byte++) tokens.push(String.fromCodePoint(printable.includes(byte) ? byte : 256 + extra++));
  return tokens;
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

class Writer {
  private chunks: Buffer[] = [];
  size = 0;
  push(buffer: Buffer) {
    this.chunks.push(buffer);
    this.size += buffer.length;
  }
  u32(v: number) { const b = Buffer.alloc(4); b.writeUInt32LE(v); this.push(b); }
  i32(v: number) { const b = Buffer.alloc(4); b.writeInt32LE(v); this.push(b); }
  u64(v: number) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); this.push(b); }
  f32(v: number) { const b = Buffer.alloc(4); b.writeFloatLE(v); this.push(b); }
  string(s: string) { const b = Buffer.from(s, "utf8"); this.u64(b.length); this.push(b); }
  pad() { const rest = this.size % ALIGNMENT; if (rest) this.push(Buffer.alloc(ALIGNMENT - rest)); }
  buffer() { return Buffer.concat(this.chunks); }
}

type Value = { type: typeof U32 | typeof I32 | typeof F32 | typeof STRING; value: number | string } | { type: typeof ARRAY; of: typeof I32 | typeof F32 | typeof STRING; values: (number | string)[] };

function writeValue(w: Writer, type: number, value: number | string) {
  if (type === U32) w.u32(value as number);
  else if (type === I32) w.i32(value as number);
  else if (type === F32) w.f32(value as number);
  else w.string(value as string);
}

/** The tiny model's bytes; the same seed gives the same file. */
export function tinyGguf(seed = 1): Buffer {
  const tokens = [...byteTokens(), ...SPECIALS];
  const nVocab = tokens.length;
  const metadata: [string, Value][] = [
    ["general.architecture", { type: STRING, value: "llama" }],
    ["general.name", { type: STRING, value: "voicedraft-tiny-test" }],
    ["general.alignment", { type: U32, value: ALIGNMENT }],
    ["llama.context_length", { type: U32, value: CONTEXT }],
    ["llama.embedding_length", { type: U32, value: N_EMBD }],
    ["llama.block_count", { type: U32, value: N_LAYER }],
    ["llama.feed_forward_length", { type: U32, value: N_FF }],
    ["llama.attention.head_count", { type: U32, value: N_HEAD }],
    ["llama.attention.head_count_kv", { type: U32, value: N_HEAD }],
    ["llama.rope.dimension_count", { type: U32, value: N_EMBD / N_HEAD }],
    ["llama.attention.layer_norm_rms_epsilon", { type: F32, value: 1e-5 }],
    ["tokenizer.ggml.model", { type: STRING, value: "gpt2" }],
    ["tokenizer.ggml.pre", { type: STRING, value: "default" }],
    ["tokenizer.ggml.tokens", { type: ARRAY, of: STRING, values: tokens }],
    ["tokenizer.ggml.token_type", { type: ARRAY, of: I32, values: tokens.map((_, i) => (i < 256 ? 1 : 3)) }],
    ["tokenizer.ggml.merges", { type: ARRAY, of: STRING, values: [] }],
    ["tokenizer.ggml.bos_token_id", { type: U32, value: 256 }],
    ["tokenizer.ggml.eos_token_id", { type: U32, value: 258 }],
    ["tokenizer.ggml.padding_token_id", { type: U32, value: 256 }],
    ["tokenizer.chat_template", { type: STRING, value: CHAT_TEMPLATE }],
  ];
  const tensors: { name: string; dims: number[]; fill: "ones" | "random" }[] = [
    { name: "token_embd.weight", dims: [N_EMBD, nVocab], fill: "random" },
    { name: "output_norm.weight", dims: [N_EMBD], fill: "ones" },
    { name: "output.weight", dims: [N_EMBD, nVocab], fill: "random" },
  ];
  for (let layer = 0; layer < N_LAYER; layer++) {
    const blk = (name: string, dims: number[], fill: "ones" | "random" = "random") => tensors.push({ name: `blk.${layer}.${name}.weight`, dims, fill });
    blk("attn_norm", [N_EMBD], "ones");
    blk("attn_q", [N_EMBD, N_EMBD]);
    blk("attn_k", [N_EMBD, N_EMBD]);
    blk("attn_v", [N_EMBD, N_EMBD]);
    blk("attn_output", [N_EMBD, N_EMBD]);
    blk("ffn_norm", [N_EMBD], "ones");
    blk("ffn_gate", [N_EMBD, N_FF]);
    blk("ffn_down", [N_FF, N_EMBD]);
    blk("ffn_up", [N_EMBD, N_FF]);
  }

  const w = new Writer();
  w.push(Buffer.from("GGUF", "ascii"));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(metadata.length);
  for (const [key, v] of metadata) {
    w.string(key);
    w.u32(v.type);
    if (v.type === ARRAY) {
      w.u32(v.of);
      w.u64(v.values.length);
      for (const item of v.values) writeValue(w, v.of, item);
    } else writeValue(w, v.type, v.value);
  }
  let offset = 0;
  const sizes = tensors.map((t) => t.dims.reduce((a, b) => a * b, 1) * 4);
  tensors.forEach((t, i) => {
    w.string(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(GGML_F32);
    w.u64(offset);
    offset += Math.ceil(sizes[i] / ALIGNMENT) * ALIGNMENT;
  });
  w.pad();
  let state = seed >>> 0 || 1;
  const random = () => {
    // xorshift32: deterministic, no dependency
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  // Shaped a little, so that its answers end: every token's embedding has a large first dimension,
  // which the output reads only for the quote mark, so a string under a JSON grammar closes after
  // a few characters, not after a thousand (QUOTE_WEIGHT and OUTPUT_SCALE were tried until most
  // answers ended within a few hundred tokens; at 0.6 every string was empty, at 0.3 few ended).
  // The output rows of bytes 0x80–0xFF are zero (random bytes above 0x7F are seldom valid UTF-8).
  const weight = (t: (typeof tensors)[number], j: number) => {
    if (t.fill === "ones") return 1;
    const value = (random() - 0.5) * 0.2;
    if (t.name === "token_embd.weight") return j % N_EMBD === 0 ? 4 : value;
    if (t.name !== "output.weight") return value;
    const token = Math.floor(j / N_EMBD);
    if (j % N_EMBD === 0) return token === QUOTE ? QUOTE_WEIGHT : 0;
    return token >= 0x80 && token < 0x100 ? 0 : value * OUTPUT_SCALE;
  };
  tensors.forEach((t, i) => {
    const data = Buffer.alloc(Math.ceil(sizes[i] / ALIGNMENT) * ALIGNMENT);
    for (let j = 0; j < sizes[i] / 4; j++) data.writeFloatLE(weight(t, j), j * 4);
    w.push(data);
  });
  return w.buffer();
}

/** Writes the tiny model to `file`; returns its size and SHA-256. */
export async function writeTinyGguf(file: string, seed = 1): Promise<{ bytes: number; sha256: string }> {
  const data = tinyGguf(seed);
  await writeFile(file, data);
  return { bytes: data.length, sha256: createHash("sha256").update(data).digest("hex") };
}
