import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from triage.router import load_config, route, route_batch  # noqa: E402


class RouterTest(unittest.TestCase):
    def test_outage_pages_network(self):
        d = route({"id": "INC1", "subject": "Whole depot down", "body": "", "site": "CRB"}, load_config())
        self.assertEqual((d["queue"], d["priority"]), ("network", "P1"))

    def test_password_to_desk(self):
        d = route({"id": "INC2", "subject": "Locked out", "body": "", "site": "HO"}, load_config())
        self.assertEqual(d["queue"], "service_desk")

    def test_vip_bump(self):
        d = route({"id": "INC3", "subject": "laptop slow", "body": "", "requester": "g.ostler"}, load_config())
        self.assertEqual(d["priority"], "P2")

    def test_batch_keeps_order(self):
        ids = [f"INC{i}" for i in range(5)]
        out = route_batch([{"id": i, "subject": "x", "body": ""} for i in ids])
        self.assertEqual([d["id"] for d in out], ids)


if __name__ == "__main__":
    unittest.main()
