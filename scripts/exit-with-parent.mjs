// Preloaded (node --import) into the Next server that scripts/start.ts launches. The launcher holds
// the other end of this process's stdin: when the launcher dies, even by SIGKILL (which it cannot
// forward, and Linux's PR_SET_PDEATHSIG is out of Node's reach), stdin ends and the server exits
// instead of holding the port as an orphan that answers 503 forever.
process.stdin.on("end", () => process.exit(1));
process.stdin.on("error", () => process.exit(1));
process.stdin.resume();
