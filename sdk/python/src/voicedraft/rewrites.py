"""Rewrite as…: a note rewritten as an email, a to-do list, meeting notes, a blog outline, a social
post or in a style of your own, kept beside the note (never replacing it)."""

from __future__ import annotations

from typing import Any, Dict, Optional, cast

from . import _transport
from ._deprecation import deprecated
from ._resources import RewritesResource
from .operations import OPERATIONS
from .types import Rewrite


class RewritesAPI(RewritesResource):
    """``vd.rewrites`` (generated from the document; answers as in the JS SDK). 0.2's ``edit`` is now
    ``update``: the old name keeps its answer (the rewrite itself) and warns."""

    def edit(self, id: str, *, text: Optional[str] = None, title: Optional[str] = None) -> Rewrite:  # noqa: A002
        """Replaces a rewrite's text and/or title with yours; the note is not changed."""
        deprecated("rewrites.edit", "rewrites.update")
        body: Dict[str, Any] = {k: v for k, v in {"text": text, "title": title}.items() if v is not None}
        result = _transport.request(self._transport, OPERATIONS["edit_rewrite"], path_params={"id": id}, json_body=body)
        return cast(Rewrite, result["rewrite"])
