// npx tsx bench/cost-model-gguf.ts --model qwen2.5-1.5b --out <file>: a cost model, a GGUF v3 with
// a named model's architecture, tensor shapes and Q4_K_M tensor types and its real vocabulary, but
// made-up weights: it costs llama.cpp what the real model costs (the same bytes mapped and repacked,
// the same matrix products, the same tokenizer), without a 1 GB download. Benches call
// `costModelGguf()`; the file is cached under node_modules/.cache/voicedraft/ (never committed).
//
// The weights, and why they write JSON of a sane length under a grammar: every layer's matrices are
// zero-mean quants with the smallest normal fp16 scale (2^-14), so the layers add almost nothing to
// the residual stream; every token's embedding is the same all-equal row times its own level, so
// the logits are those levels (a unigram model). A few common words and the quote mark share the
// top level, below top-k's 40, so inside a JSON string the model picks one of them at random and
// closes the string with a chance of 1 in (words + 1); outside one the grammar picks. No fp16 scale
// is NaN, Inf or subnormal.
//
// Q4_K_M as llama.cpp's src/llama-quant.cpp (llama_tensor_get_type) makes it: the tied token
// embedding (also the output) Q6_K; attn_v and ffn_down Q6_K in the layers `use_more_bits` picks
// (i < n/8 || i >= 7n/8 || (i - n/8) % 3 == 2), Q4_K elsewhere; every other matrix Q4_K; norms and
// biases F32. The vocabulary's key-values are copied from llama.cpp's models/ggml-vocab-<name>.gguf,
// read from the llama.cpp source node-llama-cpp ships (llama/gitRelease.bundle).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

type Architecture = {
  arch: "qwen2" | "qwen35";
  name: string;
  vocabFile: string;
  /** The instruct model's chat template in llama.cpp's models/templates/ (the vocabulary file's is the base model's). */
  chatTemplate: string;
  /** The instruct model's end of turn (the vocabulary file names the base model's). */
  eos: string;
  layers: number;
  embd: number;
  heads: number;
  kvHeads: number;
  ffn: number;
  vocab: number;
  ropeTheta: number;
  context: number;
  rmsEps: number;
  /** qwen35: the attention head's size when it is not embd / heads (attention.key_length, value_length). */
  headDim?: number;
  /** qwen35: Gated DeltaNet (linear attention) in every layer but each `interval`-th, which has full attention. */
  hybrid?: {
    interval: number;
    convKernel: number;
    keyHeads: number;
    valueHeads: number;
    /** linear_key_head_dim = linear_value_head_dim (llama.cpp's ssm.state_size). */
    stateSize: number;
    /** partial_rotary_factor × head_dim, and M-RoPE's sections (mrope_section, padded to 4). */
    ropeDims: number;
    ropeSections: number[];
  };
  /** A published Q4_K_M file of the real model, to print the cost model's size beside. */
  published?: { file: string; bytes: number };
};

// Qwen3.5-2B (Apache-2.0, March 2026): its config.json's text_config. The vocabulary file is
// llama.cpp's test vocabulary for the qwen35 pre-tokenizer, which holds Qwen2's 151,936 tokens,
// not Qwen3.5's ~248k: the embedding and the output keep the real 248,320 rows (the rest padded),
// so the matrix products cost what they cost, but a prompt is counted in Qwen2's tokens.
const QWEN35_2B: Architecture = {
  arch: "qwen35",
  name: "Qwen3.5-2B (cost model: made-up weights)",
  vocabFile: "models/ggml-vocab-qwen35.gguf",
  chatTemplate: "models/templates/Qwen3.5-4B.jinja", // the small Qwen3.5 models share this template
  eos: "<|im_end|>",
  layers: 24,
  embd: 2048,
  heads: 8,
  kvHeads: 2,
  ffn: 6144,
  vocab: 248320,
  ropeTheta: 1e7,
  context: 262144,
  rmsEps: 1e-6,
  headDim: 256,
  hybrid: { interval: 4, convKernel: 4, keyHeads: 16, valueHeads: 16, stateSize: 128, ropeDims: 64, ropeSections: [11, 11, 10, 0] },
  published: { file: "unsloth/Qwen3.5-2B-GGUF Qwen3.5-2B-Q4_K_M.gguf", bytes: 1_280_835_840 },
};

