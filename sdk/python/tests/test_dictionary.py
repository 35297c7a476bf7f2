import secrets
import unittest

from voicedraft import (
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    PermissionDeniedError,
    Voicedraft,
)

from ._service import get_service


def unique(word: str) -> str:
    # Each test uses its own misspellings: the suites share one user and run in any order.
    return f"{word} {secrets.token_hex(4)}"


class DictionaryTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.service = get_service()
        cls.client = Voicedraft(cls.service.base_url, cls.service.api_key)

    def test_add_update_list_delete(self) -> None:
        misspelling = unique("cooper netties")
        added = self.client.dictionary.add(misspelling, "Kubernetes")
        self.assertTrue(added["created"])
        self.assertEqual(added["entry"]["misspelling"], misspelling)
        self.assertEqual(added["entry"]["correct_spelling"], "Kubernetes")
        self.assertRegex(added["entry"]["created_at"], r"^\d{4}-\d\d-\d\dT")

        updated = self.client.dictionary.add(misspelling.upper(), "K8s")
        self.assertFalse(updated["created"])
        self.assertEqual(updated["entry"]["correct_spelling"], "K8s")

        listed = [e for e in self.client.dictionary.list()["entries"] if e["misspelling"].lower() == misspelling]
        self.assertEqual([e["correct_spelling"] for e in listed], ["K8s"])

        deleted = self.client.dictionary.delete(misspelling)["deleted"]
        self.assertEqual(deleted["correct_spelling"], "K8s")
        self.assertFalse(any(e["misspelling"].lower() == misspelling for e in self.client.dictionary.list()["entries"]))

    def test_list_pages_with_limit_and_cursor(self) -> None:
        for word in ("aa", "ab"):
            self.client.dictionary.add(unique(word), "Paged")
        first = self.client.dictionary.list(limit=1)
        self.assertEqual(len(first["entries"]), 1)
        assert first["next_cursor"], "there are more entries"
        rest = self.client.dictionary.list(cursor=first["next_cursor"])
        self.assertNotIn(first["entries"][0]["misspelling"], [e["misspelling"] for e in rest["entries"]])

    def test_impact_tells_an_everyday_word_from_a_name(self) -> None:
        everyday = self.client.dictionary.get_impact("my", language="en")
        self.assertEqual(everyday["misspelling"], "my")
        self.assertTrue(everyday["everyday_word"])
        self.assertEqual(everyday["language"], "en")
        self.assertGreaterEqual(everyday["notes"], 0)
        name = self.client.dictionary.get_impact(unique("cooper netties"))
        self.assertFalse(name["everyday_word"])
        self.assertEqual(name["notes"], 0)
        with self.assertRaises(BadRequestError):
            self.client.dictionary.get_impact("my", language="english")

    def test_deleting_a_missing_entry_is_not_found_with_status_code_and_request_id(self) -> None:
        with self.assertRaises(NotFoundError) as caught:
            self.client.dictionary.delete(unique("never added"))
        self.assertEqual(caught.exception.status, 404)
        self.assertEqual(caught.exception.code, "not_found")
        self.assertRegex(caught.exception.request_id or "", r"\S{8,}")
        self.assertIn("404 not_found", str(caught.exception))

    def test_another_users_entries_are_not_visible(self) -> None:
        misspelling = unique("voice draft")
        self.client.dictionary.add(misspelling, "Voicedraft")
        other = Voicedraft(self.service.base_url, self.service.other_api_key)
        self.assertFalse(any(e["misspelling"] == misspelling for e in other.dictionary.list()["entries"]))
        with self.assertRaises(NotFoundError):
            other.dictionary.delete(misspelling)
        self.client.dictionary.delete(misspelling)

    def test_invalid_input_is_bad_request_with_the_field_in_details(self) -> None:
        with self.assertRaises(BadRequestError) as caught:
            self.client.dictionary.add(unique("fine"), "")
        self.assertEqual(caught.exception.code, "validation_failed")
        self.assertEqual([d["path"] for d in caught.exception.details], ["correct_spelling"])

    def test_wrong_key_is_401_and_read_only_key_cannot_add(self) -> None:
        stranger = Voicedraft(self.service.base_url, "vd_" + "x" * 43)
        with self.assertRaises(AuthenticationError) as caught:
            stranger.dictionary.list()
        self.assertEqual(caught.exception.status, 401)
        self.assertEqual(caught.exception.code, "unauthorized")

        read_only = Voicedraft(self.service.base_url, self.service.read_only_api_key)
        self.assertIsInstance(read_only.dictionary.list()["entries"], list)
        with self.assertRaises(PermissionDeniedError) as denied:
            read_only.dictionary.add(unique("nope"), "Nope")
        self.assertEqual(denied.exception.code, "insufficient_scope")


if __name__ == "__main__":
    unittest.main()
