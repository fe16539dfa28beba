import unittest

from rma.authorise import authorise_batch
from catalogue.sizing import uk_sizes


def req(**kw):
    base = {"rma_id": "RMA-1", "tier": "standard", "price": 59.99, "reason": "doesnt_suit",
            "ordered_at": "2026-02-01T10:00:00Z", "dispatched_at": "2026-02-01T20:00:00Z",
            "delivered_at": "2026-02-03T11:00:00Z", "requested_at": "2026-02-10T09:00:00Z",
            "returns_90d": 1, "qc_c_12m": 0}
    base.update(kw)
    return base


class AuthoriseTest(unittest.TestCase):
    def test_inside_window_approved(self):
        self.assertEqual(authorise_batch([req()])[0]["action"], "approve")

    def test_outside_window_refused(self):
        self.assertEqual(authorise_batch([req(requested_at="2026-03-20T09:00:00Z")])[0]["action"], "refuse")

    def test_faulty_always_approved(self):
        self.assertEqual(authorise_batch([req(reason="faulty", requested_at="2026-04-20T09:00:00Z")])[0]["action"], "approve")

    def test_uk_label_unchanged(self):
        out = uk_sizes([{"sku_size": "LO-1-12", "brand": "Loomhouse", "category": "dresses", "size_label": "UK 12"}])
        self.assertEqual(out, [{"sku_size": "LO-1-12", "uk_size": 12}])


if __name__ == "__main__":
    unittest.main()
