"""The content workflow: channels and presets, masters and their platform variants, approval and
delivery evidence. Voicedraft never publishes for you: manual confirmation records what you did."""

from __future__ import annotations

import time
from typing import Any, Dict, List, Optional, Sequence, cast

from . import _transport
from ._deprecation import deprecated
from ._resources import ContentResource
from .errors import GenerationTimeoutError
from .operations import OPERATIONS
from .types import (
    Channel,
    ContentFamily,
    ContentItem,
    Preset,
    RegenerateResult,
)

_ACTIVE_GENERATION = frozenset({"queued", "running"})


def _without_none(values: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


class ContentAPI(ContentResource):
    """``vd.content``: masters and their variants (generated from the document; answers as in the JS
    SDK), and ``wait_for_variants``. 0.1's methods on channels and presets moved to ``vd.channels``
    and ``vd.presets``; ``edit_item``, ``regenerate`` and ``approve`` are now ``update_item``,
    ``regenerate_variant`` and ``approve_variant``: those old names keep their 0.1 answers and warn."""

    def _call(self, name: str, **kwargs: Any) -> Any:
        return _transport.request(self._transport, OPERATIONS[name], **kwargs)

    def list_channels(self) -> List[Channel]:
        deprecated("content.list_channels", "channels.list")
        return cast(List[Channel], self._call("list_channels")["channels"])

    def create_channel(self, platform: str, name: str, *, active: Optional[bool] = None) -> Channel:
        deprecated("content.create_channel", "channels.create")
        body = _without_none({"platform": platform, "name": name, "active": active})
        return cast(Channel, self._call("create_channel", json_body=body)["channel"])

    def get_channel(self, id: str) -> Channel:  # noqa: A002
        deprecated("content.get_channel", "channels.get")
        return cast(Channel, self._call("get_channel", path_params={"id": id})["channel"])

    def update_channel(
        self, id: str, *, platform: Optional[str] = None, name: Optional[str] = None, active: Optional[bool] = None  # noqa: A002
    ) -> Channel:
        """Renames a channel, changes its platform, or turns it off (``active=False``) or on; what
        is None stays as it is. Variants can be made only for active channels."""
        deprecated("content.update_channel", "channels.update")
        body = _without_none({"platform": platform, "name": name, "active": active})
        return cast(Channel, self._call("update_channel", path_params={"id": id}, json_body=body)["channel"])

    def delete_channel(self, id: str) -> Channel:  # noqa: A002
        """Deletes a channel and returns it. ConflictError (channel_in_use) when posts were written
        for it: turn it off instead."""
        deprecated("content.delete_channel", "channels.delete")
        return cast(Channel, self._call("delete_channel", path_params={"id": id})["deleted"])

    def list_presets(self) -> List[Preset]:
        """Built-in presets and yours."""
        deprecated("content.list_presets", "presets.list")
        return cast(List[Preset], self._call("list_presets")["presets"])

    def create_preset(
        self,
        name: str,
        *,
        tone: Optional[str] = None,
        length: Optional[str] = None,
        format: Optional[str] = None,  # noqa: A002 - the API's field name
        hashtags: Optional[Sequence[str]] = None,
        include_title: Optional[bool] = None,
        invite_replies: Optional[bool] = None,
    ) -> Preset:
        """A style of your own: tone (neutral, casual, professional, enthusiastic), length (short,
        medium, full), format (single, thread), hashtags, whether the title leads and whether LinkedIn
        and Facebook posts end with a line inviting replies (invite_replies, default True)."""
        deprecated("content.create_preset", "presets.create")
        body = _without_none(
            {
                "name": name,
                "tone": tone,
                "length": length,
                "format": format,
                "include_title": include_title,
                "invite_replies": invite_replies,
            }
        )
        if hashtags is not None:
            body["hashtags"] = list(hashtags)
        return cast(Preset, self._call("create_preset", json_body=body)["preset"])

    def get_preset(self, id: str) -> Preset:  # noqa: A002
        deprecated("content.get_preset", "presets.get")
        return cast(Preset, self._call("get_preset", path_params={"id": id})["preset"])

    def update_preset(
        self,
        id: str,  # noqa: A002
        *,
        name: Optional[str] = None,
        tone: Optional[str] = None,
        length: Optional[str] = None,
        format: Optional[str] = None,  # noqa: A002 - the API's field name
        hashtags: Optional[Sequence[str]] = None,
        include_title: Optional[bool] = None,
        invite_replies: Optional[bool] = None,
    ) -> Preset:
        """Changes a style of yours; what is None stays as it is. A built-in one is refused
        (preset_read_only)."""
        deprecated("content.update_preset", "presets.update")
        body = _without_none(
            {
                "name": name,
                "tone": tone,
                "length": length,
                "format": format,
                "include_title": include_title,
                "invite_replies": invite_replies,
            }
        )
        if hashtags is not None:
            body["hashtags"] = list(hashtags)
        return cast(Preset, self._call("update_preset", path_params={"id": id}, json_body=body)["preset"])

    def delete_preset(self, id: str) -> Preset:  # noqa: A002
        """Deletes a style of yours and returns it. ConflictError (preset_in_use) when posts were
        written in it."""
        deprecated("content.delete_preset", "presets.delete")
        return cast(Preset, self._call("delete_preset", path_params={"id": id})["deleted"])

    def edit_item(
        self, id: str, *, expected_content_hash: str, title: Optional[str] = None, body: Optional[str] = None  # noqa: A002
    ) -> ContentItem:
        """Edits title and/or body; ConflictError (edit_conflict) when the item changed since
        expected_content_hash."""
        deprecated("content.edit_item", "content.update_item")
        payload = _without_none({"expected_content_hash": expected_content_hash, "title": title, "body": body})
        return cast(ContentItem, self._call("edit_content_item", path_params={"id": id}, json_body=payload)["item"])

    def regenerate(
        self, variant_id: str, *, expected_content_hash: Optional[str] = None, source: Optional[str] = None
    ) -> RegenerateResult:
        """Queues a new generation of a variant (source="master" refreshes a stale one). Not retried
        automatically."""
        deprecated("content.regenerate", "content.regenerate_variant")
        payload = _without_none({"expected_content_hash": expected_content_hash, "source": source})
        return cast(RegenerateResult, self._call("regenerate_content_variant", path_params={"id": variant_id}, json_body=payload))

    def approve(self, variant_id: str, content_hash: str) -> ContentItem:
        """Approves exactly the title and body whose content_hash is given; a later edit
        invalidates the approval."""
        deprecated("content.approve", "content.approve_variant")
        result = self._call("approve_content_variant", path_params={"id": variant_id}, json_body={"content_hash": content_hash})
        return cast(ContentItem, result["item"])

    def wait_for_variants(self, id: str, *, timeout: float = 120.0, interval: float = 0.5) -> ContentFamily:  # noqa: A002
        """Polls the family until no variant is queued or running, and returns it."""
        deadline = time.monotonic() + timeout
        finished_before = False
        while True:
            family = cast(ContentFamily, self.get_family(id))
            busy = [v for v in family["variants"] if v["generation"] and v["generation"]["state"] in _ACTIVE_GENERATION]
            # The service reads items and their tasks in separate statements, so the read that
            # first shows a task finished may still carry the text from before it; the next cannot.
            if not busy and finished_before:
                return family
            finished_before = not busy
            if finished_before:
                continue
            if time.monotonic() > deadline:
                raise GenerationTimeoutError(f"{len(busy)} variant(s) of {id} are still being generated after {timeout} s.")
            time.sleep(interval)
