import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ["ALERTROUTER_STATE"] = os.path.join(tempfile.mkdtemp(), "t.sqlite3")

from alertrouter import router, timeutil  # noqa: E402


def ev(i, ts, alert="ApiGateway5xxRate", value=3.0, sev="critical", inst="apigw-edge"):
    return {"id": "t%d" % i, "ts": ts, "source": "prometheus", "alert": alert, "service": "api-gw",
            "instance": inst, "severity": sev, "value": value, "threshold": 1.0, "summary": ""}


class RouterTest(unittest.TestCase):
    def test_every_event_gets_one_decision(self):
        evs = [ev(1, "2026-02-17T10:00:00Z"), ev(2, "2026-02-17T10:01:00Z", sev="info", alert="Watchdog", value=None)]
        out = router.route_batch({"events": evs, "change_calendar": []})
        self.assertEqual(sorted(d["id"] for d in out["decisions"]), ["t1", "t2"])

    def test_below_threshold_is_a_ticket(self):
        out = router.route_batch({"events": [ev(3, "2026-02-17T11:00:00Z", value=0.4)]})
        self.assertEqual(out["decisions"][0]["action"], "ticket")

    def test_refire_pages_again(self):
        # OPS-877: a re-fire must not be swallowed by the page from the first firing
        evs = [ev(4, "2026-02-17T12:00:00Z"), ev(5, "2026-02-17T12:04:00Z")]
        out = router.route_batch({"events": evs})
        self.assertEqual([d["action"] for d in out["decisions"]], ["page", "page"])

    def test_timestamp_formats(self):
        for s in ("2026-02-17T12:00:00Z", "2026-02-17T12:00:00.123Z", "2026-02-17T12:00:00+00:00",
                  "2026-02-17 12:00:00+00:00", "2026-02-17T12:00:00+01:00"):
            self.assertIsNotNone(timeutil.parse_ts(s), s)


if __name__ == "__main__":
    unittest.main()
