import json
import unittest
from pathlib import Path

from reaccom.engine import reaccommodate

PLAN = Path(__file__).resolve().parents[2] / "data" / "plans"


class EngineSmoke(unittest.TestCase):
    def test_every_passenger_gets_one_decision(self):
        for path in sorted(PLAN.glob("*.json")):
            plan = json.loads(path.read_text(encoding="utf-8"))
            out = reaccommodate(plan)
            ids = [d["pax_id"] for d in out["decisions"]]
            self.assertEqual(sorted(ids), sorted(p["pax_id"] for p in plan["passengers"]), path.name)

    def test_rebooked_segments_exist(self):
        for path in sorted(PLAN.glob("*.json")):
            plan = json.loads(path.read_text(encoding="utf-8"))
            keys = {f["key"] for f in plan["schedule"]}
            for d in reaccommodate(plan)["decisions"]:
                if d["action"] == "rebook":
                    self.assertTrue(set(d["segments"]) <= keys)


if __name__ == "__main__":
    unittest.main()
