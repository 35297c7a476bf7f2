"""Typed errors. Every error the API answers becomes an ``APIError`` subclass carrying the HTTP
status, the stable error ``code`` (branch on it), the message and the request id to quote."""

from __future__ import annotations

from typing import Dict, List, Optional, Type


class VoicedraftError(Exception):
    """The base of every error this client raises."""


class APIError(VoicedraftError):
    """The service answered with an error status."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        request_id: Optional[str] = None,
        details: Optional[List[Dict[str, str]]] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        self.status = status
        #: The stable error code, e.g. ``not_found``, ``idempotency_conflict``, ``payload_too_large``.
        self.code = code
        self.message = message
        self.request_id = request_id
        #: One ``{"path", "message"}`` per invalid field, for ``validation_failed``.
        self.details = details or []
        #: Seconds the service asked to wait (Retry-After), if it said.
        self.retry_after = retry_after
        suffix = f" (request id {request_id})" if request_id else ""
        super().__init__(f"{status} {code}: {message}{suffix}")


class BadRequestError(APIError):
    """400: the request is invalid (``validation_failed``, ``missing_audio``, ...)."""


class AuthenticationError(APIError):
    """401: the API key is missing, unknown, revoked or expired."""


class PermissionDeniedError(APIError):
    """403: the key lacks the scope the operation needs."""


class NotFoundError(APIError):
    """404: no such resource for this key's user."""


class ConflictError(APIError):
    """409: the request conflicts with the current state."""


class IdempotencyConflictError(ConflictError):
    """409 ``idempotency_conflict``: a key or client_request_id was reused for a different request."""


class PayloadTooLargeError(APIError):
    """413: the upload or body is larger than the service's limit, or the account's audio quota is reached."""


class UnsupportedMediaTypeError(APIError):
    """415: not a supported media type or audio format."""


class UnprocessableError(APIError):
    """422: the audio cannot be used (``unreadable_audio``, ``empty_audio``, ``no_speech``)."""


class RateLimitError(APIError):
    """429: too many requests, or too many live recordings open; retried automatically where safe."""


class ServerError(APIError):
    """5xx other than 503."""


class ServiceUnavailableError(ServerError):
    """503: unavailable for now (``engine_busy``, ``database_unavailable``, a feature not enabled here)."""


class APIConnectionError(VoicedraftError):
    """The request got no HTTP response (DNS, refused connection, reset)."""


class APITimeoutError(APIConnectionError):
    """No response within the timeout."""


class WaitTimeoutError(VoicedraftError):
    """A wait helper gave up before the background work finished."""


class OptimizationTimeoutError(WaitTimeoutError):
    """wait_for_optimization gave up before the optimization finished."""


class GenerationTimeoutError(WaitTimeoutError):
    """content.wait_for_variants gave up before generation finished."""


_BY_STATUS: Dict[int, Type[APIError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    415: UnsupportedMediaTypeError,
    422: UnprocessableError,
    429: RateLimitError,
    503: ServiceUnavailableError,
}


def api_error(
    status: int,
    code: str,
    message: str,
    request_id: Optional[str] = None,
    details: Optional[List[Dict[str, str]]] = None,
    retry_after: Optional[float] = None,
) -> APIError:
    """The APIError subclass for a status and code."""
    if code == "idempotency_conflict":
        cls: Type[APIError] = IdempotencyConflictError
    else:
        cls = _BY_STATUS.get(status, ServerError if status >= 500 else APIError)
    return cls(status, code, message, request_id, details, retry_after)
