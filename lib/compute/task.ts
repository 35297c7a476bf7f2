// A task of the compute pool: a name the worker knows it by, and the pure function it runs on plain
// data (structured clone both ways). Declared beside the function, in its own domain; the worker
// (scripts/compute-worker.ts) lists every task, so lib/compute knows none of them.

export type ComputeTask<I, O> = { readonly name: string; readonly run: (input: I) => O };

export const computeTask = <I, O>(name: string, run: (input: I) => O): ComputeTask<I, O> => ({ name, run });
