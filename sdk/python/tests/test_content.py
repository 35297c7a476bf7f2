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
        cls.channel = cls.client.content.create_channel("linkedin", f"SDK {secrets.token_hex(3)}")
        cls.preset = next(p for p in cls.client.content.list_presets() if p["built_in"])

    def targets(self) -> List[VariantTarget]:
        return [{"channel_id": self.channel["id"], "preset_id": self.preset["id"]}]

    def test_channels_create_and_list(self) -> None:
        self.assertEqual(self.channel["platform"], "linkedin")
        self.assertTrue(self.channel["active"])
        self.assertIn(self.channel["id"], [c["id"] for c in self.client.content.list_channels()])

    def test_a_channel_read_changed_and_deleted_by_id(self) -> None:
        content = self.client.content
        channel = content.create_channel("x", f"SDK {secrets.token_hex(3)}")
        self.assertEqual(content.get_channel(channel["id"])["name"], channel["name"])
        changed = content.update_channel(channel["id"], name="Renamed", active=False)
        self.assertEqual((changed["name"], changed["active"], changed["platform"]), ("Renamed", False, "x"))
        self.assertEqual(content.delete_channel(channel["id"])["id"], channel["id"])
        with self.assertRaises(NotFoundError):
            content.get_channel(channel["id"])

    def test_a_style_of_your_own_created_changed_and_deleted_and_masters_listed(self) -> None:
        content = self.client.content
        preset = content.create_preset(f"Punchy {secrets.token_hex(3)}", tone="casual", length="short", hashtags=["voice"])
        self.assertFalse(preset["built_in"])
        self.assertEqual((preset["tone"], preset["hashtags"]), ("casual", ["voice"]))
        self.assertEqual(content.get_preset(preset["id"])["name"], preset["name"])
        self.assertEqual(content.update_preset(preset["id"], format="thread")["format"], "thread")
        with self.assertRaises(APIError) as refused:
            content.update_preset(self.preset["id"], name="Mine now")
        self.assertEqual(refused.exception.code, "preset_read_only")
        self.assertEqual(content.delete_preset(preset["id"])["id"], preset["id"])
        with self.assertRaises(NotFoundError):
            content.get_preset(preset["id"])

        master = content.create_master(body="A master to find in the list.")
        page = content.list_masters(limit=50)
        self.assertIn(master["id"], [item["id"] for item in page["items"]])
        self.assertTrue(all(item["kind"] == "master" for item in page["items"]))

    def test_master_variants_family_approve_deliveries_manual_confirmation(self) -> None:
        content = self.client.content
        master = content.create_master(title="Why we moved", body="We moved to Postgres.\n\nIt was worth it.")
        self.assertEqual(master["kind"], "master")
        self.assertRegex(master["content_hash"], r"^[0-9a-f]{64}$")

        request_id = f"sdk-py-{secrets.token_hex(6)}"
        created = content.create_variants(master["id"], self.targets(), client_request_id=request_id)
        self.assertEqual(created["master_id"], master["id"])
        self.assertEqual(len(created["variants"]), 1)
        self.assertTrue(created["variants"][0]["created"])
        replay = content.create_variants(master["id"], self.targets(), client_request_id=request_id)
        self.assertEqual(replay["variants"][0]["variant_id"], created["variants"][0]["variant_id"])
        other = content.create_master(body="Another master.")
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
            content.approve(variant["id"], "0" * 64)
        self.assertNotIsInstance(wrong.exception, IdempotencyConflictError)
        self.assertEqual(wrong.exception.code, "edit_conflict")
        approved = content.approve(variant["id"], variant["content_hash"])
        self.assertEqual((approved["approval"] or {}).get("state"), "approved")

        shared = content.record_delivery(variant["id"], method="share", state="presented")
        self.assertEqual(shared["delivery"]["state"], "presented", "a share panel never confirms a publication")
        self.assertFalse(shared["replayed"])

        event_id = f"sdk-py-{secrets.token_hex(6)}"
        url = "https://www.linkedin.com/feed/update/1"
        manual = content.confirm_manual_delivery(variant["id"], content_hash=variant["content_hash"], published_url=url, client_event_id=event_id)
        self.assertEqual(manual["delivery"]["state"], "confirmed_manual")
        self.assertEqual(manual["delivery"]["method"], "manual")
        again = content.confirm_manual_delivery(variant["id"], content_hash=variant["content_hash"], published_url=url, client_event_id=event_id)
        self.assertTrue(again["replayed"])

        after = content.get_family(master["id"])
        self.assertEqual({d["id"] for d in after["deliveries"]}, {shared["delivery"]["id"], manual["delivery"]["id"]})

    def test_edit_invalidates_approval_and_regenerate_queues_a_new_task(self) -> None:
        content = self.client.content
        master = content.create_master(body="Short note about releases.")
        created = content.create_variants(master["id"], self.targets())
        family = content.wait_for_variants(master["id"])
        variant = next(v for v in family["variants"] if v["id"] == created["variants"][0]["variant_id"])
        content.approve(variant["id"], variant["content_hash"])

        edited = content.edit_item(variant["id"], expected_content_hash=variant["content_hash"], body="Edited by hand.")
        self.assertNotEqual(edited["content_hash"], variant["content_hash"])
        self.assertEqual((edited["approval"] or {}).get("state"), "awaiting_approval")
        with self.assertRaises(ConflictError) as stale:
            content.edit_item(variant["id"], expected_content_hash=variant["content_hash"], body="x")
        self.assertEqual(stale.exception.code, "edit_conflict")

        regenerated = content.regenerate(variant["id"], expected_content_hash=edited["content_hash"])
        self.assertTrue(regenerated["task_id"])
        self.assertNotEqual(regenerated["task_id"], (variant["generation"] or {}).get("task_id"))
        self.assertEqual((content.get_item(variant["id"])["generation"] or {}).get("task_id"), regenerated["task_id"])

    def test_other_users_content_is_not_found_and_a_bad_key_is_401(self) -> None:
        master = self.client.content.create_master(body="Mine only.")
        other = Voicedraft(self.service.base_url, self.service.other_api_key)
        with self.assertRaises(NotFoundError) as caught:
            other.content.get_family(master["id"])
        self.assertEqual(caught.exception.code, "not_found")
        with self.assertRaises(NotFoundError):
            other.content.approve(master["id"], master["content_hash"])
        with self.assertRaises(AuthenticationError):
            Voicedraft(self.service.base_url, "vd_wrong").content.list_channels()


if __name__ == "__main__":
    unittest.main()
