import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { isProcessAlive } from "@/lib/process-alive.ts";

// A launcher killed together with its parent (kill -9 of `npm start`'s tree) stays a zombie until
// init collects it. Its lock file must not count as held meanwhile, or the next start refuses.
test("a zombie is not alive; a running process is, and a collected one is not", { skip: process.platform !== "linux" }, async () => {
  // The shell starts `sleep 0.3` and becomes `sleep 30`, which never collects its child: once the
  // child exits, a zombie. The child outlives the exec, so the shell cannot collect it first.
  const parent = spawn("sh", ["-c", "sleep 0.3 & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const [line] = (await once(parent.stdout!, "data")) as [Buffer];
    const zombie = Number(String(line).trim());
    // Up to 20 s: on a busy machine (the whole suite side by side) the child may start late.
    for (let i = 0; i < 400 && !readFileSync(`/proc/${zombie}/stat`, "utf8").includes(") Z"); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.match(readFileSync(`/proc/${zombie}/stat`, "utf8"), /\) Z/, "the child became a zombie");
    assert.doesNotThrow(() => process.kill(zombie, 0), "the zombie still has its process id");
    assert.equal(isProcessAlive(zombie), false);
    assert.equal(isProcessAlive(parent.pid!), true);
    assert.equal(isProcessAlive(process.pid), true);
  } finally {
    parent.kill("SIGKILL");
    await once(parent, "exit");
  }
  assert.equal(isProcessAlive(parent.pid!), false);
});
