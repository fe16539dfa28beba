"""``make_agent`` passes each agent its own settings and names the accepted ones on a bad setting."""

from __future__ import annotations

import pytest

from agents.baselines import AGENTS, SolutionAgent, make_agent


def test_named_solution_agents_take_their_settings():
    agent = make_agent("reference", params_from="base")
    assert isinstance(agent, SolutionAgent) and agent.solution == "reference"
    assert make_agent("literal").solution == "literal"


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_an_unknown_setting_is_a_clear_error_naming_what_is_accepted(name):
    with pytest.raises(TypeError, match=rf"agent '{name}' takes .*; got bogus"):
        make_agent(name, bogus=1)
