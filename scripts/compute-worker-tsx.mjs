// The compute pool's worker from its TypeScript source, for a process that runs under tsx (tests,
// `npm run dev`) or has no bundle: a worker thread does not inherit tsx's loader, so it asks for it.
import { tsImport } from "tsx/esm/api";

const { default: runTask } = await tsImport("./compute-worker.ts", import.meta.url);
export default runTask;