/** The models a cost model can stand in for (their config.json's numbers). */
export const COST_MODELS: Record<string, Architecture> = {
  "qwen2.5-1.5b": {
    arch: "qwen2",
    name: "Qwen2.5-1.5B-Instruct (cost model: made-up weights)",
    vocabFile: "models/ggml-vocab-qwen2.gguf",
    chatTemplate: "models/templates/Qwen-Qwen2.5-7B-Instruct.jinja", // the same template as 1.5B-Instruct's
    eos: "<|im_end|>",
    layers: 28,
    embd: 1536,
    heads: 12,
    kvHeads: 2,
    ffn: 8960,
    vocab: 151936,
    ropeTheta: 1e6,
    context: 32768,
    rmsEps: 1e-6,
  },
  "qwen3.5-2b": QWEN35_2B,
  // Qwen3.5-0.8B: the same layout, narrower (hidden 1024, FFN 3584); the heads stay 256 wide.
  "qwen3.5-0.8b": { ...QWEN35_2B, name: "Qwen3.5-0.8B (cost model: made-up weights)", embd: 1024, ffn: 3584, published: undefined },
};

/** The words that share the top level with the quote mark (byte-level BPE spells a leading space Ġ). */
const WORDS = ["the", "note", "team", "we", "and", "to", "of", "it", "was", "our", "what", "about", "next", "week", "write", "moved", "learned", "with", "is", "on", "for", "that", "this", "in", "boring", "point", "up", "report", "send"].map((w) => `Ġ${w}`);
const QUOTE = '"';
const TOP = 0.05;
const REST = 0.01;
const TINY = 2 ** -14; // the smallest normal fp16

const ROOT = path.resolve(import.meta.dirname, "..");
const CACHE = path.join(ROOT, "node_modules/.cache/voicedraft");
const ALIGNMENT = 32;
// GGUF value types; ggml tensor types and their blocks (256 values: Q4_K 144 bytes, Q6_K 210).
const T = { U8: 0, I8: 1, U16: 2, I16: 3, U32: 4, I32: 5, F32: 6, BOOL: 7, STRING: 8, ARRAY: 9, U64: 10, I64: 11, F64: 12 } as const;
const FIXED: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const GGML = { F32: 0, Q4_K: 12, Q6_K: 14 } as const;
const BLOCK_BYTES: Record<number, number> = { [GGML.Q4_K]: 144, [GGML.Q6_K]: 210 };
const FILE_TYPE_Q4_K_M = 15;

/** llama-quant.cpp's `use_more_bits`: the layers whose attn_v and ffn_down get Q6_K in Q4_K_M. */
export const moreBitsLayer = (layer: number, layers: number): boolean =>
  layer < Math.floor(layers / 8) || layer >= Math.floor((7 * layers) / 8) || (layer - Math.floor(layers / 8)) % 3 === 2;

// ─── Reading the vocabulary's key-values ───────────────────────────────────────────────────────

type Kv = { key: string; raw: Buffer };

function readKvs(file: string): Kv[] {
  const data = readFileSync(file);
  let at = 0;
  const u32 = () => ((at += 4), data.readUInt32LE(at - 4));
  const u64 = () => ((at += 8), Number(data.readBigUInt64LE(at - 8)));
  const str = () => {
    const n = u64();
    at += n;
    return data.toString("utf8", at - n, at);
  };
  const skip = (type: number) => {
    // (a length read first: `at += u64()` would add to the offset from before the read)
    if (type === T.STRING) {
      const n = u64();
      return void (at += n);
    }
    if (type === T.ARRAY) {
      const of = u32();
      const n = u64();
      if (of === T.STRING) for (let i = 0; i < n; i++) skip(T.STRING);
      else at += n * FIXED[of];
      return;
    }
    at += FIXED[type];
  };
  if (data.toString("latin1", 0, 4) !== "GGUF") throw new Error(`${file} is not a GGUF file`);
  at = 8;
  u64(); // tensors
  const count = u64();
  const kvs: Kv[] = [];
  for (let i = 0; i < count; i++) {
    const start = at;
    const key = str();
    skip(u32());
    kvs.push({ key, raw: data.subarray(start, at) });
  }
  return kvs;
}

