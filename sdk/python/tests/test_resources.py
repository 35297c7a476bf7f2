"""The resource namespaces (vd.dictionary.add, vd.webhooks.create, ...), generated from the document's
tags with the same names as the JS SDK's (tests/unit/generated-clients.test.ts compares the tables)."""

import secrets
import threading
import time
import unittest
import warnings
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, Dict, List, Tuple

from voicedraft import RESOURCE_NAMES, Voicedraft, WebhookVerificationError, verify_webhook

from ._service import get_service

LEFT_OUT = {"createOpenAiTranscription", "deleteAccount", "createInvitation", "createPairingCode", "listSignedInDevices", "signOutDevice"}


class ResourcesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.service = get_service()
        cls.client = Voicedraft(cls.service.base_url, cls.service.api_key)

    def test_every_tagged_operation_has_a_method_in_its_namespace(self) -> None:
        doc: Dict[str, Any] = self.client.service.get_open_api()
        tagged = [op for item in doc["paths"].values() for op in item.values() if isinstance(op, dict) and op.get("tags")]
        self.assertGreaterEqual(len(tagged), 60)
        for op in tagged:
            op_id = op["operationId"]
            if op_id in LEFT_OUT:
                continue
            self.assertIn(op_id, RESOURCE_NAMES)
            namespace, method = RESOURCE_NAMES[op_id]
            self.assertTrue(callable(getattr(getattr(self.client, namespace), method, None)), f"vd.{namespace}.{method}")

    def test_dictionary_add_list_delete(self) -> None:
        misspelling = f"cooper netties {secrets.token_hex(4)}"
        self.assertTrue(self.client.dictionary.add(misspelling, "Kubernetes")["created"])
        self.assertIn(misspelling, [e["misspelling"] for e in self.client.dictionary.list()["entries"]])
        self.assertEqual(self.client.dictionary.delete(misspelling)["deleted"]["correct_spelling"], "Kubernetes")

    def test_notes_list_and_tags_list(self) -> None:
        self.assertIsInstance(self.client.notes.list(limit=1)["transcriptions"], list)
        self.assertIsInstance(self.client.tags.list()["tags"], list)

    def test_webhooks_create_list_delete(self) -> None:
        created = self.client.webhooks.create("https://example.com/hook", ["transcription.completed"])
        self.assertTrue(created["secret"].startswith("whsec_"))
        webhook_id = created["webhook"]["id"]
        self.assertIn(webhook_id, [w["id"] for w in self.client.webhooks.list()["webhooks"]])
        self.assertEqual(self.client.webhooks.get(webhook_id)["webhook"]["url"], "https://example.com/hook")
        self.assertFalse(self.client.webhooks.update(webhook_id, enabled=False)["webhook"]["enabled"])
        self.assertEqual(self.client.webhooks.delete(webhook_id)["deleted"]["id"], webhook_id)

    def test_a_delivery_from_the_service_verifies_with_the_secret_create_gave(self) -> None:
        # A receiver on this machine (the suites' service allows private addresses).
        received: List[Tuple[bytes, Dict[str, str]]] = []

        class Receiver(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                received.append((body, {k.lower(): v for k, v in self.headers.items()}))
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
                pass

        server = HTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            created = self.client.webhooks.create(f"http://127.0.0.1:{server.server_address[1]}/hook", ["transcription.completed"])
            self.assertIn("delivery", self.client.webhooks.test(created["webhook"]["id"]))
            for _ in range(200):
                if received:
                    break
                time.sleep(0.1)
            self.assertEqual(len(received), 1, "the test event arrived")
            body, headers = received[0]
            self.assertEqual(verify_webhook(body, headers, created["secret"])["type"], "webhook.test")
            with self.assertRaises(WebhookVerificationError):
                verify_webhook(body.replace(b"}", b" }", 1), headers, created["secret"])
            self.client.webhooks.delete(created["webhook"]["id"])
        finally:
            server.shutdown()
            server.server_close()

    def test_deprecated_names_still_work_with_their_old_answers_and_warn(self) -> None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            settings = self.client.get_settings()
            impact = self.client.dictionary.impact("my", language="en")
            channels = self.client.content.list_channels()
        self.assertIn("language", settings)
        self.assertIn("everyday_word", impact)
        self.assertIsInstance(channels, list, "0.1's answer: the channels, not their envelope")
        messages = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
        self.assertEqual(
            messages,
            [
                "vd.get_settings() is deprecated: use vd.settings.get() (the alias is removed in 0.3).",
                "vd.dictionary.impact() is deprecated: use vd.dictionary.get_impact() (the alias is removed in 0.3).",
                "vd.content.list_channels() is deprecated: use vd.channels.list() (the alias is removed in 0.3).",
            ],
        )
        self.assertTrue(all(w.filename.endswith("test_resources.py") for w in caught), "each warning points at the caller")


class AnswersTest(unittest.TestCase):
    """A resource method generated from the document answers as generated, the operation's JSON as the
    JS SDK's does; only the deprecated 0.1 names keep their own answers. No service needed."""

    def test_no_namespace_overrides_a_generated_method(self) -> None:
        client = Voicedraft("http://127.0.0.1:9", "vd_unused")
        overridden: List[str] = []
        for namespace, method in RESOURCE_NAMES.values():
            cls = type(getattr(client, namespace))
            generated = next(c for c in cls.__mro__ if c.__module__ == "voicedraft._resources")
            if method in vars(generated) and getattr(cls, method) is not vars(generated)[method]:
                overridden.append(f"vd.{namespace}.{method}")
        self.assertEqual(overridden, [])
