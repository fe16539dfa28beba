import unittest

from permits.triage import triage_batch


def app(**kw):
    a = {"app_id": "MW/19/00001", "received_on": "2019-05-01", "validated_on": "2019-05-02",
         "applicant_type": "householder", "work_type": "porch", "street": "Birkby Road", "floor_area": 4.5,
         "max_height_m": 3.0, "neighbour_consent": "Y", "declared_conservation_area": "N"}
    a.update(kw)
    return a


class TriageTest(unittest.TestCase):
    def test_small_porch_is_fast_tracked(self):
        self.assertEqual(triage_batch([app()])[0]["route"], "fast_track")

    def test_big_extension_goes_to_officers(self):
        self.assertEqual(triage_batch([app(work_type="single_storey_rear_extension", floor_area=55)])[0]["route"], "officer")

    def test_conservation_street(self):
        self.assertEqual(triage_batch([app(street="Kirkgate")])[0]["route"], "conservation")


if __name__ == "__main__":
    unittest.main()
