import { open, type FileHandle } from "node:fs/promises";

// The whole GGUF header (github.com/ggml-org/ggml docs/gguf.md), read before llama.cpp is given
// the file: llama.cpp trusts its counts and lengths, so a header declaring 2^62 tensors or a
// string longer than the file kept the server busy for good (issue 66). Every count and length is
// held against the bytes the file has left, so a damaged or hostile header is refused after
// reading at most the header itself; string contents and array items are skipped, not read.

/** Why the file cannot be a model, in words a person reads (no offsets, no paths), or null. */
export async function ggufHeaderProblem(file: string): Promise<string | null> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, "r");
    const reader = new HeaderReader(handle, (await handle.stat()).size);
    return await checkHeader(reader);
  } catch (err) {
    if (err instanceof Damaged) return `the model file is damaged (${err.message})`;
    return `it cannot be read (${(err as NodeJS.ErrnoException).code ?? "unreadable"})`;
  } finally {
    await handle?.close();
  }
}

class Damaged extends Error {}

// Value types: their sizes, for the fixed-size ones (string 8 and array 9 are read apart).
const FIXED_SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;
const MAX_DIMS = 4; // GGML_MAX_DIMS
// The least bytes one entry can take: a key-value (an empty key, its type, one byte) and a tensor
// (an empty name, one dimension, its type and offset).
const MIN_KV_BYTES = 8 + 4 + 1;
const MIN_TENSOR_BYTES = 8 + 4 + 8 + 4 + 8;

async function checkHeader(reader: HeaderReader): Promise<string | null> {
  if (reader.size < 8) return "it is too short to be a model";
  if ((await reader.bytes(4)).toString("latin1") !== "GGUF") return "it is not a GGUF file (wrong magic number)";
  const version = await reader.u32();
  if (version !== 2 && version !== 3) return `it is GGUF version ${version}, not 2 or 3`;
  const tensors = await reader.u64();
  const kvs = await reader.u64();
  if (tensors * BigInt(MIN_TENSOR_BYTES) > BigInt(reader.left())) throw new Damaged("it declares more tensors than it can hold");
  if (kvs * BigInt(MIN_KV_BYTES) > BigInt(reader.left())) throw new Damaged("it declares more settings than it can hold");
  let alignment = 32;
  for (let i = 0n; i < kvs; i++) {
    const key = await reader.shortString();
    const type = await reader.u32();
    if (key === "general.alignment" && type === 4) alignment = await reader.u32();
    else await skipValue(reader, type);
  }
  if (alignment === 0 || (alignment & (alignment - 1)) !== 0) throw new Damaged("its alignment is not a power of two");
  const ends: bigint[] = [];
  for (let i = 0n; i < tensors; i++) {
    await reader.skipString();
    const dims = await reader.u32();
    if (dims < 1 || dims > MAX_DIMS) throw new Damaged("a tensor has an impossible number of dimensions");
    for (let d = 0; d < dims; d++) await reader.u64();
    await reader.u32(); // its type: llama.cpp knows which it supports
    ends.push(await reader.u64());
  }
  const dataStart = BigInt(Math.ceil(reader.position / alignment) * alignment);
  if (ends.some((offset) => dataStart + offset > BigInt(reader.size))) throw new Damaged("it ends before its tensors do");
  return null;
}

async function skipValue(reader: HeaderReader, type: number): Promise<void> {
  if (type === STRING) return reader.skipString();
  if (type === ARRAY) {
    const itemType = await reader.u32();
    const count = await reader.u64();
    if (itemType === STRING) {
      if (count * 8n > BigInt(reader.left())) throw new Damaged("a list is longer than the file");
      for (let i = 0n; i < count; i++) await reader.skipString();
      return;
    }
    const size = FIXED_SIZE[itemType];
    if (size === undefined) throw new Damaged("a list holds an unknown kind of value");
    return reader.skip(count * BigInt(size));
  }
  const size = FIXED_SIZE[type];
  if (size === undefined) throw new Damaged("a setting has an unknown kind of value");
  return reader.skip(BigInt(size));
}

/** Reads forward through the file in 1 MiB windows; every read and skip is held against its size. */
class HeaderReader {
  position = 0;
  private window = Buffer.alloc(0);
  private windowStart = 0;
  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  left(): number {
    return this.size - this.position;
  }

  async bytes(n: number): Promise<Buffer> {
    if (n > this.left()) throw new Damaged("it ends in the middle of its header");
    const from = this.position - this.windowStart;
    if (from < 0 || from + n > this.window.length) {
      this.window = Buffer.alloc(Math.max(n, 1 << 20));
      const { bytesRead } = await this.handle.read(this.window, 0, this.window.length, this.position);
      this.window = this.window.subarray(0, bytesRead);
      this.windowStart = this.position;
      if (bytesRead < n) throw new Damaged("it ends in the middle of its header");
    }
    const start = this.position - this.windowStart;
    this.position += n;
    return this.window.subarray(start, start + n);
  }

  async skip(n: bigint): Promise<void> {
    if (n > BigInt(this.left())) throw new Damaged("a value is longer than the file");
    this.position += Number(n);
  }

  async u32(): Promise<number> {
    return (await this.bytes(4)).readUInt32LE(0);
  }

  async u64(): Promise<bigint> {
    return (await this.bytes(8)).readBigUInt64LE(0);
  }

  /** A text of up to 256 bytes (a key), or null for a longer one, skipped unread. */
  async shortString(): Promise<string | null> {
    const length = await this.u64();
    if (length > BigInt(this.left())) throw new Damaged("a text is longer than the file");
    if (length > 256n) {
      this.position += Number(length);
      return null;
    }
    return (await this.bytes(Number(length))).toString("utf8");
  }

  async skipString(): Promise<void> {
    const length = await this.u64();
    if (length > BigInt(this.left())) throw new Damaged("a text is longer than the file");
    this.position += Number(length);
  }
}