/** A string array's items, or an int32 array's (the tokens and their types, to pad). */
function arrayOf(kv: Kv): (string | number)[] {
  const b = kv.raw;
  let at = 8 + Number(b.readBigUInt64LE(0)) + 4; // the key's length and bytes, the value's type
  const of = b.readUInt32LE(at);
  const n = Number(b.readBigUInt64LE(at + 4));
  at += 12;
  const out: (string | number)[] = [];
  for (let i = 0; i < n; i++) {
    if (of === T.STRING) {
      const len = Number(b.readBigUInt64LE(at));
      out.push(b.toString("utf8", at + 8, at + 8 + len));
      at += 8 + len;
    } else {
      out.push(b.readInt32LE(at));
      at += 4;
    }
  }
  return out;
}

// ─── Writing ──────────────────────────────────────────────────────────────────────────────────

class Bytes {
  private parts: Buffer[] = [];
  size = 0;
  push(b: Buffer) {
    this.parts.push(b);
    this.size += b.length;
  }
  u32(v: number) { const b = Buffer.alloc(4); b.writeUInt32LE(v); this.push(b); }
  u64(v: number) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); this.push(b); }
  f32(v: number) { const b = Buffer.alloc(4); b.writeFloatLE(v); this.push(b); }
  str(s: string) { const b = Buffer.from(s, "utf8"); this.u64(b.length); this.push(b); }
  kv(key: string, type: number, value: number | string) {
    this.str(key);
    this.u32(type);
    if (type === T.STRING) this.str(value as string);
    else if (type === T.F32) this.f32(value as number);
    else this.u32(value as number);
  }
  array(key: string, of: typeof T.STRING | typeof T.I32, items: (string | number)[]) {
    this.str(key);
    this.u32(T.ARRAY);
    this.u32(of);
    this.u64(items.length);
    for (const item of items) {
      if (of === T.STRING) this.str(item as string);
      else { const b = Buffer.alloc(4); b.writeInt32LE(item as number); this.push(b); }
    }
  }
  buffer() { return Buffer.concat(this.parts); }
}

/** A normal float as fp16 (round to nearest; the values here are exact or well inside the range). */
function half(v: number): number {
  if (v === 0) return 0;
  const sign = v < 0 ? 0x8000 : 0;
  const a = Math.abs(v);
  const exp = Math.floor(Math.log2(a));
  if (exp < -14 || exp > 15) throw new Error(`${v} is not a normal fp16`);
  const mantissa = Math.round((a / 2 ** exp - 1) * 1024);
  return sign | ((exp + 15) << 10) | Math.min(mantissa, 1023);
}

type Tensor = { name: string; dims: number[]; type: number; fill: "embedding" | "weights" | "ones" | "zeros" };

/** Adds a tensor of the layer at hand. */
type AddTensor = (name: string, dims: number[], type: number, fill?: Tensor["fill"]) => void;

/**
 * The tied token embedding (Q6_K) and the final norm, then each layer's tensors as `layer` adds
 * them; `more` is the layer's type for the tensors `use_more_bits` picks (Q6_K in those layers).
 */
