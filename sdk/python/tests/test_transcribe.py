import io
import re
import time
import unittest

from voicedraft import (
    AuthenticationError,
    ConflictError,
    IdempotencyConflictError,
    NotFoundError,
    PayloadTooLargeError,
    UnsupportedMediaTypeError,
    Voicedraft,
)

from ._fault_proxy import FaultProxy
from ._service import JFK_WAV, get_service

# PocketSphinx's reading of the JFK speech; "country" is the word it reliably gets right.
COUNTRY = re.compile(r"\bcountry\b", re.IGNORECASE)


class TranscribeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.service = get_service()
        cls.client = Voicedraft(cls.service.base_url, cls.service.api_key)
        with open(JFK_WAV, "rb") as f:
            cls.jfk = f.read()
        cls.from_path = cls.client.transcribe(JFK_WAV, dict=[{"misspelling": "country", "correct_spelling": "Nation"}])

    def test_a_recording_in_parts_get_recording_joins_them_in_order(self) -> None:
        recording_id = f"py-sdk-{time.time_ns()}"
        second = self.client.transcribe(self.jfk, recording=(recording_id, 1))
        first = self.client.transcribe(self.jfk, recording=(recording_id, 0), prompt="part one")
        self.assertEqual(first.get("recording"), {"id": recording_id, "part": 0})
        recording = self.client.notes.get_recording(recording_id)
        self.assertEqual([p["transcription_id"] for p in recording["parts"]], [first["id"], second["id"]])
        self.assertEqual(recording["parts_received"], 2)
        self.assertEqual(recording["text"], f"{first['text']} {second['text']}")
        with self.assertRaises(NotFoundError):
            self.client.notes.get_recording(recording_id + "-missing")

    def test_from_a_path_with_a_request_dictionary_the_documented_result(self) -> None:
        result = self.from_path
        self.assertTrue(result["id"])
        self.assertRegex(result["text"], r"\bNation\b")
        self.assertGreaterEqual(result["dictionary_replacements"], 1)
        self.assertTrue(10 < result["duration"] < 12, result["duration"])
        self.assertEqual(result["engine"], "pocketsphinx")
        self.assertIsInstance(result.get("optimizer_processing"), dict, "optimizer_processing is present")
        optimization = result.get("optimization")
        assert optimization is not None
        self.assertIn(optimization["status"], ("pending", "running", "completed", "failed"))
        # The test service optimizes recordings over 5 s in the background, so there is something to wait for.
        self.assertEqual(optimization["mode"], "background")

    def test_wait_for_optimization_polls_until_finished(self) -> None:
        done = self.client.wait_for_optimization(self.from_path, timeout=120, interval=0.5)
        self.assertEqual(done["id"], self.from_path["id"])
        optimization = done.get("optimization")
        self.assertIsNotNone(optimization)
        assert optimization is not None
        self.assertEqual(optimization["status"], "completed", optimization)
        self.assertIsInstance(optimization["text"], str)
        self.assertGreaterEqual(optimization["progress"]["chunks_done"], 1)
        self.assertEqual(optimization["progress"]["chunks_done"], optimization["progress"]["chunks_total"])

    def test_from_bytes_and_a_file_object_with_segments_and_read_again(self) -> None:
        from_bytes = self.client.transcribe(self.jfk, segments=True, prompt="ask not")
        self.assertRegex(from_bytes["text"], COUNTRY)
        segments = from_bytes.get("segments") or []
        self.assertTrue(segments)
        self.assertTrue(all(s["end"] >= s["start"] for s in segments))

        with open(JFK_WAV, "rb") as f:
            from_file = self.client.transcribe(f)
        self.assertRegex(from_file["text"], COUNTRY)

        again = self.client.notes.get(from_file["id"])
        self.assertEqual(again["id"], from_file["id"])
        self.assertEqual(again["text"], from_file["text"])

    def test_list_transcriptions_pages_and_edit_refuses_a_stale_updated_at(self) -> None:
        page = self.client.notes.list(limit=1)
        self.assertEqual(len(page["transcriptions"]), 1)
        self.assertTrue(page["next_cursor"], "there are older ones")
        older = self.client.notes.list(limit=100, cursor=page["next_cursor"])
        self.assertNotIn(page["transcriptions"][0]["id"], [t["id"] for t in older["transcriptions"]])
        listed = [t["id"] for t in page["transcriptions"] + older["transcriptions"]]
        self.assertIn(self.from_path["id"], listed)

        # A transcription of its own: the other tests (run in any order) read from_path's text.
        current = self.client.notes.get(self.client.transcribe(self.jfk)["id"])
        edited = self.client.notes.update(current["id"], text="Ask not.", updated_at=current["updated_at"])
        self.assertEqual(edited["text"], "Ask not.")
        self.assertEqual(self.client.notes.get(current["id"])["text"], "Ask not.")
        with self.assertRaises(ConflictError) as stale:
            self.client.notes.update(current["id"], text="x", updated_at=current["updated_at"])
        self.assertEqual(stale.exception.code, "edit_conflict")

    def test_edit_suggests_dictionary_entries_and_so_does_get_dictionary_suggestions(self) -> None:
        fresh = self.client.transcribe(self.jfk)
        self.assertRegex(fresh["text"], COUNTRY)
        edited = self.client.notes.update(fresh["id"], text=re.sub(r"\bcountry\b", "Kuntry", fresh["text"], flags=re.I))
        from_edit = [s for s in edited["dictionary_suggestions"] if s["correct_spelling"] == "Kuntry"]
        self.assertEqual([s["misspelling"] for s in from_edit], ["country"], edited["dictionary_suggestions"])
        self.assertGreaterEqual(from_edit[0]["occurrences"], 1)
        every = self.client.notes.get_dictionary_suggestions(fresh["id"])["dictionary_suggestions"]
        self.assertIn(("country", "Kuntry"), [(s["misspelling"], s["correct_spelling"]) for s in every])
        self.assertLessEqual(len(self.client.notes.get_dictionary_suggestions(fresh["id"], limit=1)["dictionary_suggestions"]), 1)
        with self.assertRaises(NotFoundError):
            self.client.notes.get_dictionary_suggestions("no-such-id")

    def test_other_users_transcription_is_not_found_and_bad_key_is_401(self) -> None:
        other = Voicedraft(self.service.base_url, self.service.other_api_key)
        with self.assertRaises(NotFoundError) as caught:
            other.notes.get(self.from_path["id"])
        self.assertEqual(caught.exception.code, "not_found")
        with self.assertRaises(NotFoundError):
            self.client.notes.get("no-such-id")
        with self.assertRaises(AuthenticationError):
            Voicedraft(self.service.base_url, "vd_wrong").transcribe(self.jfk)

    def test_an_upload_over_the_limit_is_413_and_not_retried(self) -> None:
        big = self.jfk + bytes(self.service.max_upload_bytes + 1024 * 1024 - len(self.jfk))
        proxy = FaultProxy(self.service.base_url)
        self.addCleanup(proxy.close)
        with self.assertRaises(PayloadTooLargeError) as caught:
            Voicedraft(proxy.url, self.service.api_key).transcribe(io.BytesIO(big))
        self.assertEqual(caught.exception.status, 413)
        self.assertEqual(caught.exception.code, "payload_too_large")
        self.assertEqual(len(proxy.seen), 1)

    def test_not_audio_is_415(self) -> None:
        with self.assertRaises(UnsupportedMediaTypeError) as caught:
            self.client.transcribe(b"hello, not audio")
        self.assertEqual(caught.exception.code, "unsupported_audio")

    def test_the_same_idempotency_key_with_other_audio_is_409(self) -> None:
        key = f"sdk-python-{time.time_ns()}"
        first = self.client.transcribe(self.jfk, idempotency_key=key)
        replay = self.client.transcribe(self.jfk, idempotency_key=key)
        self.assertEqual(replay["id"], first["id"], "the same key and audio replay the first result")
        with self.assertRaises(IdempotencyConflictError) as caught:
            self.client.transcribe(self.jfk[:-32000], idempotency_key=key)
        self.assertEqual(caught.exception.status, 409)
        self.assertEqual(caught.exception.code, "idempotency_conflict")
        self.assertTrue(caught.exception.request_id)

    def test_a_lost_response_is_retried_with_the_same_key_and_replays(self) -> None:
        proxy = FaultProxy(self.service.base_url)
        self.addCleanup(proxy.close)
        proxy.fail("lose-response", {"status": 503, "retry_after": "0"})
        result = Voicedraft(proxy.url, self.service.api_key).transcribe(JFK_WAV)
        self.assertRegex(result["text"], COUNTRY)
        self.assertEqual(len(proxy.seen), 3)
        keys = [r["headers"].get("Idempotency-Key") for r in proxy.seen]
        self.assertTrue(keys[0])
        self.assertEqual(keys, [keys[0]] * 3)
        self.assertNotIn("idempotent-replayed", proxy.seen[0]["answer"], "the first attempt transcribed")
        self.assertEqual(proxy.seen[2]["answer"].get("idempotent-replayed"), "true", "the retry replayed it")


if __name__ == "__main__":
    unittest.main()
