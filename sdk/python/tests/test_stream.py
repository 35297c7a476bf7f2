import http.server
import re
import struct
import threading
import unittest
from typing import Any, Dict, List

from voicedraft import APIConnectionError, UnprocessableError, UnsupportedMediaTypeError, Voicedraft

from ._service import JFK_WAV, get_service

COUNTRY = re.compile(r"\bcountry\b", re.IGNORECASE)


def silent_wav(seconds: int) -> bytes:
    """``seconds`` of 16 kHz mono 16-bit silence as a WAV file."""
    data = b"\0\0" * 16_000 * seconds
    header = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, 16_000, 32_000, 2, 16)
    return header + b"data" + struct.pack("<I", len(data)) + data


class TranscribeStreamTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.service = get_service()
        cls.client = Voicedraft(cls.service.base_url, cls.service.api_key)

    def test_deltas_join_to_the_text_then_done_is_the_result_and_a_retry_replays_as_a_stream(self) -> None:
        events = list(self.client.transcribe_stream(JFK_WAV, idempotency_key="py-sdk-stream-1"))
        done = events[-1]
        self.assertEqual(done["type"], "transcript.text.done")
        deltas = events[:-1]
        self.assertTrue(deltas and all(e["type"] == "transcript.text.delta" for e in deltas))
        self.assertEqual("".join(e["delta"] for e in deltas), done["text"])
        self.assertRegex(done["text"], COUNTRY)
        self.assertEqual(done["engine"], "pocketsphinx")
        self.assertIn("optimizer_processing", done)
        self.assertEqual(self.client.notes.get(done["id"])["text"], done["text"])
        replay = list(self.client.transcribe_stream(JFK_WAV, idempotency_key="py-sdk-stream-1"))
        self.assertEqual([e["type"] for e in replay], ["transcript.text.delta", "transcript.text.done"])
        self.assertEqual(replay[-1]["id"], done["id"])

    def test_a_failure_after_the_stream_began_is_raised_as_the_typed_error(self) -> None:
        with self.assertRaises(UnprocessableError) as caught:
            list(self.client.transcribe_stream(silent_wav(2)))
        self.assertEqual(caught.exception.code, "no_speech")
        self.assertEqual(caught.exception.status, 422)

    def test_bad_input_is_refused_before_the_stream(self) -> None:
        with self.assertRaises(UnsupportedMediaTypeError):
            list(self.client.transcribe_stream(b"not audio at all"))

    def test_a_stream_that_ends_without_done_is_a_connection_error(self) -> None:
        class Half(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the handler's name
                self.rfile.read(int(self.headers.get("content-length") or 0))
                body = b': keep-alive\n\ndata: {"type":"transcript.text.delta","delta":"half"}\n\n'
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

        server = http.server.HTTPServer(("127.0.0.1", 0), Half)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            broken = Voicedraft(f"http://127.0.0.1:{server.server_address[1]}", "vd_test")
            seen: List[Dict[str, Any]] = []
            with self.assertRaises(APIConnectionError):
                for event in broken.transcribe_stream(silent_wav(1)):
                    seen.append(event)
            self.assertEqual(seen, [{"type": "transcript.text.delta", "delta": "half"}])
        finally:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    unittest.main()
