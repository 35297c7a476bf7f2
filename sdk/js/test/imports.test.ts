import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

// src/ reads in one direction: the client on its resources and transport, the transport on errors and
// operations, the generated files on the transport and operations, never back. Type-only imports count: a
// reader follows them too. No service needed.
const SRC = path.resolve(import.meta.dirname, "../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? sources(file) : entry.name.endsWith(".ts") ? [file] : [];
  });
}

/** Each source file's imports of other source files (relative specifiers, `.js` standing for `.ts`). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, "utf8");
    const specifiers = [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gms)].map((m) => m[1]);
    const targets = specifiers.map((s) => path.relative(SRC, path.resolve(path.dirname(file), s.replace(/\.js$/, ".ts"))));
    graph.set(path.relative(SRC, file), targets);
  }
  return graph;
}

/** The first import circle found, as the files along it (empty: none). */
function findCircle(graph: Map<string, string[]>): string[] {
  const done = new Set<string>();
  const visit = (file: string, trail: string[]): string[] => {
    if (trail.includes(file)) return [...trail.slice(trail.indexOf(file)), file];
    if (done.has(file)) return [];
    for (const next of graph.get(file) ?? []) {
      const circle = visit(next, [...trail, file]);
      if (circle.length) return circle;
    }
    done.add(file);
    return [];
  };
  for (const file of graph.keys()) {
    const circle = visit(file, []);
    if (circle.length) return circle;
  }
  return [];
}

test("src/ has no import circle", () => {
  const graph = importGraph();
  assert.ok(graph.get("client.ts")?.includes("transport.ts"), "the graph sees the client's imports");
  assert.deepEqual(findCircle(graph), []);
});

test("the check finds a circle", () => {
  const graph = new Map([
    ["client.ts", ["transport.ts"]],
    ["transport.ts", ["errors.ts", "client.ts"]],
    ["errors.ts", []],
  ]);
  assert.deepEqual(findCircle(graph), ["client.ts", "transport.ts", "client.ts"]);
});
