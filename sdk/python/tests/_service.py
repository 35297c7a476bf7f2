"""The running service under test: given through VOICEDRAFT_BASE_URL and the keys (scripts/test.mjs
does that), or started once per test run through the repository's launcher when they are not."""

from __future__ import annotations

import atexit
import json
import os
import subprocess
from dataclasses import dataclass
from typing import Dict, Optional

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
JFK_WAV = os.path.abspath(os.path.join(REPO_ROOT, "tests", "fixtures", "jfk.wav"))


@dataclass(frozen=True)
class Service:
    base_url: str
    api_key: str
    other_api_key: str
    read_only_api_key: str
    max_upload_bytes: int


def _from_env(env: Dict[str, str]) -> Service:
    return Service(
        base_url=env["VOICEDRAFT_BASE_URL"],
        api_key=env["VOICEDRAFT_API_KEY"],
        other_api_key=env["VOICEDRAFT_OTHER_API_KEY"],
        read_only_api_key=env["VOICEDRAFT_READONLY_API_KEY"],
        max_upload_bytes=int(env["VOICEDRAFT_MAX_UPLOAD_BYTES"]),
    )


def _launch() -> Service:
    child = subprocess.Popen(
        ["node", "--import", "tsx", "tests/support/sdk-service.ts"],
        cwd=REPO_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )

    def stop() -> None:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(timeout=60)

    atexit.register(stop)
    assert child.stdout is not None
    line = child.stdout.readline()
    if not line:
        raise RuntimeError(f"the service launcher exited with {child.wait()}")
    env = json.loads(line)
    os.environ.update(env)  # the client's defaults read these
    return _from_env(env)


_service: Optional[Service] = None


def get_service() -> Service:
    global _service
    if _service is None:
        given = "VOICEDRAFT_BASE_URL" in os.environ and "VOICEDRAFT_OTHER_API_KEY" in os.environ
        _service = _from_env(dict(os.environ)) if given else _launch()
    return _service