function tensorsWith(a: Architecture, layer: (i: number, t: AddTensor, more: number) => void): Tensor[] {
  const tensors: Tensor[] = [
    { name: "token_embd.weight", dims: [a.embd, a.vocab], type: GGML.Q6_K, fill: "embedding" },
    { name: "output_norm.weight", dims: [a.embd], type: GGML.F32, fill: "ones" },
  ];
  for (let i = 0; i < a.layers; i++) {
    layer(i, (name, dims, type, fill = "weights") => tensors.push({ name: `blk.${i}.${name}`, dims, type, fill }), moreBitsLayer(i, a.layers) ? GGML.Q6_K : GGML.Q4_K);
  }
  return tensors;
}

function tensorsOf(a: Architecture): Tensor[] {
  if (a.hybrid) return hybridTensorsOf(a, a.hybrid);
  const kv = (a.embd / a.heads) * a.kvHeads;
  return tensorsWith(a, (_, t, more) => {
    t("attn_norm.weight", [a.embd], GGML.F32, "ones");
    t("attn_q.weight", [a.embd, a.embd], GGML.Q4_K);
    t("attn_q.bias", [a.embd], GGML.F32, "zeros");
    t("attn_k.weight", [a.embd, kv], GGML.Q4_K);
    t("attn_k.bias", [kv], GGML.F32, "zeros");
    t("attn_v.weight", [a.embd, kv], more);
    t("attn_v.bias", [kv], GGML.F32, "zeros");
    t("attn_output.weight", [a.embd, a.embd], GGML.Q4_K);
    t("ffn_norm.weight", [a.embd], GGML.F32, "ones");
    t("ffn_gate.weight", [a.embd, a.ffn], GGML.Q4_K);
    t("ffn_up.weight", [a.embd, a.ffn], GGML.Q4_K);
    t("ffn_down.weight", [a.ffn, a.embd], more);
  });
}

/**
 * qwen35's tensors (llama.cpp's src/models/qwen35.cpp, load_arch_tensors). Every layer: the norms
 * before and after attention, a SwiGLU FFN. Each `interval`-th layer: full attention, whose attn_q
 * gives the query and its output gate (2 × heads × head_dim), with per-head q/k norms. The others:
 * Gated DeltaNet: attn_qkv (q, k, v in one), attn_gate (z), ssm_beta and ssm_alpha (one row per value
 * head), the causal conv1d, dt's bias, A, the gated norm and ssm_out. No MTP layer (not run when
 * writing, and not loaded unless asked).
 *
 * Q4_K_M: llama-quant.cpp counts attn_qkv as attention-v-like (category_is_attn_v), so the one
 * `use_more_bits` counter runs over attn_v and attn_qkv together: one of them a layer, Q6_K in the
 * layers it picks. attn_gate, ssm_beta, ssm_alpha and ssm_out fall to the default, Q4_K; ssm_conv1d is
 * never quantized (F32), nor are the 1-D dt bias, A and norms.
 *
 * The weights: the matrices as in every layer here (near zero); the conv1d, dt's bias and A zero,
 * so q, k and v come out of the conv as 0, the DeltaNet state stays 0 (A = 0: a decay of exp(0) = 1,
 * never a growth), the l2 and RMS norms of 0 are 0 (llama.cpp divides by max(norm, eps)), and the
 * layer adds exactly 0 to the residual stream: the model stays a unigram model, with no NaN. The
 * zeros cost what any values cost (no sparse path in ggml's CPU kernels, and no subnormals).
 */
