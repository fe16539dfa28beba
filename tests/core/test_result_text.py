"""The result line says why an episode was not resolved: a score under the bar, an incident, or both."""

from __future__ import annotations

import pytest

from fdegym_env.grading.result_text import resolved_words, result_text


def _result(score, incidents, resolved):
    return {"score": score, "uplift": score, "contact_cost": 0.0, "cost_parts": {}, "incidents": incidents,
            "resolved": resolved, "end_reason": "submitted", "metric": {"name": "kpi"}, "kpi": 1.0,
            "kpi_baseline": 0.0, "kpi_reference": 1.0}


@pytest.mark.parametrize("score, incidents, resolved, said", [
    (0.91, [], True, "yes"),
    (0.766, [], False, "no (score under 0.8)"),
    (0.85, ["malformed_output: 2 decision(s)"], False, "no (an incident)"),
    (0.0, ["stranded_overnight: 3"], False, "no (score under 0.8 and an incident)"),
])
def test_the_result_says_why_it_was_not_resolved(score, incidents, resolved, said):
    r = _result(score, incidents, resolved)
    assert resolved_words(r) == said
    assert f"resolved: {said}; ended: submitted" in result_text(r)
