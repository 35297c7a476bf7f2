"""One HTTP exchange with timeouts and retries (standard library only). Retries (timeouts, network
errors, 429, 503) happen only for operations marked retry_safe; the wait doubles from 0.5 s with
jitter, or is what the service's Retry-After asks (capped), whichever is longer."""

from __future__ import annotations

import contextlib
import email.utils
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Generator, Iterable, Iterator, List, Mapping, Optional, Tuple, TypeVar, Union, cast

from ._version import __version__
from .errors import APIConnectionError, APIError, APITimeoutError, api_error
from .operations import Operation

RETRY_STATUSES = frozenset({429, 503})
MAX_RETRY_AFTER_SECONDS = 60.0

#: A request body: bytes, or a factory giving (fresh iterable of chunks, length) per attempt.
Body = Union[bytes, Callable[[], Tuple[Iterable[bytes], int]]]


@dataclass
class Transport:
    base_url: str
    api_key: str = field(repr=False)  # never in logs or tracebacks
    timeout: float
    max_retries: int


def build_url(base_url: str, op: Operation, path_params: Mapping[str, str], query: Mapping[str, Any]) -> str:
    path = op.path
    for name in [p[1:-1] for p in path.split("/") if p.startswith("{")]:
        value = path_params.get(name)
        if not value:
            raise ValueError(f"{name} is required.")
        path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
    url = base_url.rstrip("/") + path
    params = {k: str(v) for k, v in query.items() if v is not None}
    return url + ("?" + urllib.parse.urlencode(params) if params else "")


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def backoff_seconds(attempt: int, retry_after: Optional[float]) -> float:
    exponential = 0.5 * 2**attempt * (0.5 + random.random() / 2)
    asked = min(retry_after, MAX_RETRY_AFTER_SECONDS) if retry_after is not None else 0.0
    return min(max(exponential, asked), MAX_RETRY_AFTER_SECONDS)


def _error_from_response(err: urllib.error.HTTPError) -> APIError:
    try:
        text = err.read().decode("utf-8", "replace")
    except OSError:
        text = ""
    error: Dict[str, Any] = {}
    try:
        body: Any = json.loads(text)
        if isinstance(body, dict) and isinstance(body.get("error"), dict):  # pyright: ignore[reportUnknownMemberType]
            error = cast(Dict[str, Any], body["error"])
    except ValueError:
        pass  # not the API's error shape (a proxy's page, say): keep the status
    return api_error(
        status=err.code,
        code=str(error.get("code") or f"http_{err.code}"),
        message=str(error.get("message") or text[:200] or err.reason),
        request_id=error.get("request_id") or err.headers.get("x-request-id"),
        details=error.get("details"),
        retry_after=parse_retry_after(err.headers.get("retry-after")),
    )


@contextlib.contextmanager
def _exchange_errors(url: str, timeout: float) -> Generator[None, None, None]:
    """Turns what urllib raises while sending or reading into an APIError / APIConnectionError."""
    try:
        yield
    except urllib.error.HTTPError as err:
        with err:
            raise _error_from_response(err) from None
    except (socket.timeout, TimeoutError) as err:
        raise APITimeoutError(f"No response from {url} within {timeout} s.") from err
    except urllib.error.URLError as err:
        if isinstance(err.reason, (socket.timeout, TimeoutError)):
            raise APITimeoutError(f"No response from {url} within {timeout} s.") from err
        raise APIConnectionError(f"Could not reach {url}: {err.reason}") from err
    except OSError as err:  # reset or closed connection, http.client.RemoteDisconnected
        raise APIConnectionError(f"Could not reach {url}: {err}") from err


def _attempt(req: urllib.request.Request, timeout: float) -> Any:
    """One attempt: the parsed JSON answer, or raises an APIError / APIConnectionError."""
    with _exchange_errors(req.full_url, timeout):
        with urllib.request.urlopen(req, timeout=timeout) as res:
            text = res.read().decode("utf-8")
    try:
        return json.loads(text) if text else None
    except ValueError as err:
        raise APIConnectionError(f"The response from {req.full_url} was not JSON.") from err


def _open(req: urllib.request.Request, timeout: float) -> Any:
    """One attempt at a streamed answer: the open response, or raises an APIError / APIConnectionError."""
    with _exchange_errors(req.full_url, timeout):
        return urllib.request.urlopen(req, timeout=timeout)


def _retryable(error: Exception) -> bool:
    if isinstance(error, APIError):
        return error.status in RETRY_STATUSES
    return isinstance(error, APIConnectionError)


_T = TypeVar("_T")