function hybridTensorsOf(a: Architecture, h: NonNullable<Architecture["hybrid"]>): Tensor[] {
  const headDim = a.headDim ?? a.embd / a.heads;
  const keyDim = h.stateSize * h.keyHeads;
  const valueDim = h.stateSize * h.valueHeads;
  return tensorsWith(a, (i, t, more) => {
    t("attn_norm.weight", [a.embd], GGML.F32, "ones");
    if ((i + 1) % h.interval === 0) {
      t("attn_q.weight", [a.embd, headDim * a.heads * 2], GGML.Q4_K);
      t("attn_k.weight", [a.embd, headDim * a.kvHeads], GGML.Q4_K);
      t("attn_v.weight", [a.embd, headDim * a.kvHeads], more);
      t("attn_output.weight", [headDim * a.heads, a.embd], GGML.Q4_K);
      t("attn_q_norm.weight", [headDim], GGML.F32, "ones");
      t("attn_k_norm.weight", [headDim], GGML.F32, "ones");
    } else {
      t("attn_qkv.weight", [a.embd, keyDim * 2 + valueDim], more);
      t("attn_gate.weight", [a.embd, valueDim], GGML.Q4_K);
      t("ssm_conv1d.weight", [h.convKernel, keyDim * 2 + valueDim], GGML.F32, "zeros");
      t("ssm_dt.bias", [h.valueHeads], GGML.F32, "zeros");
      t("ssm_a", [h.valueHeads], GGML.F32, "zeros");
      t("ssm_beta.weight", [a.embd, h.valueHeads], GGML.Q4_K);
      t("ssm_alpha.weight", [a.embd, h.valueHeads], GGML.Q4_K);
      t("ssm_norm.weight", [h.stateSize], GGML.F32, "ones");
      t("ssm_out.weight", [valueDim, a.embd], GGML.Q4_K);
    }
    t("post_attention_norm.weight", [a.embd], GGML.F32, "ones");
    t("ffn_gate.weight", [a.embd, a.ffn], GGML.Q4_K);
    t("ffn_up.weight", [a.embd, a.ffn], GGML.Q4_K);
    t("ffn_down.weight", [a.ffn, a.embd], more);
  });
}

const bytesOf = (t: Tensor) => {
  const n = t.dims.reduce((x, y) => x * y, 1);
  return t.type === GGML.F32 ? n * 4 : (n / 256) * BLOCK_BYTES[t.type];
};

/** `count` random blocks of the type: zero-mean quants, every scale 1 and d (and Q4_K's dmin = 7.5 d) 2^-14. */
function randomBlocks(type: number, count: number): Buffer {
  const size = BLOCK_BYTES[type];
  const out = randomBytes(size * count);
  for (let b = 0; b < count; b++) {
    const o = b * size;
    if (type === GGML.Q4_K) {
      out.writeUInt16LE(half(TINY), o);
      out.writeUInt16LE(half(7.5 * TINY), o + 2);
      // 6-bit scales and mins, all 1 (get_scale_min_k4's packing)
      for (let j = 0; j < 8; j++) out[o + 4 + j] = 1;
      for (let j = 8; j < 12; j++) out[o + 4 + j] = 0x11;
    } else {
      for (let j = 0; j < 16; j++) out[o + 192 + j] = 1;
      out.writeUInt16LE(half(TINY), o + 208);
    }
  }
  return out;
}

/** A Q6_K row whose every value is `level`: each quant 33 (q - 32 = 1), each scale 1, d = level. */
function levelRow(embd: number, level: number): Buffer {
  const block = Buffer.alloc(210);
  block.fill(0x11, 0, 128);
  block.fill(0xaa, 128, 192);
  block.fill(1, 192, 208);
  block.writeUInt16LE(half(level), 208);
  return Buffer.concat(Array.from({ length: embd / 256 }, () => block));
}

/** A file of the llama.cpp source node-llama-cpp ships, taken from its bundle once and cached. */
export function llamaSourceFile(relative: string): string {
  const cached = path.join(CACHE, path.basename(relative));
  if (existsSync(cached)) return cached;
  mkdirSync(CACHE, { recursive: true });
  const bundle = path.join(ROOT, "node_modules/node-llama-cpp/llama/gitRelease.bundle");
  const git = mkdtempSync(path.join(tmpdir(), "vd-llama-src-"));
  try {
    execFileSync("git", ["init", "-q", "--bare", git]);
    execFileSync("git", ["--git-dir", git, "fetch", "-q", bundle, "HEAD"]);
    writeFileSync(`${cached}.part`, execFileSync("git", ["--git-dir", git, "show", `FETCH_HEAD:${relative}`], { maxBuffer: 2 ** 30 }));
    renameSync(`${cached}.part`, cached);
    return cached;
  } finally {
    rmSync(git, { recursive: true, force: true });
  }
}

