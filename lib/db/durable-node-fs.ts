import { fsyncSync } from "node:fs";
import { NodeFS } from "@electric-sql/pglite/nodefs";
import { PGlite } from "@electric-sql/pglite";

// PGlite starts Postgres with fsync off (-F), and even with it on, Emscripten's Node filesystem
// drops every fsync: acknowledged commits could be lost when the machine (not just the process)
// crashes. This filesystem passes fsync through to the disk, and durableStartParams turns
// Postgres's fsync back on with a WAL sync method that reaches it (Emscripten's fdatasync is a stub).
type SyncableStream = { nfd?: number };
type EmscriptenModule = { FS: { filesystems: { NODEFS: { stream_ops: Record<string, unknown> } } } };

export class DurableNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Parameters<NodeFS["init"]>[1]) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const passFsyncThrough = (mod: EmscriptenModule) => {
      mod.FS.filesystems.NODEFS.stream_ops.fsync = (stream: SyncableStream) => {
        if (stream.nfd !== undefined) fsyncSync(stream.nfd);
        return 0;
      };
    };
    const preRun = [...((emscriptenOpts.preRun as unknown[]) ?? []), passFsyncThrough];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } as typeof emscriptenOpts };
  }
}

export function durableStartParams(): string[] {
  return [...PGlite.defaultStartParams.filter((p) => p !== "-F"), "-c", "fsync=on", "-c", "wal_sync_method=fsync"];
}
