import { brandOf, hasBrand } from "@/lib/brand.ts";

// The one error class of the API, and the one table from error code to HTTP status.
export const ERROR_STATUS = {
  malformed_request: 400,
  invalid_json: 400,
  invalid_multipart: 400,
  missing_audio: 400,
  validation_failed: 400,
  invalid_encoding: 400,
  invalid_host: 400,
  webhook_url_not_allowed: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  cross_site_request: 403,
  unknown_host: 403,
  session_required: 403,
  invitation_required: 403,
  invitation_invalid: 403,
  sign_up_closed: 403,
  owner_only: 403,
  secure_address_required: 403,
  not_found: 404,
  feature_disabled: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  email_taken: 409,
  dictionary_limit_reached: 409,
  idempotency_conflict: 409,
  edit_conflict: 409,
  unknown_action_item: 409,
  channel_inactive: 409,
  channel_in_use: 409,
  preset_in_use: 409,
  preset_read_only: 409,
  not_approved: 409,
  no_source_note: 409,
  stale: 409,
  generation_in_progress: 409,
  invalid_transition: 409,
  rewrite_style_read_only: 409,
  rewrite_style_limit_reached: 409,
  writer_required: 409,
  offset_mismatch: 409,
  recording_finished: 409,
  no_audio_kept: 409,
  note_edited: 409,
  no_better_recognizer: 409,
  already_improving: 409,
  nothing_to_undo: 409,
  webhook_limit_reached: 409,
  payload_too_large: 413,
  audio_too_long: 413,
  audio_quota_exceeded: 413,
  unsupported_media_type: 415,
  unsupported_audio: 415,
  range_not_satisfiable: 416,
  request_header_fields_too_large: 431,
  unreadable_audio: 422,
  empty_audio: 422,
  no_speech: 422,
  language_unsupported: 422,
  nothing_to_rewrite: 422,
  rate_limited: 429,
  too_many_live_recordings: 429,
  internal_error: 500,
  database_unavailable: 503,
  engine_unavailable: 503,
  engine_busy: 503,
  engine_failed: 502,
  writer_failed: 502,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorDetail = { path: string; message: string };

const API_ERROR = brandOf("ApiError");

export class ApiError extends Error {
  readonly [API_ERROR] = true;
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }

  /** Any copy's (lib/brand.ts): one thrown by what the process shares (a queue, a job) is still an answer, not a 500. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, API_ERROR);
  }
}

/** What an unexpected failure answers: no detail of ours reaches the client (the log has it). */
export const internalError = () => new ApiError("internal_error", "Something went wrong on our side; the request id helps us find it.");

export const notFound = (what: string) => new ApiError("not_found", `${what} was not found.`);

export const unauthorized = (message: string) =>
  new ApiError("unauthorized", message, { headers: { "WWW-Authenticate": 'Bearer realm="voicedraft"' } });
