"""A proxy in front of the real service that can fail the next requests on purpose: answer 503 or
429 itself, hang, or forward the request and then cut the connection before the client sees the
answer (the service did the work; the response was lost). It records what reached it."""

from __future__ import annotations

import http.client
import json
import threading
import urllib.parse
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Deque, Dict, List, Optional, Union

Fault = Union[str, Dict[str, Any]]  # "pass" | "lose-response" | "hang" | {"status": 503, "retry_after": "0"}


class FaultProxy:
    def __init__(self, target: str) -> None:
        self.faults: Deque[Fault] = deque()
        self.seen: List[Dict[str, Any]] = []
        self._hang = threading.Event()
        upstream = urllib.parse.urlsplit(target)
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def _handle(self) -> None:
                fault = proxy.faults.popleft() if proxy.faults else "pass"
                record: Dict[str, Any] = {"method": self.command, "path": self.path, "headers": dict(self.headers), "fault": fault}
                proxy.seen.append(record)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                if fault == "hang":
                    proxy._hang.wait(30)
                    self.close_connection = True
                    return
                if isinstance(fault, dict):
                    payload = json.dumps({"error": {"code": "service_unavailable", "message": "injected", "request_id": "proxy-0001"}}).encode()
                    self.send_response(fault["status"])
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    if fault.get("retry_after") is not None:
                        self.send_header("Retry-After", fault["retry_after"])
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                conn = http.client.HTTPConnection(upstream.hostname or "127.0.0.1", upstream.port, timeout=120)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                conn.request(self.command, self.path, body=body, headers=headers)
                answer = conn.getresponse()
                payload = answer.read()
                record["answer"] = {k.lower(): v for k, v in answer.getheaders()}
                conn.close()
                if fault == "lose-response":
                    self.close_connection = True
                    return
                self.send_response(answer.status)
                for k, v in answer.getheaders():
                    if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_DELETE = _handle

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def fail(self, *faults: Fault) -> None:
        """Faults for the next requests, in order; then requests pass."""
        self.faults.extend(faults)

    def close(self, _: Optional[object] = None) -> None:
        self._hang.set()
        self._server.shutdown()
        self._server.server_close()
