"""Every HTTP operation this client calls, in one table: the client builds its requests from it.
Method and path are the OpenAPI document's, by operationId (the generated _document_operations.py);
tests/test_openapi_sync.py checks the request fields sent and the response fields read against
GET /api/v1/openapi.json, and tests/test_document_operations.py that every operation and parameter
of the document has a counterpart here. Nested fields are dotted; ``[]`` steps
into array items."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Tuple

from ._document_operations import DOCUMENT_OPERATIONS


@dataclass(frozen=True)
class Operation:
    method: str
    #: The OpenAPI path template, e.g. /api/v1/transcriptions/{id}.
    path: str
    response: Tuple[str, ...]
    #: Whether repeating the call cannot do anything twice, so timeouts, network errors, 429 and
    #: 503 are retried: reads, upserts, uploads with an Idempotency-Key, creation keyed by
    #: client_request_id.
    retry_safe: bool
    query: Tuple[str, ...] = ()
    headers: Tuple[str, ...] = ()
    #: Fields of the request body (JSON, or multipart/form-data when ``multipart``).
    body: Tuple[str, ...] = ()
    multipart: bool = False
    #: The body is raw bytes (audio), of one of the document's binary media types.
    raw_body: bool = False


_LIVE_RECORDING_FIELDS = (
    "id",
    "status",
    "bytes_received",
    "heard_seconds",
    "pieces[].start",
    "pieces[].end",
    "pieces[].text",
    "text",
    "transcription_id",
    "created_at",
    "updated_at",
)

_TRANSCRIPTION_FIELDS = (
    "id",
    "created_at",
    "text",
    "language",
    "duration",
    "engine",
    "updated_at",
    "dictionary_replacements",
    "segments[].start",
    "segments[].end",
    "segments[].text",
    "words[].word",
    "words[].start",
    "words[].end",
    "optimizer_processing.optimizer_workflow_name",
    "optimizer_processing.optimizer_workflow_id",
    "optimizer_processing.optimizer_call_id",
    "optimizer_processing.optimizer_execution_id",
    "optimization.status",
    "optimization.optimizer",
    "optimization.mode",
    "optimization.progress.chunks_done",
    "optimization.progress.chunks_total",
    "optimization.text",
    "optimization.error.code",
    "optimization.error.message",
    "optimization.completed_at",
    "recording.id",
    "recording.part",
    "title",
    "recorded_at",
    "audio.url",
    "audio.content_type",
    "audio.bytes",
    "insights.title",
    "insights.summary",
    "insights.key_points",
    "insights.action_items[].text",
    "insights.action_items[].done",
    "insights.written_by",
    "insights.updated_at",
    "tags",
    "pinned",
)

_SETTINGS_FIELDS = ("language", "recognizer.languages", "recognizer.hint", "recognizer.language_supported")


def _fields(prefix: str, names: Tuple[str, ...]) -> Tuple[str, ...]:
    return tuple(f"{prefix}.{f}" for f in names)


_SUGGESTION_FIELDS = tuple(f"dictionary_suggestions[].{f}" for f in ("misspelling", "correct_spelling", "occurrences"))


def _entry_fields(prefix: str) -> Tuple[str, ...]:
    return _fields(prefix, ("misspelling", "correct_spelling", "created_at", "updated_at"))


def _channel_fields(prefix: str) -> Tuple[str, ...]:
    return _fields(prefix, ("id", "platform", "name", "active", "default_preset_id", "created_at", "updated_at"))


def _preset_fields(prefix: str) -> Tuple[str, ...]:
    names = (
        "id", "built_in", "name", "tone", "length", "format", "hashtags", "include_title", "invite_replies",
        "created_at", "updated_at",
    )
    return _fields(prefix, names)


def _rewrite_style_fields(prefix: str) -> Tuple[str, ...]:
    names = ("id", "built_in", "name", "instructions", "needs_writer", "available", "created_at", "updated_at")
    return _fields(prefix, names)


def _rewrite_fields(prefix: str) -> Tuple[str, ...]:
    names = (
        "id", "transcription_id", "style", "style_id", "style_name", "title", "text", "written_by", "offline_reason",
        "edited_at", "created_at", "updated_at",
    )
    return _fields(prefix, names)


def _webhook_fields(prefix: str) -> Tuple[str, ...]:
    names = (
        "id", "url", "events", "description", "enabled", "disabled_reason", "disabled_at", "previous_secret_expires_at",
        "created_at", "updated_at",
    )
    return _fields(prefix, names)


def _webhook_delivery_fields(prefix: str) -> Tuple[str, ...]:
    attempts = tuple(f"attempts[].{f}" for f in ("attempted_at", "status_code", "duration_ms", "error", "response_excerpt"))
    return _fields(prefix, ("id", "event_id", "type", "status", "next_attempt_at", "created_at") + attempts)


_WEBHOOK_BODY = ("url", "events", "description")
_CHANNEL_BODY = ("platform", "name", "active")
_PRESET_BODY = ("name", "tone", "length", "format", "hashtags", "include_title", "invite_replies")

_GENERATION = ("task_id", "state", "generator", "error", "created_at", "finished_at", "set_aside.content_hash")


def _item_fields(prefix: str) -> Tuple[str, ...]:
    names = (
        ("id", "kind", "master_id", "title", "body", "content_hash", "version", "source_transcription_id")
        + ("source_text_kind", "channel_id", "preset_id", "posts", "source.content_hash", "source.version")
        + tuple(f"generation.{f}" for f in _GENERATION)
        + ("approval.state", "approval.approved_hash", "approval.approved_at", "freshness", "created_at", "updated_at")
    )
    return _fields(prefix, names)


def _delivery_fields(prefix: str) -> Tuple[str, ...]:
    return _fields(prefix, ("id", "item_id", "method", "state", "content_hash", "published_url", "created_at", "updated_at"))


def _operation(
    operation_id: str,
    *,
    response: Tuple[str, ...],
    retry_safe: bool,
    query: Tuple[str, ...] = (),
    headers: Tuple[str, ...] = (),
    body: Tuple[str, ...] = (),
    multipart: bool = False,
    raw_body: bool = False,
) -> Operation:
    """A row whose method and path are the document's (the generated table) for this operationId."""
    document = DOCUMENT_OPERATIONS[operation_id]
    return Operation(document.method, document.path, response, retry_safe, query, headers, body, multipart, raw_body)


