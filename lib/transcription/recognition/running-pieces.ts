// The pieces this process is recognizing right now, each with the execution that claimed it, when,
// and a way to stop it. Finish takes a live recording's last piece back while it has only just
// started (cutting it again with the rest, shared among the recognizers, ends sooner); a run in
// another process is out of reach, and its piece is left alone.

export type RunningPiece = {
  executionId: string;
  /** Date.now() when the piece was claimed. */
  startedAt: number;
  controller: AbortController;
};

const running = new Map<string, RunningPiece>();
const keyOf = (workflowId: string, index: number) => `${workflowId}/${index}`;

/** Notes a run; the function returned forgets it (only if it is still this run). */
export function trackRunningPiece(workflowId: string, index: number, run: RunningPiece): () => void {
  const key = keyOf(workflowId, index);
  running.set(key, run);
  return () => {
    if (running.get(key) === run) running.delete(key);
  };
}

export function runningHere(workflowId: string, index: number): RunningPiece | undefined {
  return running.get(keyOf(workflowId, index));
}

/** Stops the run of a piece that was taken back (its row is gone); nothing if another run holds it now. */
export function abortRunningPiece(workflowId: string, index: number, executionId: string): void {
  const run = running.get(keyOf(workflowId, index));
  if (run?.executionId === executionId) run.controller.abort(new PieceTakenBackError());
}

/** The reason a run was aborted: its piece was taken back, so there is nothing to fail or retry. */
export class PieceTakenBackError extends Error {
  constructor() {
    super("The piece was taken back to be cut again.");
    this.name = "PieceTakenBackError";
  }
}
