import unittest

from scheduler import plan


class PlanTest(unittest.TestCase):
    def test_every_job_gets_a_line_or_hold(self):
        jobs = [{"job_id": "J1", "day": "Mon", "product": "HUM-CLS", "cases": 900},
                {"job_id": "J2", "day": "Mon", "product": "SAL-TOM", "cases": 800},
                {"job_id": "J3", "day": "Mon", "product": "HUM-CLS-1K", "cases": 300}]
        out = {d["job_id"]: d for d in plan.plan_week(jobs)}
        self.assertEqual(set(out), {"J1", "J2", "J3"})
        self.assertEqual(out["J3"]["line"], "L3")

    def test_washdown_when_an_allergen_is_dropped(self):
        self.assertTrue(plan.needs_washdown("HUM-CLS", "SAL-TOM"))
        self.assertFalse(plan.needs_washdown("SAL-TOM", "HUM-CLS"))


if __name__ == "__main__":
    unittest.main()
