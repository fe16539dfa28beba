import unittest

from campaign import offers

ACC = {"account_id": "BM-0000001", "region": "London", "plan": "SIM Only 40GB", "monthly_fee": 14.0,
       "min_term_end": "2026-01-10", "mkt_consent": "Y", "pac_requested": "Y", "care_contacts_90d": 3,
       "tenure_months": 30, "data_gb_30d": 1.0, "data_gb_prev_30d": 9.0}


class OffersTest(unittest.TestCase):
    def test_flagged_out_of_term_gets_offer(self):
        out = offers.select_offers({"run_date": "2026-11-30", "accounts": [ACC]})["offers"][0]
        self.assertEqual(out["offer"], "save10")
        self.assertIn("£12.60", out["sms"])

    def test_no_consent_no_offer(self):
        acc = dict(ACC, mkt_consent="N")
        out = offers.select_offers({"run_date": "2026-11-30", "accounts": [acc]})["offers"][0]
        self.assertEqual(out["offer"], "none")


if __name__ == "__main__":
    unittest.main()
