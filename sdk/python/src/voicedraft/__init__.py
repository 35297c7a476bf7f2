"""Python client for the Voicedraft API (standard library only)."""

from ._version import __version__
from ._resources import RESOURCE_NAMES
from .client import AccountAPI, DictionaryAPI, NotesAPI, Voicedraft
from .content import ContentAPI
from .rewrites import RewritesAPI
from .webhooks import WebhookVerificationError, WebhooksAPI, verify_webhook
from .errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    IdempotencyConflictError,
    NotFoundError,
    GenerationTimeoutError,
    OptimizationTimeoutError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    ServiceUnavailableError,
    UnprocessableError,
    UnsupportedMediaTypeError,
    VoicedraftError,
    WaitTimeoutError,
)
from .operations import OPERATIONS, Operation

__all__ = [
    "__version__",
    "Voicedraft",
    "NotesAPI",
    "AccountAPI",
    "RESOURCE_NAMES",
    "DictionaryAPI",
    "ContentAPI",
    "RewritesAPI",
    "WebhooksAPI",
    "WebhookVerificationError",
    "verify_webhook",
    "OPERATIONS",
    "Operation",
    "VoicedraftError",
    "APIError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "IdempotencyConflictError",
    "PayloadTooLargeError",
    "UnsupportedMediaTypeError",
    "UnprocessableError",
    "RateLimitError",
    "ServerError",
    "ServiceUnavailableError",
    "APIConnectionError",
    "APITimeoutError",
    "WaitTimeoutError",
    "OptimizationTimeoutError",
    "GenerationTimeoutError",
]
