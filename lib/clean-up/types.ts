// The contract of a clean-up (by the rules, or by the writer): one chunk of a note's text in, the cleaned chunk out.

export type CleanUpInput = {
  /** One utterance per line; an empty line marks a paragraph break. */
  text: string;
  /** Spellings the result must keep (the user's dictionary). */
  spellings: string[];
  signal?: AbortSignal;
  /** What it is a clean-up of (its workflow's id): the writer's outcome is counted for it. */
  key?: string;
};

export interface CleanUp {
  readonly name: "local" | "openai";
  clean(input: CleanUpInput): Promise<string>;
}

/** The writer's clean-up of a chunk is not text (check-output.ts): that part keeps the recognized words, as when the guard refuses it. */
export class CleanUpRefused extends Error {
  name = "CleanUpRefused";
}

/** The clean-up could not clean a chunk; `retryable` says whether trying again may help. */
export class CleanUpError extends Error {
  constructor(
    readonly code: "optimizer_unavailable" | "optimizer_failed",
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "CleanUpError";
  }
}
