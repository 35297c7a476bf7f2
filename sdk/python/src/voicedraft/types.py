"""The shapes the API returns (field names as on the wire), per GET /api/v1/openapi.json."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, TypedDict


class DictionaryEntryInput(TypedDict):
    misspelling: str
    correct_spelling: str


class DictionaryEntry(TypedDict):
    misspelling: str
    correct_spelling: str
    created_at: str
    updated_at: str


class DictionaryImpact(TypedDict):
    misspelling: str
    everyday_word: bool
    language: Optional[str]
    notes: int


class UpsertResult(TypedDict):
    entry: DictionaryEntry
    created: bool


class TranscriptSegment(TypedDict):
    start: float
    end: float
    text: str


class TranscriptWord(TypedDict):
    """One word and when it was spoken (seconds); a phrase your dictionary replaced is one word."""

    word: str
    start: float
    end: float


class OptimizerProcessing(TypedDict):
    """Diagnostic identifiers of the AI optimization; not credentials, but do not publish them
    together with transcripts."""

    optimizer_workflow_name: str
    #: Stable for a recording: a retried upload of the same audio, prompt and dict gets the same id.
    optimizer_workflow_id: str
    optimizer_call_id: str
    #: The current or last run; None until a run starts.
    optimizer_execution_id: Optional[str]


class OptimizationProgress(TypedDict):
    chunks_done: int
    chunks_total: int


class OptimizationError(TypedDict):
    code: str
    message: str


class Optimization(TypedDict):
    #: "pending", "running", "completed" or "failed"
    status: str
    #: "local" or "openai"
    optimizer: str
    #: "inline" (optimized before the response) or "background" (long audio: wait_for_optimization)
    mode: str
    progress: OptimizationProgress
    #: The optimized transcript once completed, else None.
    text: Optional[str]
    #: Why it failed, or why the last attempt failed while it is retried.
    error: Optional[OptimizationError]
    completed_at: Optional[str]


class RecordingRef(TypedDict):
    id: str
    part: int


class RecordingPart(TypedDict):
    part: int
    transcription_id: str
    text: str
    duration: float
    optimization_status: Optional[str]


class LiveRecordingPiece(TypedDict):
    start: float
    end: float
    text: Optional[str]


class LiveRecording(TypedDict):
    """A recording sent while it is made: what the server holds, and its captions so far."""

    id: str
    status: str
    bytes_received: int
    heard_seconds: float
    pieces: List[LiveRecordingPiece]
    text: str
    transcription_id: Optional[str]
    created_at: str
    updated_at: str


class RecordingOptimization(TypedDict):
    status: str
    progress: OptimizationProgress
    text: Optional[str]


class Recording(TypedDict):
    """A recording uploaded in parts, joined in part order."""

    id: str
    parts: List[RecordingPart]
    parts_received: int
    text: str
    duration: float
    optimization: Optional[RecordingOptimization]
    #: The recording's tags and pin (every part has the same).
    tags: List[str]
    pinned: bool
    created_at: str
    updated_at: str


class Tag(TypedDict):
    #: The tag as you spell it.
    name: str
    #: How many notes carry it (a recording in parts counts once).
    notes: int


class RenamedTag(TypedDict):
    tag: Tag
    #: True: the new name was already a tag of yours, and the two are one now.
    merged: bool


class ActionItem(TypedDict):
    #: What to do, as a to-do ("Call Anna about the invoice").
    text: str
    #: Ticked off (tick_action_items); kept when the insights are rewritten and the text is unchanged.
    done: bool


class Insights(TypedDict):
    """Title, summary, key points and action items of a note, written from the text it shows."""

    #: The note's key phrase, title-cased (at most 60 characters).
    title: str
    #: Its strongest sentences in their order (at most 300 characters).
    summary: str
    key_points: List[str]
    action_items: List[ActionItem]
    #: "offline" (rules on the server) or "writer" (the configured model).
    written_by: str
    updated_at: str


class _TranscriptionRequired(TypedDict):
    id: str
    created_at: str
    #: Changes when the text is edited.
    updated_at: str
    #: The transcript, corrected with your dictionary; the AI-optimized version is optimization["text"].
    text: str
    language: str
    duration: float
    engine: str
    dictionary_replacements: int
    #: Your tags on the note, in the order you added them.
    tags: List[str]
    #: Pinned notes are listed first.
    pinned: bool


class TranscriptionResult(_TranscriptionRequired, total=False):
    segments: List[TranscriptSegment]
    #: Every word with its time: with ``words=True``, and from get_transcription when the recognizer gave them.
    words: List[TranscriptWord]
    #: Present when AI optimization is enabled.
    optimizer_processing: OptimizerProcessing
    #: Present when AI optimization is enabled; long audio is optimized in the background.
    optimization: Optimization
    #: The recording this upload is a part of, if it was sent with one.
    recording: Optional[RecordingRef]
    #: Your name for the note (None: none; apps name it from its first sentence).
    title: Optional[str]
    #: When it was recorded (the upload's recorded_at, else created_at).
    recorded_at: str
    #: The kept recording (get_transcription_audio reads it); None when none is kept.
    audio: Optional["NoteAudio"]
    #: Title, summary, key points and action items; None only while not yet written.
    insights: Optional[Insights]
    #: With a search (``q``): how and where this note matched.
    search: "SearchMatch"


class NoteAudio(TypedDict):
    url: str
    content_type: str
    bytes: int


class DownloadedAudio(TypedDict):
    """``vd.notes.get_audio``'s answer (the JS SDK's NoteAudio)."""

    bytes: bytes
    content_type: str
    #: ``bytes start-end/size`` for a range; None for the whole recording.
    content_range: Optional[str]
    #: The whole recording's length in bytes.
    size: int


class SnippetPiece(TypedDict):
    text: str
    #: True on the words searched for.
    match: bool


class SearchMatch(TypedDict):
    rank: float
    snippet: List[SnippetPiece]


#: An event of ``transcribe_stream``: ``{"type": "transcript.text.delta", "delta": str}``, then
#: ``{"type": "transcript.text.done", **TranscriptionResult}``.
TranscriptStreamEvent = Dict[str, Any]


class DictionarySuggestion(TypedDict):
    """A dictionary entry proposed from your edits of a transcript; add it with dictionary.add."""

    misspelling: str
    correct_spelling: str
    occurrences: int


class EditedTranscription(TranscriptionResult):
    """edit_transcription's answer: the transcription, with what this edit suggests for your dictionary."""

    dictionary_suggestions: List[DictionarySuggestion]


