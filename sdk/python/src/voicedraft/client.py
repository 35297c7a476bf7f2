"""The Voicedraft client: transcription, the dictionary, and the content workflow."""

from __future__ import annotations

import json
import os
import time
import uuid
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union, cast

from . import _transport
from ._deprecation import deprecated
from ._multipart import AudioInput, multipart_upload
from ._resources import (
    AccountResource,
    ChannelsResource,
    DictionaryResource,
    NotesResource,
    PresetsResource,
    ServiceResource,
    SettingsResource,
    TagsResource,
)
from .content import ContentAPI
from .errors import OptimizationTimeoutError, VoicedraftError
from .operations import OPERATIONS
from .rewrites import RewritesAPI
from .webhooks import WebhooksAPI
from .types import (
    DictionaryEntryInput,
    DictionaryImpact,
    DownloadedAudio,
    DictionarySuggestion,
    EditedTranscription,
    LiveRecording,
    Recording,
    RenamedTag,
    Tag,
    TranscriptionPage,
    TranscriptionResult,
    TranscriptStreamEvent,
)

DEFAULT_BASE_URL = "http://localhost:3000"
FINISHED_OPTIMIZATION = frozenset({"completed", "failed"})


def _transcribe_fields(
    prompt: Optional[str],
    entries: Optional[Sequence[DictionaryEntryInput]],
    language: Optional[str],
    segments: bool,
    words: bool,
    recording: Optional[Tuple[str, int]],
) -> List[Tuple[str, str]]:
    """The text fields of a POST /transcribe form."""
    fields: List[Tuple[str, str]] = []
    if prompt is not None:
        fields.append(("prompt", prompt))
    if entries is not None:
        sent = [{"misspelling": e["misspelling"], "correct_spelling": e["correct_spelling"]} for e in entries]
        fields.append(("dict", json.dumps(sent)))
    if language is not None:
        fields.append(("language", language))
    if segments or words:
        fields.append(("response_format", "verbose_json"))
    if words:
        fields.append(("timestamp_granularities", "word"))
    if recording is not None:
        fields.append(("recording_id", recording[0]))
        fields.append(("recording_part", str(recording[1])))
    return fields


def _download_audio(
    transport: _transport.Transport, id: str, start: Optional[int], end: Optional[int]  # noqa: A002
) -> Tuple[bytes, Dict[str, str]]:
    """A note's kept recording, whole or one byte range, and the answer's headers."""
    headers = {"Range": f"bytes={start or 0}-{'' if end is None else end}"} if start is not None or end is not None else None
    return _transport.download(
        transport, OPERATIONS["get_transcription_audio"], path_params={"id": id}, headers=headers, accept="audio/*"
    )


