// Typed errors. Every error the API answers becomes an ApiError subclass carrying the HTTP status,
// the stable error `code` (branch on it), the message and the request id to quote in a report.

export type ErrorDetail = { path: string; message: string };

/** The base of every error this client throws. */
export class VoicedraftError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** What an ApiError is made of: its fields, and the service's message. */
export type ApiErrorInit = Pick<ApiError, "status" | "code" | "message" | "requestId"> &
  Partial<Pick<ApiError, "details" | "retryAfterSeconds">>;

/** The service answered with an error status. */
export class ApiError extends VoicedraftError {
  readonly status: number;
  /** The stable error code, e.g. `not_found`, `idempotency_conflict`, `payload_too_large`. */
  readonly code: string;
  readonly requestId: string | null;
  /** One entry per invalid field, for `validation_failed`. */
  readonly details: ErrorDetail[];
  /** Seconds the service asked to wait (Retry-After), if it said. */
  readonly retryAfterSeconds: number | null;

  constructor(init: ApiErrorInit) {
    super(`${init.status} ${init.code}: ${init.message}${init.requestId ? ` (request id ${init.requestId})` : ""}`);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }
}

/** 400: the request is invalid (`validation_failed`, `invalid_json`, `missing_audio`, …). */
export class BadRequestError extends ApiError {}
/** 401: the API key is missing, unknown, revoked or expired. */
export class AuthenticationError extends ApiError {}
/** 403: the key lacks the scope the operation needs. */
export class PermissionDeniedError extends ApiError {}
/** 404: no such resource for this key's user (a foreign id looks the same as a missing one). */
export class NotFoundError extends ApiError {}
/** 409: the request conflicts with the current state. */
export class ConflictError extends ApiError {}
/** 409 `idempotency_conflict`: an Idempotency-Key or client_request_id was reused for a different request. */
export class IdempotencyConflictError extends ConflictError {}
/** 413: the upload or body is larger than the service's limit (`payload_too_large`, `audio_too_long`), or the account's audio quota is reached (`audio_quota_exceeded`). */
export class PayloadTooLargeError extends ApiError {}
/** 415: not a supported media type or audio format. */
export class UnsupportedMediaTypeError extends ApiError {}
/** 422: the audio cannot be used (`unreadable_audio`, `empty_audio`, `no_speech`). */
export class UnprocessableError extends ApiError {}
/** 429: too many requests (`rate_limited`), or too many live recordings open (`too_many_live_recordings`); retried automatically where safe. */
export class RateLimitError extends ApiError {}
/** 5xx other than 503. */
export class ServerError extends ApiError {}
/** 503: unavailable for now (`engine_busy`, `database_unavailable`, a feature not enabled here, …). */
export class ServiceUnavailableError extends ServerError {}

/** The request did not get an HTTP response (DNS, refused connection, reset). */
export class ConnectionError extends VoicedraftError {}
/** No response within the timeout. */
export class TimeoutError extends ConnectionError {}
/** A wait helper gave up before the background work finished. */
export class WaitTimeoutError extends VoicedraftError {}
/** waitForOptimization gave up before the optimization finished. */
export class OptimizationTimeoutError extends WaitTimeoutError {}
/** content.waitForVariants gave up before generation finished. */
export class GenerationTimeoutError extends WaitTimeoutError {}

const BY_STATUS: Record<number, new (init: ApiErrorInit) => ApiError> = {
  400: BadRequestError, 401: AuthenticationError, 403: PermissionDeniedError, 404: NotFoundError, 409: ConflictError,
  413: PayloadTooLargeError, 415: UnsupportedMediaTypeError, 422: UnprocessableError, 429: RateLimitError,
  503: ServiceUnavailableError,
};

/** The ApiError subclass for a status and code. */
export function apiError(init: ApiErrorInit): ApiError {
  if (init.code === "idempotency_conflict") return new IdempotencyConflictError(init);
  const ErrorClass = BY_STATUS[init.status] ?? (init.status >= 500 ? ServerError : ApiError);
  return new ErrorClass(init);
}
