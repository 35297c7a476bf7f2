"""Webhooks: your endpoints that Voicedraft tells when something happens, and ``verify_webhook``
to check a delivery's signature (Standard Webhooks 1.0, standard library only)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any, Dict, Mapping, Optional, Union, cast

from ._resources import WebhooksResource

#: A delivery whose webhook-timestamp is further than this from now is refused (replays).
TOLERANCE_SECONDS = 5 * 60


class WebhookVerificationError(Exception):
    """The delivery is not signed by this secret, or its timestamp is too far from now."""


def _secret_bytes(secret: str) -> bytes:
    key = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
    try:
        return base64.b64decode(key, validate=True)
    except ValueError as err:
        raise WebhookVerificationError("The secret is not a whsec_ secret (base64 after whsec_).") from err


def verify_webhook(
    body: Union[bytes, str],
    headers: Mapping[str, str],
    secret: str,
    *,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """The delivery's event (``{type, timestamp, data}``) once its signature is checked.

    ``body`` is the request body exactly as received; ``headers`` the request's headers (any case).
    Raises WebhookVerificationError on a missing header, a bad signature, or a timestamp more than
    five minutes from now."""
    lower = {k.lower(): v for k, v in headers.items()}
    msg_id, stamp, signatures = (lower.get(h) for h in ("webhook-id", "webhook-timestamp", "webhook-signature"))
    if not msg_id or not stamp or not signatures:
        raise WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header.")
    try:
        sent_at = int(stamp)
    except ValueError as err:
        raise WebhookVerificationError("The webhook-timestamp header is not a number.") from err
    if abs((time.time() if now is None else now) - sent_at) > TOLERANCE_SECONDS:
        raise WebhookVerificationError("The webhook-timestamp is more than 5 minutes from now.")
    raw = body.encode("utf-8") if isinstance(body, str) else body
    signed = msg_id.encode("utf-8") + b"." + stamp.encode("utf-8") + b"." + raw
    expected = base64.b64encode(hmac.new(_secret_bytes(secret), signed, hashlib.sha256).digest()).decode("ascii")
    for candidate in signatures.split(" "):
        version, _, signature = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(signature, expected):
            return cast(Dict[str, Any], json.loads(raw))
    raise WebhookVerificationError("No signature matches this secret.")


class WebhooksAPI(WebhooksResource):
    """``vd.webhooks`` (generated from the document; answers as in the JS SDK)."""