OPERATIONS: Dict[str, Operation] = {
    "transcribe": _operation(
        "transcribe",
        headers=("Idempotency-Key",),
        multipart=True,
        body=(
            "audio", "prompt", "dict", "response_format", "language", "recording_id", "recording_part",
            "keep_audio", "recorded_at", "timestamp_granularities",
        ),
        response=_TRANSCRIPTION_FIELDS,
        retry_safe=True,
    ),
    "append_live_audio": _operation(
        "appendLiveAudio",
        query=("offset", "recorded_at"),
        raw_body=True,
        response=_LIVE_RECORDING_FIELDS,
        retry_safe=True,
    ),
    "get_live_recording": _operation("getLiveRecording", query=("captions_after", "wait"), response=_LIVE_RECORDING_FIELDS, retry_safe=True),
    "finish_live_recording": _operation("finishLiveRecording", response=_TRANSCRIPTION_FIELDS, retry_safe=True),
    "get_recording": _operation(
        "getRecording",
        response=(
            "parts[].part",
            "parts[].transcription_id",
            "parts[].text",
            "parts[].duration",
            "parts[].optimization_status",
            "parts_received",
            "text",
            "duration",
            "optimization.status",
            "optimization.progress.chunks_done",
            "optimization.progress.chunks_total",
            "optimization.text",
            "created_at",
            "updated_at",
        ),
        retry_safe=True,
    ),
    "get_transcription": _operation(
        "getTranscription",
        response=_TRANSCRIPTION_FIELDS,
        retry_safe=True,
    ),
    "list_transcriptions": _operation(
        "listTranscriptions",
        query=("limit", "cursor", "q", "tag"),
        response=_fields("transcriptions[]", tuple(f for f in _TRANSCRIPTION_FIELDS if not f.startswith(("segments", "words"))))
        + ("transcriptions[].search.rank", "transcriptions[].search.snippet[].text", "transcriptions[].search.snippet[].match")
        + ("next_cursor",),
        retry_safe=True,
    ),
    "get_transcription_audio": _operation("getTranscriptionAudio", headers=("Range",), response=(), retry_safe=True),
    # A repeat after a lost response would answer 404 for a note that was in fact deleted.
    "delete_transcription": _operation("deleteTranscription", query=("with_posts",), response=(), retry_safe=False),
    "get_health": _operation("getHealth", response=("status",), retry_safe=True),
    "get_open_api": _operation("getOpenApi", response=(), retry_safe=True),
    "get_settings": _operation("getSettings", response=_SETTINGS_FIELDS, retry_safe=True),
    "update_settings": _operation("updateSettings", body=("language",), response=_SETTINGS_FIELDS, retry_safe=True),
    "export_user_data": _operation("exportUserData", response=(), retry_safe=True),
    "edit_transcription": _operation(
        "editTranscription",
        body=("text", "title", "tags", "pinned", "updated_at"),
        response=_TRANSCRIPTION_FIELDS + _SUGGESTION_FIELDS,
        # With updated_at, a repeat after a lost response would be refused as an edit conflict.
        retry_safe=False,
    ),
    # Setting done to a value is the same request twice: safe to retry.
    "tick_action_items": _operation("tickActionItems", body=("action_items",), response=_TRANSCRIPTION_FIELDS, retry_safe=True),
    # A repeat after a lost response answers 409 already_improving (or nothing_to_undo): not retried.
    "hear_transcription_again": _operation("hearTranscriptionAgain", response=_TRANSCRIPTION_FIELDS, retry_safe=False),
    "undo_hearing_again": _operation("undoHearingAgain", response=_TRANSCRIPTION_FIELDS, retry_safe=False),
    # Reads only: asking again answers again, nothing changes.
    "ask_notes": _operation(
        "askNotes",
        body=("question", "tag", "since", "until"),
        response=("question", "answer", "answered_by", "offline_reason", "found")
        + _fields("citations[]", ("n", "note_id", "note_title", "quote", "start", "end", "recorded_at"))
        + ("notes[].note_id", "notes[].note_title", "notes[].citations"),
        retry_safe=True,
    ),
    "list_tags": _operation("listTags", response=("tags[].name", "tags[].notes"), retry_safe=True),
    # Renaming to the same name again changes nothing: safe to repeat.
    "rename_tag": _operation(
        "renameTag", body=("from", "to"), response=("tag.name", "tag.notes", "merged"), retry_safe=True
    ),
    # A repeat after a lost response would answer 404 for a tag that was in fact deleted.
    "delete_tag": _operation("deleteTag", query=("name",), response=("deleted.name", "deleted.notes"), retry_safe=False),
    "get_dictionary_suggestions": _operation(
        "getDictionarySuggestions",
        query=("limit",),
        response=_SUGGESTION_FIELDS,
        retry_safe=True,
    ),
    "list_dictionary": _operation(
        "listDictionary",
        query=("limit", "cursor"),
        response=_entry_fields("entries[]") + ("next_cursor",),
        retry_safe=True,
    ),
    "add_dictionary_entry": _operation(
        "addDictionaryEntry",
        body=("misspelling", "correct_spelling"),
        response=_entry_fields("entry") + ("created",),
        retry_safe=True,
    ),
    "delete_dictionary_entry": _operation(
        "deleteDictionaryEntry",
        query=("misspelling",),
        response=_entry_fields("deleted"),
        # A repeat after a lost response would answer 404 for an entry that was in fact deleted.
        retry_safe=False,
    ),
    "get_dictionary_impact": _operation(
        "getDictionaryImpact",
        query=("misspelling", "language"),
        response=("misspelling", "everyday_word", "language", "notes"),
        retry_safe=True,
    ),
    "list_channels": _operation("listChannels", response=_channel_fields("channels[]"), retry_safe=True),
    "create_channel": _operation(
        "createChannel",
        body=_CHANNEL_BODY,
        response=_channel_fields("channel"),
        retry_safe=False,
    ),
    "get_channel": _operation("getChannel", response=_channel_fields("channel"), retry_safe=True),
    "update_channel": _operation(
        "updateChannel",
        body=_CHANNEL_BODY,
        response=_channel_fields("channel"),
        retry_safe=False,  # as every edit: not repeated on the client's own
    ),
    # A repeat after a lost response would answer 404 for a channel that was in fact deleted.
    "delete_channel": _operation("deleteChannel", response=_channel_fields("deleted"), retry_safe=False),
    "list_rewrite_styles": _operation(
        "listRewriteStyles", response=_rewrite_style_fields("styles[]") + ("writer_configured",), retry_safe=True
    ),
    "create_rewrite_style": _operation(
        "createRewriteStyle", body=("name", "instructions"), response=_rewrite_style_fields("style"), retry_safe=False
    ),
    "update_rewrite_style": _operation(
        "updateRewriteStyle", body=("name", "instructions"), response=_rewrite_style_fields("style"), retry_safe=False
    ),
    # A repeat after a lost response would answer 404 for a style that was in fact deleted.
    "delete_rewrite_style": _operation("deleteRewriteStyle", response=_rewrite_style_fields("deleted"), retry_safe=False),
    # A repeat would write (and keep) a second rewrite.
    "create_rewrite": _operation("createRewrite", body=("style",), response=_rewrite_fields("rewrite"), retry_safe=False),
    "list_rewrites": _operation("listRewrites", response=_rewrite_fields("rewrites[]"), retry_safe=True),
    "get_rewrite": _operation("getRewrite", response=_rewrite_fields("rewrite"), retry_safe=True),
    "edit_rewrite": _operation("editRewrite", body=("title", "text"), response=_rewrite_fields("rewrite"), retry_safe=False),
    "delete_rewrite": _operation("deleteRewrite", response=_rewrite_fields("deleted"), retry_safe=False),
    # Webhooks: a repeated create would add a second endpoint, a repeated rotation a third secret.
    "create_webhook": _operation(
        "createWebhook", body=_WEBHOOK_BODY, response=_webhook_fields("webhook") + ("secret",), retry_safe=False
    ),
    "list_webhooks": _operation("listWebhooks", response=_webhook_fields("webhooks[]"), retry_safe=True),
    "get_webhook": _operation("getWebhook", response=_webhook_fields("webhook"), retry_safe=True),
    "update_webhook": _operation(
        "updateWebhook", body=_WEBHOOK_BODY + ("enabled",), response=_webhook_fields("webhook"), retry_safe=False
    ),
    "delete_webhook": _operation("deleteWebhook", response=_webhook_fields("deleted"), retry_safe=False),
    "rotate_webhook_secret": _operation(
        "rotateWebhookSecret", response=_webhook_fields("webhook") + ("secret",), retry_safe=False
    ),
    "list_webhook_deliveries": _operation(
        "listWebhookDeliveries",
        query=("limit", "cursor"),
        response=_webhook_delivery_fields("deliveries[]") + ("next_cursor",),
        retry_safe=True,
    ),
    "redeliver_webhook": _operation("redeliverWebhook", response=_webhook_delivery_fields("delivery"), retry_safe=False),
    "test_webhook": _operation("testWebhook", response=_webhook_delivery_fields("delivery"), retry_safe=False),
    "list_presets": _operation("listPresets", response=_preset_fields("presets[]"), retry_safe=True),
    "create_preset": _operation("createPreset", body=_PRESET_BODY, response=_preset_fields("preset"), retry_safe=False),
    "get_preset": _operation("getPreset", response=_preset_fields("preset"), retry_safe=True),
    "update_preset": _operation("updatePreset", body=_PRESET_BODY, response=_preset_fields("preset"), retry_safe=False),
    "delete_preset": _operation("deletePreset", response=_preset_fields("deleted"), retry_safe=False),
    "list_content_masters": _operation(
        "listContentMasters",
        query=("limit", "cursor", "source_transcription_id"),
        response=_item_fields("items[]") + ("next_cursor",),
        retry_safe=True,
    ),
    "create_content_master": _operation(
        "createContentMaster",
        body=("title", "body", "source_transcription_id"),
        response=_item_fields("item"),
        retry_safe=False,
    ),
    "get_content_item": _operation(
        "getContentItem", response=_item_fields("item"), retry_safe=True
    ),
    "edit_content_item": _operation(
        "editContentItem",
        body=("expected_content_hash", "title", "body"),
        response=_item_fields("item"),
        # A repeat after a lost response would be refused: the item no longer has the expected hash.
        retry_safe=False,
    ),
    "refresh_content_from_note": _operation(
        "refreshContentFromNote",
        body=("expected_content_hash",),
        response=_item_fields("item"),
        # A repeat after a lost response would be refused: the master no longer has the expected hash.
        retry_safe=False,
    ),
    "get_content_family": _operation(
        "getContentFamily",
        response=_item_fields("master") + _item_fields("variants[]") + _delivery_fields("deliveries[]"),
        retry_safe=True,
    ),
    "create_content_variants": _operation(
        "createContentVariants",
        body=("client_request_id", "targets[].channel_id", "targets[].preset_id"),
        response=("master_id", "client_request_id")
        + _fields("variants[]", ("channel_id", "preset_id", "variant_id", "created", "task_id")),
        retry_safe=True,  # the same client_request_id replays the first answer
    ),
    "regenerate_content_variant": _operation(
        "regenerateContentVariant",
        body=("expected_content_hash", "source"),
        response=_item_fields("item") + ("task_id",),
        retry_safe=False,  # each call queues a new generation task
    ),
    "approve_content_variant": _operation(
        "approveContentVariant",
        body=("content_hash",),
        response=_item_fields("item"),
        retry_safe=True,  # approving the same content_hash again changes nothing
    ),
    "record_content_delivery": _operation(
        "recordContentDelivery",
        body=("client_event_id", "method", "state", "delivery_id", "content_hash"),
        response=_delivery_fields("delivery") + ("replayed",),
        retry_safe=True,  # the same client_event_id replays the first answer
    ),
    "confirm_manual_delivery": _operation(
        "confirmManualDelivery",
        body=("client_event_id", "content_hash", "published_url"),
        response=_delivery_fields("delivery") + ("replayed",),
        retry_safe=True,  # the same client_event_id replays the first answer
    ),
}