class Voicedraft:
    """A client of one Voicedraft service with one API key.

    ``base_url`` defaults to ``VOICEDRAFT_BASE_URL`` (else http://localhost:3000) and ``api_key``
    to ``VOICEDRAFT_API_KEY``. ``timeout`` is seconds of silence per attempt for every call but
    transcribe, which waits ``transcribe_timeout`` (recognition runs while you wait). Calls that
    are safe to repeat are retried up to ``max_retries`` times after a timeout, a network error,
    429 or 503.
    """

    def __init__(
        self,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        *,
        timeout: float = 30.0,
        transcribe_timeout: float = 600.0,
        max_retries: int = 2,
    ) -> None:
        api_key = api_key or os.environ.get("VOICEDRAFT_API_KEY")
        if not api_key:
            raise VoicedraftError("No API key: pass api_key= or set VOICEDRAFT_API_KEY.")
        self.base_url = base_url or os.environ.get("VOICEDRAFT_BASE_URL") or DEFAULT_BASE_URL
        self._transport = _transport.Transport(self.base_url, api_key, timeout, max_retries)
        self._transcribe_timeout = transcribe_timeout
        #: The API's resources, named as in the JS SDK (generated from the document's tags).
        self.notes = NotesAPI(self._transport, transcribe_timeout)
        self.dictionary = DictionaryAPI(self._transport)
        self.tags = TagsResource(self._transport)
        self.rewrites = RewritesAPI(self._transport)
        self.channels = ChannelsResource(self._transport)
        self.presets = PresetsResource(self._transport)
        self.content = ContentAPI(self._transport)
        self.webhooks = WebhooksAPI(self._transport)
        self.settings = SettingsResource(self._transport)
        self.account = AccountAPI(self._transport)
        self.service = ServiceResource(self._transport)

    def transcribe(
        self,
        audio: AudioInput,
        *,
        prompt: Optional[str] = None,
        dict: Optional[Sequence[DictionaryEntryInput]] = None,  # noqa: A002 - the API's field name
        language: Optional[str] = None,
        segments: bool = False,
        words: bool = False,
        filename: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        recording: Optional[Tuple[str, int]] = None,
        timeout: Optional[float] = None,
    ) -> TranscriptionResult:
        """Transcribes a recording: a file path, bytes, or a binary file object.

        ``dict`` holds entries applied on top of your stored dictionary (for the same misspelling
        these win). A retry sends the same Idempotency-Key, so the service replays the first
        result instead of transcribing twice. ``recording=(recording_id, part)`` marks the upload
        as one part of a longer recording; ``get_recording(recording_id)`` joins the parts.
        """
        return self.notes.transcribe(
            audio, prompt=prompt, dict=dict, language=language, segments=segments, words=words, filename=filename,
            idempotency_key=idempotency_key, recording=recording, timeout=timeout,
        )

    def transcribe_stream(
        self,
        audio: AudioInput,
        *,
        prompt: Optional[str] = None,
        dict: Optional[Sequence[DictionaryEntryInput]] = None,  # noqa: A002 - the API's field name
        language: Optional[str] = None,
        segments: bool = False,
        words: bool = False,
        filename: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        recording: Optional[Tuple[str, int]] = None,
        idle_timeout: float = 60.0,
    ) -> Iterator[TranscriptStreamEvent]:
        """``vd.notes.transcribe_stream``: the recording's text as it is recognized (kept on the client, as in JS)."""
        return self.notes.transcribe_stream(
            audio, prompt=prompt, dict=dict, language=language, segments=segments, words=words, filename=filename,
            idempotency_key=idempotency_key, recording=recording, idle_timeout=idle_timeout,
        )

    def get_recording(self, recording_id: str) -> Recording:
        """A recording uploaded in parts (``transcribe(..., recording=(id, part))``), joined in part order."""
        deprecated("get_recording", "notes.get_recording")
        result = _transport.request(
            self._transport, OPERATIONS["get_recording"], path_params={"recording_id": recording_id}
        )
        return cast(Recording, result)

    def append_live_audio(
        self, id: str, data: bytes, *, offset: int, content_type: str = "audio/webm", recorded_at: Optional[str] = None  # noqa: A002
    ) -> LiveRecording:
        """Sends the next bytes of a recording still being made (from byte ``offset``; 0 creates it).
        The server recognizes it piece by piece as it arrives; the answer carries the captions so far.
        Bytes it already holds are skipped, so a retry is harmless; ConflictError (offset_mismatch)
        names the offset to send from."""
        deprecated("append_live_audio", "notes.append_live_audio")
        result = _transport.request(
            self._transport,
            OPERATIONS["append_live_audio"],
            path_params={"id": id},
            query={"offset": offset, "recorded_at": recorded_at},
            body=data,
            content_type=content_type,
        )
        return cast(LiveRecording, result)

    def get_live_recording(self, id: str) -> LiveRecording:  # noqa: A002
        """A live recording: ``bytes_received`` (where to resume) and its captions (``text``, ``pieces``)."""
        deprecated("get_live_recording", "notes.get_live_recording")
        result = _transport.request(self._transport, OPERATIONS["get_live_recording"], path_params={"id": id})
        return cast(LiveRecording, result)

    def finish_live_recording(self, id: str) -> TranscriptionResult:  # noqa: A002
        """Stop: the rest of the recording is recognized and every piece joined into one note
        (finishing again answers the same note)."""
        deprecated("finish_live_recording", "notes.finish_live_recording")
        result = _transport.request(self._transport, OPERATIONS["finish_live_recording"], path_params={"id": id})
        return cast(TranscriptionResult, result)

    def get_transcription(self, id: str) -> TranscriptionResult:  # noqa: A002
        """One of your transcriptions, with its segments and, when enabled, its optimization."""
        deprecated("get_transcription", "notes.get")
        result = _transport.request(self._transport, OPERATIONS["get_transcription"], path_params={"id": id})
        return cast(TranscriptionResult, result)

    def list_transcriptions(
        self,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        q: Optional[str] = None,
        tag: Optional[str] = None,
    ) -> TranscriptionPage:
        """A page of your transcriptions, pinned ones first, then newest first (without segments);
        pass ``page["next_cursor"]`` as ``cursor`` for older ones. With ``tag``, only the notes with
        that tag (case aside). With ``q``, the notes that match it (web search syntax: words,
        "a phrase", or, -excluded, ``tag:work``), best match first, each with ``search["snippet"]``
        (``match`` on the words found)."""
        deprecated("list_transcriptions", "notes.list")
        result = _transport.request(
            self._transport,
            OPERATIONS["list_transcriptions"],
            query={"limit": limit, "cursor": cursor, "q": q, "tag": tag},
        )
        return cast(TranscriptionPage, result)

    def search_transcriptions(self, q: str, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> TranscriptionPage:
        """Searches your notes: ``list_transcriptions`` with ``q``."""
        deprecated("search_transcriptions", "notes.list")
        return cast(TranscriptionPage, self.notes.list(limit=limit, cursor=cursor, q=q))

    def get_transcription_audio(
        self, id: str, *, start: Optional[int] = None, end: Optional[int] = None  # noqa: A002
    ) -> Tuple[bytes, Dict[str, str]]:
        """A note's kept recording (Opus in WebM), whole or the bytes ``start``–``end`` (inclusive),
        and the answer's headers (``content-type``, ``content-range``). NotFoundError when none is kept."""
        deprecated("get_transcription_audio", "notes.get_audio")
        return _download_audio(self._transport, id, start, end)

    def delete_transcription(self, id: str, *, with_posts: bool = False) -> None:  # noqa: A002
        """Deletes a note and its kept recording; the posts made from it too with ``with_posts=True``."""
        deprecated("delete_transcription", "notes.delete")
        _transport.request(
            self._transport,
            OPERATIONS["delete_transcription"],
            path_params={"id": id},
            query={"with_posts": "true" if with_posts else None},
        )

    def get_settings(self) -> Dict[str, Any]:
        """Your settings: the language of your recordings, and what the recognizer can do for it."""
        deprecated("get_settings", "settings.get")
        return cast(Dict[str, Any], _transport.request(self._transport, OPERATIONS["get_settings"]))

    def update_settings(self, *, language: str) -> Dict[str, Any]:
        """Sets the language of your recordings (``"auto"``: detect it in each)."""
        deprecated("update_settings", "settings.update")
        result = _transport.request(self._transport, OPERATIONS["update_settings"], json_body={"language": language})
        return cast(Dict[str, Any], result)

    def export(self) -> bytes:
        """Everything of yours as one ZIP (notes as Markdown, recordings, dictionary.csv, posts)."""
        deprecated("export", "account.export")
        data, _headers = _transport.download(self._transport, OPERATIONS["export_user_data"], accept="application/zip")
        return data

    def edit_transcription(self, id: str, text: str, *, updated_at: Optional[str] = None) -> EditedTranscription:  # noqa: A002
        """Replaces a transcript's text. With ``updated_at`` (the one you last read), a transcript
        changed since is refused with ConflictError (edit_conflict) instead of being overwritten.
        The answer carries ``dictionary_suggestions``: entries this edit suggests
        ("cooper netties" → "Kubernetes")."""
        deprecated("edit_transcription", "notes.update")
        body: Dict[str, Any] = {"text": text}
        if updated_at is not None:
            body["updated_at"] = updated_at
        result = _transport.request(
            self._transport, OPERATIONS["edit_transcription"], path_params={"id": id}, json_body=body
        )
        return cast(EditedTranscription, result)

    def set_tags(self, id: str, tags: Sequence[str]) -> EditedTranscription:  # noqa: A002
        """Replaces a note's tags (at most 10; ``[]`` removes them). A tag you already use keeps your
        spelling of it; a recording in parts gets them on every part. BadRequestError for a tag that
        is empty, longer than 40 characters or holds , " / \\ or a control character."""
        deprecated("set_tags", "notes.update")
        result = _transport.request(
            self._transport, OPERATIONS["edit_transcription"], path_params={"id": id}, json_body={"tags": list(tags)}
        )
        return cast(EditedTranscription, result)

    def pin(self, id: str, pinned: bool = True) -> EditedTranscription:  # noqa: A002
        """Pins a note to the top of the list (``pinned=False`` unpins it)."""
        deprecated("pin", "notes.update")
        result = _transport.request(
            self._transport, OPERATIONS["edit_transcription"], path_params={"id": id}, json_body={"pinned": pinned}
        )
        return cast(EditedTranscription, result)

    def list_tags(self) -> List[Tag]:
        """Every tag on your notes with how many notes carry it, the most used first."""
        deprecated("list_tags", "tags.list")
        result = _transport.request(self._transport, OPERATIONS["list_tags"])
        return cast(List[Tag], result["tags"])

    def rename_tag(self, old: str, new: str) -> RenamedTag:
        """Renames a tag on every note; into a tag you already have (case aside) the two merge
        (``merged`` is True). NotFoundError when no note carries ``old``."""
        deprecated("rename_tag", "tags.rename")
        result = _transport.request(self._transport, OPERATIONS["rename_tag"], json_body={"from": old, "to": new})
        return cast(RenamedTag, result)

    def delete_tag(self, name: str) -> Tag:
        """Takes a tag off every note (the notes stay); answers it as it was, with its count of notes."""
        deprecated("delete_tag", "tags.delete")
        result = _transport.request(self._transport, OPERATIONS["delete_tag"], query={"name": name})
        return cast(Tag, result["deleted"])

    def tick_action_items(self, id: str, items: Dict[str, bool]) -> TranscriptionResult:  # noqa: A002
        """Ticks off (True) or unticks (False) a note's action items, named by their text exactly as
        ``["insights"]["action_items"]`` carries it. An item the note no longer has (its insights
        were rewritten) raises ConflictError (unknown_action_item) and nothing is ticked."""
        deprecated("tick_action_items", "notes.tick_action_items")
        body = {"action_items": [{"text": text, "done": done} for text, done in items.items()]}
        result = _transport.request(
            self._transport, OPERATIONS["tick_action_items"], path_params={"id": id}, json_body=body
        )
        return cast(TranscriptionResult, result)

    def get_dictionary_suggestions(self, id: str, *, limit: Optional[int] = None) -> List[DictionarySuggestion]:  # noqa: A002
        """Dictionary entries suggested by everything you changed in a transcript (the recognizer's
        text against your current one), most frequent first, leaving out what your dictionary holds."""
        deprecated("get_dictionary_suggestions", "notes.get_dictionary_suggestions")
        result = _transport.request(
            self._transport,
            OPERATIONS["get_dictionary_suggestions"],
            path_params={"id": id},
            query={"limit": limit},
        )
        return cast(List[DictionarySuggestion], cast(Dict[str, Any], result)["dictionary_suggestions"])

    def wait_for_optimization(
        self,
        transcription: Union[str, TranscriptionResult],
        *,
        timeout: float = 600.0,
        interval: float = 1.0,
    ) -> TranscriptionResult:
        """Polls a transcription until its background optimization has completed or failed, and
        returns it (check ``["optimization"]["status"]``; the optimized text is
        ``["optimization"]["text"]``). Returns at once when the transcription has no optimization
        (optimization is disabled on the service). Raises OptimizationTimeoutError after
        ``timeout`` seconds."""
        id_ = transcription if isinstance(transcription, str) else transcription["id"]
        deadline = time.monotonic() + timeout
        while True:
            result = cast(TranscriptionResult, self.notes.get(id_))
            optimization = result.get("optimization")
            if not optimization or optimization["status"] in FINISHED_OPTIMIZATION:
                return result
            if time.monotonic() + interval > deadline:
                progress = optimization["progress"]
                raise OptimizationTimeoutError(
                    f"Optimization of {id_} is still {optimization['status']} "
                    f"({progress['chunks_done']}/{progress['chunks_total']} chunks) after {timeout} s."
                )
            time.sleep(interval)


class NotesAPI(NotesResource):
    """``vd.notes``: your transcriptions (generated from the document), and the calls that send or
    answer audio: ``transcribe``, ``transcribe_stream``, ``append_live_audio`` and ``get_audio``."""

    def __init__(self, transport: _transport.Transport, transcribe_timeout: float = 600.0) -> None:
        super().__init__(transport)
        self._transcribe_timeout = transcribe_timeout

    def transcribe(
        self,
        audio: AudioInput,
        *,
        prompt: Optional[str] = None,
        dict: Optional[Sequence[DictionaryEntryInput]] = None,  # noqa: A002 - the API's field name
        language: Optional[str] = None,
        segments: bool = False,
        words: bool = False,
        filename: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        recording: Optional[Tuple[str, int]] = None,
        timeout: Optional[float] = None,
    ) -> TranscriptionResult:
        """Transcribes a recording: a file path, bytes, or a binary file object.

        ``dict`` holds entries applied on top of your stored dictionary (for the same misspelling
        these win). A retry sends the same Idempotency-Key, so the service replays the first
        result instead of transcribing twice. ``recording=(recording_id, part)`` marks the upload
        as one part of a longer recording; ``get_recording(recording_id)`` joins the parts.
        """
        fields = _transcribe_fields(prompt, dict, language, segments, words, recording)
        body, content_type = multipart_upload("audio", audio, fields, filename)
        result = _transport.request(
            self._transport,
            OPERATIONS["transcribe"],
            headers={"Idempotency-Key": idempotency_key or uuid.uuid4().hex},
            body=body,
            content_type=content_type,
            timeout=timeout if timeout is not None else self._transcribe_timeout,
        )
        return cast(TranscriptionResult, result)

    def transcribe_stream(
        self,
        audio: AudioInput,
        *,
        prompt: Optional[str] = None,
        dict: Optional[Sequence[DictionaryEntryInput]] = None,  # noqa: A002 - the API's field name
        language: Optional[str] = None,
        segments: bool = False,
        words: bool = False,
        filename: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        recording: Optional[Tuple[str, int]] = None,
        idle_timeout: float = 60.0,
    ) -> Iterator[TranscriptStreamEvent]:
        """Transcribes a recording and yields its text as it is recognized (a generator).

        Events are dicts: ``{"type": "transcript.text.delta", "delta": ...}`` (the deltas joined are
        the text so far), then ``{"type": "transcript.text.done", ...}``, which is the whole result
        as ``transcribe`` returns it. A failure after the stream began is raised as the same
        APIError subclass ``transcribe`` raises. If the connection breaks, call again with the same
        ``idempotency_key``: the stored result is replayed (one delta, then done). ``idle_timeout``
        is the longest silence allowed (the service sends a keep-alive every 15 s)::

            for event in vd.transcribe_stream("note.m4a"):
                if event["type"] == "transcript.text.delta":
                    print(event["delta"], end="", flush=True)
        """
        fields = _transcribe_fields(prompt, dict, language, segments, words, recording)
        body, content_type = multipart_upload("audio", audio, fields, filename)
        return _transport.stream_events(
            self._transport,
            OPERATIONS["transcribe"],
            headers={"Idempotency-Key": idempotency_key or uuid.uuid4().hex},
            body=body,
            content_type=content_type,
            idle_timeout=idle_timeout,
        )

    def append_live_audio(
        self, id: str, data: bytes, *, offset: int, content_type: str = "audio/webm", recorded_at: Optional[str] = None  # noqa: A002
    ) -> LiveRecording:
        """Sends the next bytes of a recording still being made (from byte ``offset``; 0 creates it).
        The server recognizes it piece by piece as it arrives; the answer carries the captions so far.
        Bytes it already holds are skipped, so a retry is harmless; ConflictError (offset_mismatch)
        names the offset to send from."""
        result = _transport.request(
            self._transport,
            OPERATIONS["append_live_audio"],
            path_params={"id": id},
            query={"offset": offset, "recorded_at": recorded_at},
            body=data,
            content_type=content_type,
        )
        return cast(LiveRecording, result)

    def get_audio(
        self, id: str, *, start: Optional[int] = None, end: Optional[int] = None  # noqa: A002
    ) -> DownloadedAudio:
        """A note's kept recording (Opus in WebM), whole or the bytes ``start``–``end`` (inclusive):
        ``bytes``, ``content_type``, ``content_range`` (None when whole) and ``size``, the whole
        recording's length. NotFoundError when none is kept."""
        data, headers = _download_audio(self._transport, id, start, end)
        content_range = headers.get("content-range")
        size = int(content_range.rsplit("/", 1)[1]) if content_range else len(data)
        return {
            "bytes": data,
            "content_type": headers.get("content-type", "application/octet-stream"),
            "content_range": content_range,
            "size": size,
        }


class AccountAPI(AccountResource):
    """``vd.account``: your data as a whole."""

    def export(self) -> bytes:
        """Everything of yours as one ZIP (notes as Markdown, recordings, dictionary.csv, posts)."""
        data, _headers = _transport.download(self._transport, OPERATIONS["export_user_data"], accept="application/zip")
        return data


class DictionaryAPI(DictionaryResource):
    """``vd.dictionary``: your personal dictionary, misspelling -> correct spelling, applied to every
    transcript (generated from the document; answers as in the JS SDK). 0.1's ``impact`` is now
    ``get_impact``."""

    def impact(self, misspelling: str, language: Optional[str] = None) -> DictionaryImpact:
        """Before adding an entry: whether ``misspelling`` is an everyday word of the language
        (``language``, else your setting) and how many of your notes contain it. Changes nothing."""
        deprecated("dictionary.impact", "dictionary.get_impact")
        result = _transport.request(
            self._transport,
            OPERATIONS["get_dictionary_impact"],
            query={"misspelling": misspelling, "language": language},
        )
        return cast(DictionaryImpact, result)
