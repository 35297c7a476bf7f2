// The API load of bench:live-load, in a process of its own: CLIENTS clients of the keys in KEYS (comma-separated, client c the (c mod n)th)
// reading and searching notes at URL as fast as they are answered, until this process's stdin
// closes; then it prints {requests, limited, errors} (429s, and 5xx or failed requests) as JSON.
// bench:live-load starts it at a low CPU priority (BENCH_CLIENTS_NICE): clients are on other
// machines, and on this one they would take a core from the server they are measuring.
export {};

const url = process.env.URL!;
const keys = process.env.KEYS!.split(",");
const clients = Number(process.env.CLIENTS ?? 40);

let done = false;
process.stdin.on("end", () => (done = true));
process.stdin.on("close", () => (done = true));
process.stdin.resume();

let requests = 0;
let limited = 0;
let errors = 0;
const paths = ["/api/v1/transcriptions?limit=20", "/api/v1/transcriptions?q=country", "/api/v1/dictionary", "/api/v1/tags"];
await Promise.all(
  Array.from({ length: clients }, async (_, c) => {
    for (let i = c; !done; i++) {
      const res = await fetch(`${url}${paths[i % paths.length]}`, { headers: { authorization: `Bearer ${keys[c % keys.length]}` } }).catch(() => null);
      requests += 1;
      if (!res || res.status >= 500) errors += 1;
      if (res?.status === 429) limited += 1;
      await res?.arrayBuffer();
    }
  }),
);
console.log(JSON.stringify({ requests, limited, errors }));
process.exit(0);
