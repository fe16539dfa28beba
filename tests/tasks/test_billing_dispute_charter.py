"""billing_dispute: the Customer Charter's small-dispute rule is in a workspace document at L3, with
the variant's figure and days, where the Charter has one; where it has none, the page promises none."""

from __future__ import annotations

import re
import warnings

import pytest

from fdegym_env import FDEGymEnv
from fdegym_env.core.registry import load_task

TASK = load_task("billing_dispute")


def _l3_docs(variant: str) -> tuple[str, str, str]:
    """(docs/ listing, the Charter page, the AR process page) as an L3 agent reads them."""
    env = FDEGymEnv(task="billing_dispute", sandbox="none", variant=variant, level="L3")
    try:
        env.reset(seed=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            listing, page, process = (env.step(a)[0]["text"] for a in (
                {"tool": "list_files", "path": "docs"},
                {"tool": "read_file", "path": "docs/customer_charter.md"},
                {"tool": "read_file", "path": "docs/dispute_process.md"}))
    finally:
        env.close()
    return listing, page, process


@pytest.mark.parametrize("variant", ["sample:1436", "sample:2", "sample:23", "charter_de_minimis", "base",
                                     "sample:5127"])
def test_the_charter_page_carries_the_variants_small_dispute_rule(variant):
    params = TASK.variant(variant).params
    listing, page, process = _l3_docs(variant)
    assert "docs/customer_charter.md" in listing and "docs/customer_charter.md" in process
    assert "Dev Malhotra" in page
    text = re.sub(r"\s+", " ", re.sub(r"^\s*\d+\t(> )?", "", page, flags=re.M))   # read_file numbers its lines
    figures = set(re.findall(r"\$\d[\d,]*", text))
    d = int(params.get("de_minimis_usd") or 0)
    if d:
        days = re.search(r"within (\w+) business days", params["charter_text"]).group(1)
        assert f"${d:,} or less, we credit it as you claimed within {days} business days" in text, text
        assert figures == {f"${d:,}"}, figures          # the variant's figure, no other
        for breach in ("your invoice is correct", "crediting less than the claim", "AR-REVIEW"):
            assert breach in text, breach
    else:
        assert not figures and "claimed" not in text, text
