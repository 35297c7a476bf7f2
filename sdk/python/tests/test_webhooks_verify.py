"""verify_webhook against the Standard Webhooks test vectors (the reference libraries' own)."""

import unittest

from voicedraft import WebhookVerificationError, verify_webhook

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
TIMESTAMP = 1614265330
BODY = '{"test": 2432232314}'
SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def headers(signature: str = SIGNATURE, timestamp: int = TIMESTAMP) -> dict:
    return {"webhook-id": MSG_ID, "webhook-timestamp": str(timestamp), "webhook-signature": signature}


class VerifyWebhookTest(unittest.TestCase):
    def test_the_vector_verifies_and_returns_the_event(self) -> None:
        self.assertEqual(verify_webhook(BODY, headers(), SECRET, now=TIMESTAMP), {"test": 2432232314})
        self.assertEqual(verify_webhook(BODY.encode(), headers(), SECRET, now=TIMESTAMP + 299), {"test": 2432232314})

    def test_headers_in_any_case_and_one_good_signature_among_several(self) -> None:
        upper = {k.title(): v for k, v in headers(f"v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= {SIGNATURE} v2,x").items()}
        self.assertEqual(verify_webhook(BODY, upper, SECRET, now=TIMESTAMP), {"test": 2432232314})

    def test_refused(self) -> None:
        cases = {
            "wrong signature": (BODY, headers("v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc="), SECRET, TIMESTAMP),
            "other version": (BODY, headers(SIGNATURE.replace("v1,", "v2,")), SECRET, TIMESTAMP),
            "tampered body": ('{"test": 2432232315}', headers(), SECRET, TIMESTAMP),
            "other secret": (BODY, headers(), "whsec_" + "A" * 32, TIMESTAMP),
            "too old": (BODY, headers(), SECRET, TIMESTAMP + 301),
            "too new": (BODY, headers(), SECRET, TIMESTAMP - 301),
            "missing header": (BODY, {"webhook-id": MSG_ID, "webhook-timestamp": str(TIMESTAMP)}, SECRET, TIMESTAMP),
            "bad timestamp": (BODY, headers(timestamp="soon"), SECRET, TIMESTAMP),  # type: ignore[arg-type]
        }
        for name, (body, hdrs, secret, now) in cases.items():
            with self.subTest(name), self.assertRaises(WebhookVerificationError):
                verify_webhook(body, hdrs, secret, now=now)


if __name__ == "__main__":
    unittest.main()