/** The GGUF's header (key-values and tensor infos, padded) for this architecture and vocabulary. */
function header(a: Architecture, tensors: Tensor[]): { header: Buffer; tokens: string[] } {
  const replaced = ["tokenizer.chat_template", "tokenizer.ggml.eos_token_id", "tokenizer.ggml.add_bos_token"];
  const kvs = readKvs(llamaSourceFile(a.vocabFile)).filter((kv) => kv.key.startsWith("tokenizer.") && !replaced.includes(kv.key));
  const tokensKv = kvs.find((kv) => kv.key === "tokenizer.ggml.tokens")!;
  const typesKv = kvs.find((kv) => kv.key === "tokenizer.ggml.token_type")!;
  const tokens = arrayOf(tokensKv) as string[];
  const types = arrayOf(typesKv) as number[];
  if (tokens.length > a.vocab) throw new Error(`the vocabulary has ${tokens.length} tokens, more than the model's ${a.vocab}`);
  // Padded as llama.cpp's convert_hf_to_gguf.py pads (the embedding has rows the tokenizer never names).
  for (let i = tokens.length; i < a.vocab; i++) {
    tokens.push(`[PAD${i}]`);
    types.push(5); // UNUSED
  }
  const w = new Bytes();
  w.push(Buffer.from("GGUF"));
  w.u32(3);
  w.u64(tensors.length);
  const own: [string, number, number | string][] = [
    ["general.architecture", T.STRING, a.arch],
    ["general.name", T.STRING, a.name],
    ["general.file_type", T.U32, FILE_TYPE_Q4_K_M],
    ["general.quantization_version", T.U32, 2],
    ["general.alignment", T.U32, ALIGNMENT],
    [`${a.arch}.block_count`, T.U32, a.layers],
    [`${a.arch}.context_length`, T.U32, a.context],
    [`${a.arch}.embedding_length`, T.U32, a.embd],
    [`${a.arch}.feed_forward_length`, T.U32, a.ffn],
    [`${a.arch}.attention.head_count`, T.U32, a.heads],
    [`${a.arch}.attention.head_count_kv`, T.U32, a.kvHeads],
    [`${a.arch}.rope.freq_base`, T.F32, a.ropeTheta],
    [`${a.arch}.attention.layer_norm_rms_epsilon`, T.F32, a.rmsEps],
  ];
  const h = a.hybrid;
  if (h) {
    // What llama.cpp's convert_hf_to_gguf.py writes for qwen35 (read by llama_model_qwen35::load_arch_hparams).
    own.push(
      [`${a.arch}.attention.key_length`, T.U32, a.headDim!],
      [`${a.arch}.attention.value_length`, T.U32, a.headDim!],
      [`${a.arch}.rope.dimension_count`, T.U32, h.ropeDims],
      [`${a.arch}.full_attention_interval`, T.U32, h.interval],
      [`${a.arch}.ssm.conv_kernel`, T.U32, h.convKernel],
      [`${a.arch}.ssm.state_size`, T.U32, h.stateSize],
      [`${a.arch}.ssm.group_count`, T.U32, h.keyHeads],
      [`${a.arch}.ssm.time_step_rank`, T.U32, h.valueHeads],
      [`${a.arch}.ssm.inner_size`, T.U32, h.stateSize * h.valueHeads],
    );
  }
  own.push(["tokenizer.chat_template", T.STRING, readFileSync(llamaSourceFile(a.chatTemplate), "utf8")], ["tokenizer.ggml.eos_token_id", T.U32, tokens.indexOf(a.eos)]);
  w.u64(own.length + 1 + (h ? 1 : 0) + kvs.length);
  w.str("tokenizer.ggml.add_bos_token");
  w.u32(T.BOOL);
  w.push(Buffer.from([0]));
  for (const [key, type, value] of own) w.kv(key, type, value);
  if (h) w.array(`${a.arch}.rope.dimension_sections`, T.I32, h.ropeSections);
  for (const kv of kvs) {
    if (kv === tokensKv) w.array(kv.key, T.STRING, tokens);
    else if (kv === typesKv) w.array(kv.key, T.I32, types);
    else w.push(kv.raw);
  }
  let offset = 0;
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(t.type);
    w.u64(offset);
    offset += Math.ceil(bytesOf(t) / ALIGNMENT) * ALIGNMENT;
  }
  const rest = w.size % ALIGNMENT;
  if (rest) w.push(Buffer.alloc(ALIGNMENT - rest));
  return { header: w.buffer(), tokens };
}

