"""Smoke tests for the planner (run: cd system && python3 -m unittest discover tests)."""

import unittest

from ons import planner


class PlannerTest(unittest.TestCase):
    def test_breaker_lockout_notifies_the_feeder(self):
        ev = {"event_id": "EV-T1", "incident": "OMS-T1", "ts": "2026-11-02T10:00:00-08:00",
              "type": "LOCKOUT", "device": "CB-1201", "source": "SCADA", "feeder": "ORC-1201"}
        rows = planner.plan_batch([ev])
        self.assertTrue(rows)
        self.assertTrue(all(r["event_id"] == "EV-T1" for r in rows))

    def test_momentary_is_ignored(self):
        ev = {"event_id": "EV-T2", "incident": "OMS-T2", "ts": "2026-11-02T10:00:00-08:00",
              "type": "MOMENTARY", "device": "R-1201A", "source": "SCADA", "feeder": "ORC-1201"}
        self.assertEqual(planner.plan_batch([ev]), [])


if __name__ == "__main__":
    unittest.main()
