import secrets
import unittest
from typing import List

from voicedraft import APIError, AuthenticationError, ConflictError, IdempotencyConflictError, NotFoundError, Voicedraft
from voicedraft.types import VariantTarget

from ._service import get_service


class ContentTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.service = get_service()
        cls.client = Voicedraft(cls.service.base_url, cls.service.api_key)
        cls.channel = cls.client.channels.create("linkedin", f"SDK {secrets.token_hex(3)}")["channel"]
        cls.preset = next(p for p in cls.client.presets.list()["presets"] if p["built_in"])

    def targets(self) -> List[VariantTarget]:
        return [{"channel_id": self.channel["id"], "preset_id": self.preset["id"]}]

    def test_channels_create_and_list(self) -> None:
        self.assertEqual(self.channel["platform"], "linkedin")
        self.assertTrue(self.channel["active"])
        self.assertIn(self.channel["id"], [c["id"] for c in self.client.channels.list()["channels"]])

    def test_a_channel_read_changed_and_deleted_by_id(self) -> None:
        channels = self.client.channels
        channel = channels.create("x", f"SDK {secrets.token_hex(3)}")["channel"]
        self.assertEqual(channels.get(channel["id"])["channel"]["name"], channel["name"])
        changed = channels.update(channel["id"], name="Renamed", active=False)["channel"]
        self.assertEqual((changed["name"], changed["active"], changed["platform"]), ("Renamed", False, "x"))
        self.assertEqual(channels.delete(channel["id"])["deleted"]["id"], channel["id"])
        with self.assertRaises(NotFoundError):
            channels.get(channel["id"])

    def test_a_style_of_your_own_created_changed_and_deleted_and_masters_listed(self) -> None:
        presets = self.client.presets
        preset = presets.create(f"Punchy {secrets.token_hex(3)}", tone="casual", length="short", hashtags=["voice"])["preset"]
        self.assertFalse(preset["built_in"])
        self.assertEqual((preset["tone"], preset["hashtags"]), ("casual", ["voice"]))
        self.assertEqual(presets.get(preset["id"])["preset"]["name"], preset["name"])
        self.assertEqual(presets.update(preset["id"], format="thread")["preset"]["format"], "thread")
        with self.assertRaises(APIError) as refused:
            presets.update(self.preset["id"], name="Mine now")
        self.assertEqual(refused.exception.code, "preset_read_only")
        self.assertEqual(presets.delete(preset["id"])["deleted"]["id"], preset["id"])
        with self.assertRaises(NotFoundError):
            presets.get(preset["id"])

        master = self.client.content.create_master(body="A master to find in the list.")["item"]
        page = self.client.content.list_masters(limit=50)
        self.assertIn(master["id"], [item["id"] for item in page["items"]])
        self.assertTrue(all(item["kind"] == "master" for item in page["items"]))

    def test_master_variants_family_approve_deliveries_manual_confirmation(self) -> None:
        content = self.client.content
        master = content.create_master(title="Why we moved", body="We moved to Postgres.\n\nIt was worth it.")["item"]
        self.assertEqual(master["kind"], "master")
        self.assertRegex(master["content_hash"], r"^[0-9a-f]{64}$")

        request_id = f"sdk-py-{secrets.token_hex(6)}"
        created = content.create_variants(master["id"], self.targets(), client_request_id=request_id)
        self.assertEqual(created["master_id"], master["id"])
        self.assertEqual(len(created["variants"]), 1)
        self.assertTrue(created["variants"][0]["created"])
        replay = content.create_variants(master["id"], self.targets(), client_request_id=request_id)
        self.assertEqual(replay["variants"][0]["variant_id"], created["variants"][0]["variant_id"])
        other = content.create_master(body="Another master.")["item"]
        with self.assertRaises(IdempotencyConflictError) as caught:
            content.create_variants(other["id"], self.targets(), client_request_id=request_id)
        self.assertEqual(caught.exception.status, 409)
        self.assertEqual(caught.exception.code, "idempotency_conflict")
        self.assertTrue(caught.exception.request_id)

        family = content.wait_for_variants(master["id"], timeout=60)
        self.assertEqual(family["master"]["id"], master["id"])
        variant = next(v for v in family["variants"] if v["id"] == created["variants"][0]["variant_id"])
        self.assertEqual((variant["generation"] or {}).get("state"), "succeeded", variant["generation"])
        self.assertEqual((variant["approval"] or {}).get("state"), "awaiting_approval")
        self.assertEqual(variant["freshness"], "fresh")

        with self.assertRaises(ConflictError) as wrong:
            content.approve_variant(variant["id"], "0" * 64)
        self.assertNotIsInstance(wrong.exception, IdempotencyConflictError)
        self.assertEqual(wrong.exception.code, "edit_conflict")
        approved = content.approve_variant(variant["id"], variant["content_hash"])["item"]
        self.assertEqual((approved["approval"] or {}).get("state"), "approved")

        shared = content.record_delivery(variant["id"], "share", "presented")
        self.assertEqual(shared["delivery"]["state"], "presented", "a share panel never confirms a publication")
        self.assertFalse(shared["replayed"])

        event_id = f"sdk-py-{secrets.token_hex(6)}"
        url = "https://www.linkedin.com/feed/update/1"
        manual = content.confirm_manual_delivery(variant["id"], variant["content_hash"], published_url=url, client_event_id=event_id)
        self.assertEqual(manual["delivery"]["state"], "confirmed_manual")
        self.assertEqual(manual["delivery"]["method"], "manual")
        again = content.confirm_manual_delivery(variant["id"], variant["content_hash"], published_url=url, client_event_id=event_id)
        self.assertTrue(again["replayed"])

        after = content.get_family(master["id"])
        self.assertEqual({d["id"] for d in after["deliveries"]}, {shared["delivery"]["id"], manual["delivery"]["id"]})

    def test_edit_invalidates_approval_and_regenerate_queues_a_new_task(self) -> None:
        content = self.client.content
        master = content.create_master(body="Short note about releases.")["item"]
        created = content.create_variants(master["id"], self.targets())
        family = content.wait_for_variants(master["id"])
        variant = next(v for v in family["variants"] if v["id"] == created["variants"][0]["variant_id"])
        content.approve_variant(variant["id"], variant["content_hash"])

        edited = content.update_item(variant["id"], variant["content_hash"], body="Edited by hand.")["item"]
        self.assertNotEqual(edited["content_hash"], variant["content_hash"])
        self.assertEqual((edited["approval"] or {}).get("state"), "awaiting_approval")
        with self.assertRaises(ConflictError) as stale:
            content.update_item(variant["id"], variant["content_hash"], body="x")
        self.assertEqual(stale.exception.code, "edit_conflict")

        regenerated = content.regenerate_variant(variant["id"], expected_content_hash=edited["content_hash"])
        self.assertTrue(regenerated["task_id"])
        self.assertNotEqual(regenerated["task_id"], (variant["generation"] or {}).get("task_id"))
        self.assertEqual((content.get_item(variant["id"])["item"]["generation"] or {}).get("task_id"), regenerated["task_id"])

    def test_a_master_not_copied_from_a_note_cannot_be_refreshed_from_one(self) -> None:
        master = self.client.content.create_master(body="No note behind this.")["item"]
        with self.assertRaises(ConflictError) as caught:
            self.client.content.refresh_from_note(master["id"], master["content_hash"])
        self.assertEqual(caught.exception.code, "no_source_note")

    def test_other_users_content_is_not_found_and_a_bad_key_is_401(self) -> None:
        master = self.client.content.create_master(body="Mine only.")["item"]
        other = Voicedraft(self.service.base_url, self.service.other_api_key)
        with self.assertRaises(NotFoundError) as caught:
            other.content.get_family(master["id"])
        self.assertEqual(caught.exception.code, "not_found")
        with self.assertRaises(NotFoundError):
            other.content.approve_variant(master["id"], master["content_hash"])
        with self.assertRaises(AuthenticationError):
            Voicedraft(self.service.base_url, "vd_wrong").channels.list()


if __name__ == "__main__":
    unittest.main()
