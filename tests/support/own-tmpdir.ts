import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Runs `work` with TMPDIR set to a directory of its own, and gives it the upload directories
 * (voicedraft-*) that are in it: a shared /tmp also holds those of other tests and programs
 * running at the same time. (onnxruntime, loading the VAD, leaves an empty mat-debug-<pid>.log
 * and a .ses file there once per process; they are not ours and not listed.)
 */
export async function withOwnTmpdir(work: (uploadDirsLeft: () => Promise<string[]>) => Promise<void>): Promise<void> {
  const own = await mkdtemp(path.join(tmpdir(), "vd-tmp-check-"));
  const shared = process.env.TMPDIR;
  process.env.TMPDIR = own;
  try {
    await work(async () => (await readdir(own)).filter((name) => name.startsWith("voicedraft-")));
  } finally {
    if (shared === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = shared;
    await rm(own, { recursive: true, force: true });
  }
}
