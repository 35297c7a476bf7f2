"""multipart/form-data for uploads, streamed: a file is read in chunks on every attempt (a retry
reads it again from the start), so large recordings are never held in memory whole."""

from __future__ import annotations

import os
import uuid
from typing import IO, Callable, Iterator, List, Optional, Tuple, Union

#: A file path, bytes, or a binary file-like object (seekable ones are re-read on a retry).
AudioInput = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]

CHUNK = 64 * 1024


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")


class _Source:
    """Re-readable bytes of the audio: (a fresh chunk iterator, size) on every call."""

    def __init__(self, audio: AudioInput, filename: Optional[str]) -> None:
        self._bytes: Optional[bytes] = None
        self._path: Optional[str] = None
        self._file: Optional[IO[bytes]] = None
        self._start = 0
        if isinstance(audio, (str, os.PathLike)):
            self._path = os.fspath(audio)
            self.size = os.path.getsize(self._path)
            self.filename = filename or os.path.basename(self._path) or "audio"
        elif isinstance(audio, (bytes, bytearray, memoryview)):
            self._bytes = bytes(audio)
            self.size = len(self._bytes)
            self.filename = filename or "audio"
        elif hasattr(audio, "read"):
            name = getattr(audio, "name", None)
            self.filename = filename or (os.path.basename(name) if isinstance(name, str) else "") or "audio"
            if _seekable(audio):
                self._file = audio
                self._start = audio.tell()
                self.size = audio.seek(0, os.SEEK_END) - self._start
                audio.seek(self._start)
            else:  # a pipe or socket can be read once: keep the bytes for retries
                self._bytes = audio.read()
                self.size = len(self._bytes)
        else:
            raise TypeError("audio must be a file path, bytes, or a binary file object.")

    def chunks(self) -> Iterator[bytes]:
        if self._bytes is not None:
            yield self._bytes
        elif self._path is not None:
            with open(self._path, "rb") as f:
                yield from iter(lambda: f.read(CHUNK), b"")
        elif self._file is not None:
            self._file.seek(self._start)
            yield from iter(lambda: self._file.read(CHUNK), b"")  # type: ignore[union-attr]


def _seekable(f: IO[bytes]) -> bool:
    try:
        return bool(f.seekable())
    except (AttributeError, OSError):
        return False


def multipart_upload(
    file_field: str, audio: AudioInput, fields: List[Tuple[str, str]], filename: Optional[str] = None
) -> Tuple[Callable[[], Tuple[Iterator[bytes], int]], str]:
    """A body factory for the transport and the Content-Type header."""
    source = _Source(audio, filename)
    boundary = f"voicedraft-{uuid.uuid4().hex}"
    head = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{_quote(name)}"\r\n\r\n'.encode("utf-8")
        + value.encode("utf-8")
        + b"\r\n"
        for name, value in fields
    )
    head += (
        f'--{boundary}\r\nContent-Disposition: form-data; name="{_quote(file_field)}"; '
        f'filename="{_quote(source.filename)}"\r\nContent-Type: application/octet-stream\r\n\r\n'
    ).encode("utf-8")
    tail = f"\r\n--{boundary}--\r\n".encode("utf-8")

    def body() -> Tuple[Iterator[bytes], int]:
        def parts() -> Iterator[bytes]:
            yield head
            yield from source.chunks()
            yield tail

        return parts(), len(head) + source.size + len(tail)

    return body, f"multipart/form-data; boundary={boundary}"
