import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from prequal.engine import decide_batch  # noqa: E402

APP = {"app_id": "T1", "channel": "branch", "form": "LOS-BR", "age": 40, "employment": "employed",
       "income_amount": 72000, "fico": 720, "monthly_debt": 600, "requested_amount": 10000, "term_months": 36}


class EngineTest(unittest.TestCase):
    def test_clean_employed_approves(self):
        self.assertEqual(decide_batch([APP])[0]["decision"], "approve")

    def test_decline_has_reasons(self):
        d = decide_batch([dict(APP, fico=590)])[0]
        self.assertEqual(d["decision"], "decline")
        self.assertTrue(d["reasons"])

    def test_self_employed_schedule_c(self):
        d = decide_batch([dict(APP, employment="self_employed", income_amount=84000)])[0]
        self.assertAlmostEqual(d["monthly_income"], 7000.0)


if __name__ == "__main__":
    unittest.main()