# ─── Content workflow ────────────────────────────────────────────────────────────────────────


class Channel(TypedDict):
    id: str
    platform: str
    name: str
    active: bool
    #: The built-in preset that suits the platform, to preselect.
    default_preset_id: str
    created_at: str
    updated_at: str


class RewriteStyle(TypedDict):
    id: str
    built_in: bool
    name: str
    instructions: str
    #: Only a writer (a language model) can write it; todo_list and blog_outline are also written by rules.
    needs_writer: bool
    #: Whether it can be written now (False: it needs a writer and none is set up).
    available: bool
    created_at: Optional[str]
    updated_at: Optional[str]


class RewriteStyleList(TypedDict):
    styles: List[RewriteStyle]
    writer_configured: bool


class Rewrite(TypedDict):
    id: str
    transcription_id: str
    #: The built-in style's id, or "custom".
    style: str
    style_id: Optional[str]
    style_name: str
    title: str
    text: str
    #: "writer" or "offline" (rules, without a model).
    written_by: str
    offline_reason: Optional[str]
    edited_at: Optional[str]
    created_at: str
    updated_at: str


class Preset(TypedDict):
    id: str
    built_in: bool
    name: str
    tone: str
    length: str
    format: str
    hashtags: List[str]
    include_title: bool
    invite_replies: bool
    created_at: str
    updated_at: str


class SetAside(TypedDict):
    title: str
    body: str
    content_hash: str


class GenerationInfo(TypedDict):
    task_id: str
    #: queued, running, succeeded, failed, conflicted or superseded
    state: str
    generator: str
    error: Optional[str]
    created_at: str
    finished_at: Optional[str]
    #: state conflicted: the result that was not applied because the variant was edited meanwhile.
    set_aside: Optional[SetAside]


class SourceSnapshot(TypedDict):
    content_hash: str
    version: int


class Approval(TypedDict):
    #: awaiting_approval or approved
    state: str
    approved_hash: Optional[str]
    approved_at: Optional[str]


class ContentItem(TypedDict):
    id: str
    #: master or variant
    kind: str
    master_id: Optional[str]
    title: str
    body: str
    #: Lowercase hex SHA-256 of title + "\n" + body: what approve and edits refer to.
    content_hash: str
    version: int
    source_transcription_id: Optional[str]
    #: edited, optimized or recognized: which text of the transcription became a master's body;
    #: None when the body was given
    source_text_kind: Optional[str]
    channel_id: Optional[str]
    preset_id: Optional[str]
    posts: Optional[List[str]]
    source: Optional[SourceSnapshot]
    generation: Optional[GenerationInfo]
    approval: Optional[Approval]
    #: fresh or stale (variants), None on a master
    freshness: Optional[str]
    created_at: str
    updated_at: str


class Delivery(TypedDict):
    id: str
    item_id: str
    #: share, copy, export or manual
    method: str
    #: initiated, presented, cancelled, failed or confirmed_manual
    state: str
    content_hash: str
    published_url: Optional[str]
    created_at: str
    updated_at: str


class ContentFamily(TypedDict):
    master: ContentItem
    variants: List[ContentItem]
    deliveries: List[Delivery]


class VariantTarget(TypedDict):
    channel_id: str
    preset_id: str


class CreatedVariant(TypedDict):
    channel_id: str
    preset_id: str
    variant_id: str
    created: bool
    task_id: Optional[str]


class VariantsResult(TypedDict):
    master_id: str
    client_request_id: str
    variants: List[CreatedVariant]


class RegenerateResult(TypedDict):
    item: ContentItem
    task_id: str


class DeliveryResult(TypedDict):
    delivery: Delivery
    replayed: bool


class TranscriptionPage(TypedDict):
    transcriptions: List[TranscriptionResult]
    next_cursor: Optional[str]


class ContentItemPage(TypedDict):
    items: List[ContentItem]
    #: Pass as ``cursor`` for the next page; None on the last.
    next_cursor: Optional[str]
