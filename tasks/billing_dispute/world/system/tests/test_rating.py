import unittest

from billing import rating


class TestRating(unittest.TestCase):
    def test_no_change_full_month(self):
        acc = {"account_id": "ACC-1", "plan_at_start": "team"}
        lines = rating.rate_account(acc, [], 1000, None, "2025-12")
        self.assertEqual(len(lines), 1)
        self.assertEqual(lines[0]["amount_usd"], 1320.00)

    def test_upgrade_opens_new_line(self):
        acc = {"account_id": "ACC-1", "plan_at_start": "team"}
        ch = [{"change_id": "PC-1", "account_id": "ACC-1", "effective": "2025-12-17T00:00:00-05:00",
               "from_plan": "team", "to_plan": "growth"}]
        lines = rating.rate_account(acc, ch, 1000, None, "2025-12")
        self.assertEqual([l["plan"] for l in lines], ["team", "growth"])
        self.assertEqual(lines[1]["from"], "2025-12-17")

    def test_overage_on_end_plan(self):
        acc = {"account_id": "ACC-1", "plan_at_start": "starter"}
        lines = rating.rate_account(acc, [], 2500, None, "2025-12")
        self.assertEqual(lines[-1]["kind"], "overage")
        self.assertAlmostEqual(lines[-1]["amount_usd"], 150.00)


if __name__ == "__main__":
    unittest.main()
