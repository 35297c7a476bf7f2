export { Voicedraft } from "./client.js";
export { Operations } from "./generated/methods.js";
export type { ClientOptions, TranscribeOptions, TranscribeStreamOptions, WaitOptions } from "./client.js";
export type { CallOptions } from "./transport.js";
export type { AudioInput } from "./audio.js";
export * from "./errors.js";
export { OPERATIONS, type Operation, type OperationName } from "./operations.js";
export type * from "./types.js";
export { VERSION } from "./version.js";
