import os
import secrets
import socket
import time
import unittest
from unittest import mock

from voicedraft import (
    APIConnectionError,
    APITimeoutError,
    NotFoundError,
    ServiceUnavailableError,
    Voicedraft,
    VoicedraftError,
)

from ._fault_proxy import FaultProxy
from ._service import get_service


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.service = get_service()

    def proxy(self) -> FaultProxy:
        proxy = FaultProxy(self.service.base_url)
        self.addCleanup(proxy.close)
        return proxy

    def test_reads_the_base_url_and_key_from_the_environment(self) -> None:
        env = {"VOICEDRAFT_BASE_URL": self.service.base_url, "VOICEDRAFT_API_KEY": self.service.api_key}
        with mock.patch.dict(os.environ, env):
            client = Voicedraft()
            self.assertEqual(client.base_url, self.service.base_url)
            self.assertIsInstance(client.dictionary.list()["entries"], list)
            # Arguments win over the environment.
            self.assertEqual(Voicedraft("http://example.test").base_url, "http://example.test")
            del os.environ["VOICEDRAFT_API_KEY"]
            with self.assertRaisesRegex(VoicedraftError, "VOICEDRAFT_API_KEY"):
                Voicedraft()

    def test_retries_a_safe_call_after_503_and_429_honouring_retry_after(self) -> None:
        proxy = self.proxy()
        client = Voicedraft(proxy.url, self.service.api_key)
        proxy.fail({"status": 503, "retry_after": "1"}, {"status": 429, "retry_after": "0"})
        started = time.monotonic()
        self.assertIsInstance(client.dictionary.list()["entries"], list)
        self.assertGreaterEqual(time.monotonic() - started, 1.0, "waited the 1 s the service asked for")
        self.assertEqual(len(proxy.seen), 3)

    def test_gives_up_after_max_retries_with_the_last_error_typed(self) -> None:
        proxy = self.proxy()
        client = Voicedraft(proxy.url, self.service.api_key, max_retries=1)
        proxy.fail({"status": 503, "retry_after": "0"}, {"status": 503, "retry_after": "0"}, {"status": 503})
        with self.assertRaises(ServiceUnavailableError) as caught:
            client.dictionary.list()
        self.assertEqual(caught.exception.status, 503)
        self.assertEqual(caught.exception.request_id, "proxy-0001")
        self.assertEqual(caught.exception.retry_after, 0)
        self.assertEqual(len(proxy.seen), 2)

    def test_does_not_repeat_a_call_unsafe_to_repeat(self) -> None:
        proxy = self.proxy()
        client = Voicedraft(proxy.url, self.service.api_key)
        misspelling = f"gone {secrets.token_hex(4)}"
        client.dictionary.add(misspelling, "Gone")
        proxy.fail("lose-response")
        with self.assertRaises(APIConnectionError):
            client.dictionary.delete(misspelling)
        self.assertEqual(len(proxy.seen), 2, "the delete was sent once")
        with self.assertRaises(NotFoundError):  # it did happen
            client.dictionary.delete(misspelling)

    def test_a_lost_response_to_a_safe_call_is_retried(self) -> None:
        proxy = self.proxy()
        client = Voicedraft(proxy.url, self.service.api_key)
        misspelling = f"lost {secrets.token_hex(4)}"
        proxy.fail("lose-response")
        self.assertEqual(client.dictionary.add(misspelling, "Found")["entry"]["correct_spelling"], "Found")
        self.assertEqual(len(proxy.seen), 2)
        client.dictionary.delete(misspelling)

    def test_a_call_without_an_answer_times_out_per_attempt(self) -> None:
        proxy = self.proxy()
        client = Voicedraft(proxy.url, self.service.api_key, timeout=0.3, max_retries=1)
        proxy.fail("hang", "hang")
        started = time.monotonic()
        with self.assertRaises(APITimeoutError):
            client.dictionary.list()
        elapsed = time.monotonic() - started
        self.assertTrue(0.6 <= elapsed < 5, elapsed)
        self.assertEqual(len(proxy.seen), 2)

    def test_an_unreachable_service_is_a_connection_error(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        client = Voicedraft(f"http://127.0.0.1:{port}", self.service.api_key, max_retries=0)
        with self.assertRaises(APIConnectionError):
            client.dictionary.list()


if __name__ == "__main__":
    unittest.main()
