// The contract of a transcript optimizer: one chunk of transcript in, the improved chunk out.

export type OptimizeInput = {
  /** One utterance per line; an empty line marks a paragraph break. */
  text: string;
  /** Spellings the result must keep (the user's dictionary). */
  spellings: string[];
  signal?: AbortSignal;
};

export interface Optimizer {
  readonly name: "local" | "openai";
  optimize(input: OptimizeInput): Promise<string>;
}

/** The optimizer could not improve a chunk; `retryable` says whether trying again may help. */
export class OptimizerError extends Error {
  constructor(
    readonly code: "optimizer_unavailable" | "optimizer_failed",
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "OptimizerError";
  }
}
