import unittest

from screener import eligibility

CRIT = eligibility.load_criteria()


def visit(**labs):
    rows = [{"analyte": a, "value": v, "units": "", "lab": "SCMC Core Lab", "collected": "2026-09-14"}
            for a, v in labs.items()]
    return {"screening_id": "SCR-0001", "age": 58, "bmi": 31.2, "insulin_90d": False, "labs": rows}


class Screen(unittest.TestCase):
    def test_eligible(self):
        self.assertEqual(eligibility.screen(visit(HBA1C=8.1, GLU=182, CREAT=0.9), CRIT)["decision"], "eligible")

    def test_creatinine_exclusion(self):
        self.assertEqual(eligibility.screen(visit(HBA1C=8.1, GLU=182, CREAT=1.9), CRIT)["decision"], "screen_fail")

    def test_missing_lab_goes_to_pi(self):
        self.assertEqual(eligibility.screen(visit(HBA1C=8.1, GLU=182), CRIT)["decision"], "pi_review")


if __name__ == "__main__":
    unittest.main()
