"""Rewrite as…: a note rewritten as an email, a to-do list, meeting notes, a blog outline, a social
post or in a style of your own, kept beside the note (never replacing it)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, cast

from . import _transport
from ._deprecation import deprecated
from ._resources import RewritesResource
from .operations import OPERATIONS
from .types import Rewrite, RewriteStyle, RewriteStyleList


class RewritesAPI(RewritesResource):
    """``vd.rewrites`` (generated from the document); ``edit`` is now ``update``. The others keep
    the arguments and answers they had (the rewrite or style itself, not its envelope)."""

    def _call(self, name: str, **kwargs: Any) -> Any:
        return _transport.request(self._transport, OPERATIONS[name], **kwargs)

    def list_styles(self) -> RewriteStyleList:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        """The built-in styles, then yours, each with ``available`` (can it be written now) and
        ``needs_writer``; ``writer_configured`` says whether a writer is set up."""
        return cast(RewriteStyleList, self._call("list_rewrite_styles"))

    def create_style(self, name: str, instructions: str) -> RewriteStyle:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        """A style of your own (at most 50): ConflictError (rewrite_style_limit_reached) past that."""
        body = {"name": name, "instructions": instructions}
        return cast(RewriteStyle, self._call("create_rewrite_style", json_body=body)["style"])

    def update_style(self, id: str, *, name: Optional[str] = None, instructions: Optional[str] = None) -> RewriteStyle:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        """Renames one of your styles or changes its instructions; built-in styles raise
        ConflictError (rewrite_style_read_only)."""
        body: Dict[str, Any] = {k: v for k, v in {"name": name, "instructions": instructions}.items() if v is not None}
        return cast(RewriteStyle, self._call("update_rewrite_style", path_params={"id": id}, json_body=body)["style"])

    def delete_style(self, id: str) -> RewriteStyle:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        """Deletes one of your styles; rewrites written with it are kept, with its name."""
        return cast(RewriteStyle, self._call("delete_rewrite_style", path_params={"id": id})["deleted"])

    def create(self, transcription_id: str, style: str) -> Rewrite:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        """Rewrites a note in a style (``"email"``, ``"todo_list"``, ``"meeting_notes"``,
        ``"blog_outline"``, ``"social_post"`` or your style's id) and keeps it beside the note.
        Without a writer, only todo_list and blog_outline are written (by rules); the others raise
        ConflictError (writer_required), or ServerError (writer_failed) when the writer failed."""
        result = self._call("create_rewrite", path_params={"id": transcription_id}, json_body={"style": style})
        return cast(Rewrite, result["rewrite"])

    def list(self, transcription_id: str) -> List[Rewrite]:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        """A note's rewrites, newest first."""
        return cast(List[Rewrite], self._call("list_rewrites", path_params={"id": transcription_id})["rewrites"])

    def get(self, id: str) -> Rewrite:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        return cast(Rewrite, self._call("get_rewrite", path_params={"id": id})["rewrite"])

    def edit(self, id: str, *, text: Optional[str] = None, title: Optional[str] = None) -> Rewrite:  # noqa: A002
        """Replaces a rewrite's text and/or title with yours; the note is not changed."""
        deprecated("rewrites.edit", "rewrites.update")
        body: Dict[str, Any] = {k: v for k, v in {"text": text, "title": title}.items() if v is not None}
        return cast(Rewrite, self._call("edit_rewrite", path_params={"id": id}, json_body=body)["rewrite"])

    def delete(self, id: str) -> Rewrite:  # pyright: ignore[reportIncompatibleMethodOverride] - keeps its 0.1 answer
        """Deletes a rewrite; the note is kept."""
        return cast(Rewrite, self._call("delete_rewrite", path_params={"id": id})["deleted"])
