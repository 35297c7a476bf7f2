// Writes that lock the same rows queue behind each other; give a burst time rather than failing.
export const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 15_000 };

/** For reads of several rows that must come from one moment (no commit in between shows). */
export const SNAPSHOT = { isolationLevel: "RepeatableRead" } as const;
