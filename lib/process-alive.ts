import { existsSync, readFileSync } from "node:fs";

/**
 * Whether a process with this id exists (EPERM: it does, owned by another user). A zombie does
 * not count: it has exited and holds no file or port, it only waits for its parent to collect its
 * status. A killed launcher whose parent died too (kill -9 of the tree) waits for init, which may
 * take a second or more, and a new start must not take its lock file for a live one meanwhile.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (name) S …"; the name may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return /^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return existsSync("/proc/self"); // collected meanwhile; without /proc (not Linux) we cannot tell
  }
}
