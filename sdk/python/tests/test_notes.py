import unittest

from voicedraft import NotFoundError, Voicedraft

from ._service import JFK_WAV, get_service


class NotesTest(unittest.TestCase):
    """A note's recording, search, settings, deletion and the export (issues 24 and 25)."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.service = get_service()
        cls.client = Voicedraft(cls.service.base_url, cls.service.api_key)
        cls.note = cls.client.transcribe(JFK_WAV)

    def test_the_kept_recording_whole_and_a_byte_range(self) -> None:
        audio = self.note.get("audio")
        assert audio is not None
        self.assertGreater(audio["bytes"], 1000)
        whole, headers = self.client.get_transcription_audio(self.note["id"])
        self.assertEqual(len(whole), audio["bytes"])
        self.assertTrue(headers["content-type"].startswith("audio/webm"))
        head, headers = self.client.get_transcription_audio(self.note["id"], start=0, end=3)
        self.assertEqual(head, b"\x1a\x45\xdf\xa3")
        self.assertEqual(headers["content-range"], f"bytes 0-3/{audio['bytes']}")

    def test_search_finds_the_note_with_the_word_flagged(self) -> None:
        page = self.client.search_transcriptions("country")
        found = [t for t in page["transcriptions"] if t["id"] == self.note["id"]]
        self.assertEqual(len(found), 1)
        search = found[0].get("search")
        assert search is not None, "a search result says how it matched"
        self.assertTrue(any(p["match"] and p["text"].lower() == "country" for p in search["snippet"]))

    def test_a_live_recording_sent_in_slices_becomes_one_note(self) -> None:
        with open(JFK_WAV, "rb") as f:
            wav = f.read()
        live_id = f"py-live-{id(self)}"
        size = -(-len(wav) // 4)
        for offset in range(0, len(wav), size):
            state = self.client.append_live_audio(live_id, wav[offset : offset + size], offset=offset, content_type="audio/wav")
            self.assertEqual(state["bytes_received"], min(len(wav), offset + size))
        note = self.client.finish_live_recording(live_id)
        # Recognized in pieces as it came: words (PocketSphinx hears the 11 s clip cut in pieces roughly).
        self.assertGreaterEqual(len(note["text"].split()), 8, note["text"])
        self.assertAlmostEqual(note["duration"], 11, delta=1)
        self.assertEqual(self.client.finish_live_recording(live_id)["id"], note["id"])
        self.assertEqual(self.client.get_live_recording(live_id)["transcription_id"], note["id"])

    def test_tags_and_pin(self) -> None:
        note = self.client.transcribe(JFK_WAV)
        tagged = self.client.set_tags(note["id"], ["#Speeches ", "history", "speeches"])
        self.assertEqual(tagged["tags"], ["Speeches", "history"])
        self.assertTrue(self.client.pin(note["id"])["pinned"])
        first = self.client.list_transcriptions(limit=1)["transcriptions"][0]
        self.assertEqual(first["id"], note["id"], "a pinned note is listed first")
        self.assertEqual([t["id"] for t in self.client.list_transcriptions(tag="SPEECHES")["transcriptions"]], [note["id"]])
        found = self.client.search_transcriptions("tag:history countr")["transcriptions"]
        self.assertEqual([t["id"] for t in found], [note["id"]])
        self.assertIn({"name": "Speeches", "notes": 1}, self.client.list_tags())
        renamed = self.client.rename_tag("speeches", "Oratory")
        self.assertEqual(renamed, {"tag": {"name": "Oratory", "notes": 1}, "merged": False})
        self.assertEqual(self.client.delete_tag("oratory"), {"name": "Oratory", "notes": 1})
        with self.assertRaises(NotFoundError):
            self.client.delete_tag("oratory")
        self.assertFalse(self.client.pin(note["id"], False)["pinned"])
        self.client.delete_transcription(note["id"])

    def test_settings_language(self) -> None:
        self.assertEqual(self.client.update_settings(language="auto")["language"], "auto")
        self.assertTrue(self.client.get_settings()["recognizer"]["language_supported"])

    def test_delete_a_note_and_its_recording(self) -> None:
        other = self.client.transcribe(JFK_WAV)
        self.client.delete_transcription(other["id"])
        with self.assertRaises(NotFoundError):
            self.client.get_transcription(other["id"])
        with self.assertRaises(NotFoundError):
            self.client.get_transcription_audio(other["id"])

    def test_export_is_a_zip(self) -> None:
        self.assertEqual(self.client.export()[:4], b"PK\x03\x04")
