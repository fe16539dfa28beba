import unittest

from claimdesk import intake


class IntakeTest(unittest.TestCase):
    def test_photo_less_claim_is_pended(self):
        cfg = intake.load_config()
        q, _ = intake.route({"claim_id": "SVM-26-000001", "estimate_usd": 900.0, "channel": "phone", "photos": []}, cfg)
        self.assertEqual(q, "pend_photos" if not cfg["photodrop"]["enabled"] else "photo_link")

    def test_batch_keeps_order(self):
        out = intake.triage_batch([{"claim_id": f"SVM-26-00000{i}", "estimate_usd": 3000.0, "channel": "app",
                                    "photos": ["ab"]} for i in range(3)])
        self.assertEqual([d["claim_id"] for d in out], [f"SVM-26-00000{i}" for i in range(3)])


if __name__ == "__main__":
    unittest.main()
