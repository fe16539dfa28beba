import unittest

from coldwatch.excursions import assess_loads


class DropCheck(unittest.TestCase):
    def test_fridge_line_in_range_is_released(self):
        out = assess_loads([{"load_id": "t1", "product_code": "HAL-INS-GLA", "interval_min": 2, "temps": [4.1, 5.0, 6.2]}])
        self.assertEqual(out[0]["action"], "release")

    def test_unknown_product_is_quarantined(self):
        out = assess_loads([{"load_id": "t2", "product_code": "NOPE", "interval_min": 2, "temps": [4.0]}])
        self.assertEqual(out[0]["action"], "quarantine")


if __name__ == "__main__":
    unittest.main()
