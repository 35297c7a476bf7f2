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
        whole = self.client.notes.get_audio(self.note["id"])
        self.assertEqual(len(whole["bytes"]), audio["bytes"])
        self.assertTrue(whole["content_type"].startswith("audio/webm"))
        self.assertEqual((whole["content_range"], whole["size"]), (None, audio["bytes"]))
        head = self.client.notes.get_audio(self.note["id"], start=0, end=3)
        self.assertEqual(head["bytes"], b"\x1a\x45\xdf\xa3")
        self.assertEqual(head["content_range"], f"bytes 0-3/{audio['bytes']}")
        self.assertEqual(head["size"], audio["bytes"])

    def test_search_finds_the_note_with_the_word_flagged(self) -> None:
        page = self.client.notes.list(q="country")
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
            state = self.client.notes.append_live_audio(live_id, wav[offset : offset + size], offset=offset, content_type="audio/wav")
            self.assertEqual(state["bytes_received"], min(len(wav), offset + size))
        note = self.client.notes.finish_live_recording(live_id)
        # Recognized in pieces as it came: words (PocketSphinx hears the 11 s clip cut in pieces roughly).
        self.assertGreaterEqual(len(note["text"].split()), 8, note["text"])
        self.assertAlmostEqual(note["duration"], 11, delta=1)
        self.assertEqual(self.client.notes.finish_live_recording(live_id)["id"], note["id"])
        self.assertEqual(self.client.notes.get_live_recording(live_id)["transcription_id"], note["id"])

    def test_tags_and_pin(self) -> None:
        notes, tags = self.client.notes, self.client.tags
        note = self.client.transcribe(JFK_WAV)
        tagged = notes.update(note["id"], tags=["#Speeches ", "history", "speeches"])
        self.assertEqual(tagged["tags"], ["Speeches", "history"])
        self.assertTrue(notes.update(note["id"], pinned=True)["pinned"])
        first = notes.list(limit=1)["transcriptions"][0]
        self.assertEqual(first["id"], note["id"], "a pinned note is listed first")
        self.assertEqual([t["id"] for t in notes.list(tag="SPEECHES")["transcriptions"]], [note["id"]])
        found = notes.list(q="tag:history countr")["transcriptions"]
        self.assertEqual([t["id"] for t in found], [note["id"]])
        self.assertIn({"name": "Speeches", "notes": 1}, tags.list()["tags"])
        renamed = tags.rename("speeches", "Oratory")
        self.assertEqual(renamed, {"tag": {"name": "Oratory", "notes": 1}, "merged": False})
        self.assertEqual(tags.delete("oratory"), {"deleted": {"name": "Oratory", "notes": 1}})
        with self.assertRaises(NotFoundError):
            tags.delete("oratory")
        self.assertFalse(notes.update(note["id"], pinned=False)["pinned"])
        notes.delete(note["id"])

    def test_settings_language(self) -> None:
        self.assertEqual(self.client.settings.update("auto")["language"], "auto")
        self.assertTrue(self.client.settings.get()["recognizer"]["language_supported"])

    def test_delete_a_note_and_its_recording(self) -> None:
        other = self.client.transcribe(JFK_WAV)
        self.client.notes.delete(other["id"])
        with self.assertRaises(NotFoundError):
            self.client.notes.get(other["id"])
        with self.assertRaises(NotFoundError):
            self.client.notes.get_audio(other["id"])

    def test_export_is_a_zip(self) -> None:
        self.assertEqual(self.client.account.export()[:4], b"PK\x03\x04")
