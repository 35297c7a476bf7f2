"""Webhooks: your endpoints that Voicedraft tells when something happens, and ``verify_webhook``
to check a delivery's signature (Standard Webhooks 1.0, standard library only)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any, Dict, List, Mapping, Optional, Union, cast

from . import _transport
from ._resources import WebhooksResource
from .operations import OPERATIONS

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
    """``vd.webhooks`` (generated from the document), with the arguments and answers these methods had."""

    def _call(self, name: str, **kwargs: Any) -> Any:
        return _transport.request(self._transport, OPERATIONS[name], **kwargs)

    def create(self, url: str, events: List[str], *, description: str = "") -> Dict[str, Any]:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        """A new endpoint: ``{"webhook": …, "secret": "whsec_…"}``; the secret is shown only now."""
        body = {"url": url, "events": events, "description": description}
        return cast(Dict[str, Any], self._call("create_webhook", json_body=body))

    def list(self) -> List[Dict[str, Any]]:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        return cast(List[Dict[str, Any]], self._call("list_webhooks")["webhooks"])

    def get(self, id: str) -> Dict[str, Any]:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        return cast(Dict[str, Any], self._call("get_webhook", path_params={"id": id})["webhook"])

    def update(self, id: str, **changes: Any) -> Dict[str, Any]:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        """Changes url, events, description or enabled."""
        return cast(Dict[str, Any], self._call("update_webhook", path_params={"id": id}, json_body=changes)["webhook"])

    def delete(self, id: str) -> Dict[str, Any]:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        return cast(Dict[str, Any], self._call("delete_webhook", path_params={"id": id})["deleted"])

    def rotate_secret(self, id: str) -> Dict[str, Any]:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        """A new secret (``{"webhook": …, "secret": …}``); the old one also signs for 24 hours."""
        return cast(Dict[str, Any], self._call("rotate_webhook_secret", path_params={"id": id}))

    def list_deliveries(self, id: str, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> Dict[str, Any]:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        query = {k: v for k, v in (("limit", limit), ("cursor", cursor)) if v is not None}
        return cast(Dict[str, Any], self._call("list_webhook_deliveries", path_params={"id": id}, query=query))

    def redeliver(self, id: str, delivery_id: str) -> Dict[str, Any]:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        params = {"id": id, "delivery_id": delivery_id}
        return cast(Dict[str, Any], self._call("redeliver_webhook", path_params=params)["delivery"])

    def test(self, id: str) -> Dict[str, Any]:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        return cast(Dict[str, Any], self._call("test_webhook", path_params={"id": id})["delivery"])
