// The contract of a clean-up (by the rules, or by the writer): one chunk of a note's text in, the cleaned chunk out.

export type CleanUpInput = {
  /** One utterance per line; an empty line marks a paragraph break. */
  text: string;
  /** Spellings the result must keep (the user's dictionary). */
  spellings: string[];
  signal?: AbortSignal;
};

export interface CleanUp {
  readonly name: "local" | "openai";
  clean(input: CleanUpInput): Promise<string>;
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
