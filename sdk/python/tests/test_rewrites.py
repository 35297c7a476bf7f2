import secrets
import unittest

from voicedraft import ConflictError, NotFoundError, Voicedraft

from ._service import JFK_WAV, get_service

PLAN = (
    "Quick update on the quarterly budget review. I need to call Anna about the booth invoice before Friday. "
    "Don't forget to send the updated spreadsheet to Maria."
)


class RewritesTest(unittest.TestCase):
    """Rewrite as… (issue 31 item 3): styles, a note's rewrites, edit and delete. The service runs
    without a writer, so the to-do list is written by rules and an email is refused."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.service = get_service()
        cls.client = Voicedraft(cls.service.base_url, cls.service.api_key)
        note = cls.client.transcribe(JFK_WAV)
        cls.note_id = cls.client.notes.update(note["id"], text=PLAN)["id"]

    def test_styles_say_what_can_be_written_without_a_writer(self) -> None:
        listed = self.client.rewrites.list_styles()
        by_id = {s["id"]: s for s in listed["styles"]}
        self.assertTrue(by_id["todo_list"]["available"])
        self.assertFalse(by_id["todo_list"]["needs_writer"])
        if not listed["writer_configured"]:
            self.assertFalse(by_id["email"]["available"])
            with self.assertRaises(ConflictError) as refused:
                self.client.rewrites.create(self.note_id, "email")
            self.assertEqual(refused.exception.code, "writer_required")

    def test_a_to_do_list_kept_beside_the_note_edited_and_deleted(self) -> None:
        rewrites = self.client.rewrites
        made = rewrites.create(self.note_id, "todo_list")["rewrite"]
        self.assertEqual(made["transcription_id"], self.note_id)
        self.assertIn("Anna", made["text"])
        self.assertIn(made["id"], [r["id"] for r in rewrites.list(self.note_id)["rewrites"]])
        edited = rewrites.update(made["id"], text="- [x] Call Anna")["rewrite"]
        self.assertEqual(edited["text"], "- [x] Call Anna")
        self.assertIsNotNone(edited["edited_at"])
        self.assertEqual(rewrites.get(made["id"])["rewrite"]["text"], "- [x] Call Anna")
        self.assertEqual(rewrites.delete(made["id"])["deleted"]["id"], made["id"])
        with self.assertRaises(NotFoundError):
            rewrites.get(made["id"])
        self.assertEqual(self.client.notes.get(self.note_id)["text"], PLAN)

    def test_styles_of_your_own(self) -> None:
        rewrites = self.client.rewrites
        style = rewrites.create_style(f"Standup {secrets.token_hex(3)}", "Three bullets: done, next, blocked.")["style"]
        self.assertFalse(style["built_in"])
        self.assertIn(style["id"], [s["id"] for s in rewrites.list_styles()["styles"]])
        self.assertEqual(rewrites.update_style(style["id"], instructions="Two bullets.")["style"]["instructions"], "Two bullets.")
        with self.assertRaises(ConflictError):
            rewrites.update_style("email", name="Mail")
        self.assertEqual(rewrites.delete_style(style["id"])["deleted"]["id"], style["id"])
        with self.assertRaises(NotFoundError):
            rewrites.delete_style(style["id"])
