import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { ggufHeaderProblem } from "@/lib/writer/local/gguf-header.ts";
import { tinyGguf } from "@/tests/support/tiny-gguf.ts";

// The GGUF header checked whole before llama.cpp sees the file (issue 66): absurd counts and
// lengths, which llama.cpp trusted and kept the server busy on, are refused at once, in plain
// words; the tiny test model, a real GGUF, passes.

const dir = await mkdtemp(path.join(tmpdir(), "vd-gguf-header-"));
after(() => rm(dir, { recursive: true, force: true }));

const u32 = (v: number) => Buffer.from(new Uint32Array([v]).buffer);
const u64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};
const text = (s: string) => Buffer.concat([u64(BigInt(Buffer.byteLength(s))), Buffer.from(s)]);
const header = (tensors: bigint, kvs: bigint, ...rest: Buffer[]) => Buffer.concat([Buffer.from("GGUF"), u32(3), u64(tensors), u64(kvs), ...rest, Buffer.alloc(4096)]);

const HOSTILE: [string, Buffer][] = [
  ["2^62 tensors", header(2n ** 62n, 0n)],
  ["2^64 - 1 tensors", header(2n ** 64n - 1n, 0n)],
  ["2^40 settings", header(0n, 2n ** 40n)],
  ["a key longer than the file", header(0n, 1n, u64(2n ** 50n))],
  ["a text value longer than the file", header(0n, 1n, text("general.name"), u32(8), u64(10n ** 12n))],
  ["a list of 2^60 numbers", header(0n, 1n, text("tokenizer.ggml.token_type"), u32(9), u32(5), u64(2n ** 60n))],
  ["a list of 2^40 texts", header(0n, 1n, text("tokenizer.ggml.tokens"), u32(9), u32(8), u64(2n ** 40n))],
  ["a list of texts, one longer than the file", header(0n, 1n, text("tokenizer.ggml.tokens"), u32(9), u32(8), u64(2n), text("a"), u64(2n ** 33n))],
  ["a list of lists", header(0n, 1n, text("x"), u32(9), u32(9), u64(1n))],
  ["an unknown value type", header(0n, 1n, text("x"), u32(77), u32(0))],
  ["a tensor with 2^31 dimensions", header(1n, 0n, text("t"), u32(2 ** 31))],
  ["a tensor name longer than the file", header(1n, 0n, u64(2n ** 60n))],
  ["a tensor past the end of the file", header(1n, 0n, text("t"), u32(1), u64(4n), u32(0), u64(2n ** 40n))],
];

for (const [kind, bytes] of HOSTILE) {
  test(`${kind}: refused within a second, as a damaged model file`, async () => {
    const file = path.join(dir, `${kind.replace(/\W+/g, "-")}.gguf`);
    await writeFile(file, bytes);
    const started = performance.now();
    const problem = await ggufHeaderProblem(file);
    const ms = performance.now() - started;
    assert.match(problem ?? "accepted", /^the model file is damaged \(.+\)$/);
    assert.ok(!problem!.includes(dir) && !/\d{3,}/.test(problem!), `no path or offset in "${problem}"`);
    assert.ok(ms < 1000, `took ${ms} ms`);
  });
}

test("the tiny test model, a real GGUF, passes; cut in half it is refused", async () => {
  const whole = tinyGguf(3);
  await writeFile(path.join(dir, "tiny.gguf"), whole);
  assert.equal(await ggufHeaderProblem(path.join(dir, "tiny.gguf")), null);
  await writeFile(path.join(dir, "half.gguf"), whole.subarray(0, whole.length / 2));
  assert.match((await ggufHeaderProblem(path.join(dir, "half.gguf"))) ?? "accepted", /damaged \(it ends before its tensors do\)/);
});