def _with_retries(
    transport: Transport,
    op: Operation,
    url: str,
    headers: Mapping[str, str],
    body: Optional[Body],
    once: Callable[[urllib.request.Request], _T],
) -> _T:
    """Attempts until one succeeds, retrying what may be retried (retry-safe operations only); a
    streamed body is made anew for every attempt."""
    retries = transport.max_retries if op.retry_safe else 0
    attempt = 0
    while True:
        attempt_headers = dict(headers)
        data: Any = body
        if callable(body):
            data, length = body()
            attempt_headers["Content-Length"] = str(length)
        req = urllib.request.Request(url, data=data, method=op.method, headers=attempt_headers)
        try:
            return once(req)
        except (APIError, APIConnectionError) as error:
            if attempt >= retries or not _retryable(error):
                raise
            retry_after = error.retry_after if isinstance(error, APIError) else None
            time.sleep(backoff_seconds(attempt, retry_after))
            attempt += 1


def request(
    transport: Transport,
    op: Operation,
    *,
    path_params: Optional[Mapping[str, str]] = None,
    query: Optional[Mapping[str, Any]] = None,
    headers: Optional[Mapping[str, str]] = None,
    json_body: Any = None,
    body: Optional[Body] = None,
    content_type: Optional[str] = None,
    timeout: Optional[float] = None,
) -> Any:
    url = build_url(transport.base_url, op, path_params or {}, query or {})
    base_headers: Dict[str, str] = {
        "Authorization": f"Bearer {transport.api_key}",
        "Accept": "application/json",
        "User-Agent": f"voicedraft-python/{__version__}",
        **(headers or {}),
    }
    if json_body is not None:
        body = json.dumps(json_body).encode("utf-8")
        content_type = "application/json"
    if content_type:
        base_headers["Content-Type"] = content_type
    wait = timeout if timeout is not None else transport.timeout
    return _with_retries(transport, op, url, base_headers, body, lambda req: _attempt(req, wait))


def download(
    transport: Transport,
    op: Operation,
    *,
    path_params: Optional[Mapping[str, str]] = None,
    headers: Optional[Mapping[str, str]] = None,
    accept: str = "*/*",
    timeout: Optional[float] = None,
) -> Tuple[bytes, Dict[str, str]]:
    """A binary answer (a recording, the export): its bytes and headers (names in lower case)."""
    url = build_url(transport.base_url, op, path_params or {}, {})
    base_headers: Dict[str, str] = {
        "Authorization": f"Bearer {transport.api_key}",
        "Accept": accept,
        "User-Agent": f"voicedraft-python/{__version__}",
        **(headers or {}),
    }
    wait = timeout if timeout is not None else transport.timeout

    def once(req: urllib.request.Request) -> Tuple[bytes, Dict[str, str]]:
        with _exchange_errors(req.full_url, wait):
            with urllib.request.urlopen(req, timeout=wait) as res:
                return res.read(), {k.lower(): v for k, v in res.headers.items()}

    return _with_retries(transport, op, url, base_headers, None, once)


def stream_events(
    transport: Transport,
    op: Operation,
    *,
    headers: Mapping[str, str],
    body: Body,
    content_type: str,
    idle_timeout: float,
) -> Iterator[Dict[str, Any]]:
    """Sends a request with Accept: text/event-stream (retried like request() until the service
    answers) and yields the JSON of each server-sent event as it arrives. ``idle_timeout`` is the
    longest silence allowed (the service sends a keep-alive comment every 15 s). An ``error`` event
    is raised as the APIError the request would have failed with."""
    url = build_url(transport.base_url, op, {}, {})
    base_headers = {
        "Authorization": f"Bearer {transport.api_key}",
        "Accept": "text/event-stream",
        "User-Agent": f"voicedraft-python/{__version__}",
        "Content-Type": content_type,
        **headers,
    }
    res = _with_retries(transport, op, url, base_headers, body, lambda req: _open(req, idle_timeout))
    with res:
        if not str(res.headers.get("content-type", "")).startswith("text/event-stream"):
            # A service without streaming answers JSON: the same events, all at once.
            result = cast(Dict[str, Any], json.loads(res.read().decode("utf-8")))
            if result.get("text"):
                yield {"type": "transcript.text.delta", "delta": result["text"]}
            yield {**result, "type": "transcript.text.done"}
            return
        data_lines: List[str] = []
        try:
            for raw in res:
                line = cast(bytes, raw).decode("utf-8").rstrip("\r\n")
                if line.startswith("data:"):
                    data_lines.append(line[5:][1:] if line[5:].startswith(" ") else line[5:])
                elif not line and data_lines:
                    event = cast(Dict[str, Any], json.loads("\n".join(data_lines)))
                    data_lines = []
                    if event.get("type") == "error":
                        error = cast(Dict[str, Any], event.get("error") or {})
                        raise api_error(
                            status=int(error.get("status") or 500),
                            code=str(error.get("code") or "internal_error"),
                            message=str(error.get("message") or ""),
                            request_id=error.get("request_id"),
                            details=error.get("details"),
                        )
                    yield event
                    if event.get("type") == "transcript.text.done":
                        return
        except (socket.timeout, TimeoutError) as err:
            raise APITimeoutError(f"The stream from {url} sent nothing for {idle_timeout} s.") from err
        except (OSError, ValueError) as err:
            raise APIConnectionError(f"The stream from {url} broke: {err}") from err
    raise APIConnectionError(f"The stream from {url} ended before the transcript was done.")