/** Writes the cost model of `model` to `out` (streamed: about 1 GB for qwen2.5-1.5b). */
export async function writeCostModel(model: string, out: string): Promise<void> {
  const a = COST_MODELS[model];
  if (!a) throw new Error(`no cost model "${model}" (known: ${Object.keys(COST_MODELS).join(", ")})`);
  const tensors = tensorsOf(a);
  const { header: head, tokens } = header(a, tensors);
  const top = new Set([...WORDS, QUOTE].map((word) => tokens.indexOf(word)));
  if (top.has(-1)) throw new Error("a top-level word is not a token of the vocabulary");
  const pool: Record<number, Buffer> = { [GGML.Q4_K]: randomBlocks(GGML.Q4_K, 4096), [GGML.Q6_K]: randomBlocks(GGML.Q6_K, 4096) };
  const file = await open(`${out}.part`, "w");
  try {
    await file.write(head);
    for (const t of tensors) {
      const size = bytesOf(t);
      const chunks: Buffer[] = [];
      if (t.fill === "embedding") {
        const [embd, rows] = t.dims;
        const topRow = levelRow(embd, TOP);
        const restRow = levelRow(embd, REST);
        for (let r = 0; r < rows; r++) chunks.push(top.has(r) ? topRow : restRow);
      } else if (t.type === GGML.F32) {
        const b = Buffer.alloc(size);
        if (t.fill === "ones") for (let i = 0; i < size; i += 4) b.writeFloatLE(1, i);
        chunks.push(b);
      } else {
        const random = pool[t.type];
        for (let done = 0; done < size; done += random.length) chunks.push(done + random.length <= size ? random : random.subarray(0, size - done));
      }
      const padding = Math.ceil(size / ALIGNMENT) * ALIGNMENT - size;
      if (padding) chunks.push(Buffer.alloc(padding));
      for (let i = 0; i < chunks.length; i += 4096) await file.writev(chunks.slice(i, i + 4096));
    }
  } finally {
    await file.close();
  }
  renameSync(`${out}.part`, out);
}

/** The cost model's path, written once into the cache (or `dir`) and reused. */
export async function costModelGguf(model = "qwen2.5-1.5b", dir = CACHE): Promise<string> {
  const out = path.join(dir, `cost-${model}-q4_k_m-v1.gguf`);
  if (!existsSync(out)) {
    mkdirSync(dir, { recursive: true });
    await writeCostModel(model, out);
  }
  return out;
}

if (import.meta.filename === process.argv[1] || process.argv[1]?.endsWith("cost-model-gguf.ts")) {
  const { values } = parseArgs({ options: { model: { type: "string", default: "qwen2.5-1.5b" }, out: { type: "string" } } });
  const started = performance.now();
  const out = values.out ?? path.join(CACHE, `cost-${values.model}-q4_k_m-v1.gguf`);
  await writeCostModel(values.model!, out);
  const bytes = statSync(out).size;
  console.log(`${out}: ${bytes.toLocaleString("en")} bytes, written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const published = COST_MODELS[values.model!].published;
  if (published) console.log(`${published.file}: ${published.bytes.toLocaleString("en")} bytes (the cost model ${bytes > published.bytes ? "+" : "−"}${Math.abs(bytes - published.bytes).toLocaleString("en")}, ${((100 * (bytes - published.bytes)) / published.bytes).toFixed(2)}%)`);
}
