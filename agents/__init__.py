"""Agents that play FDEGym tasks: baselines, solution-replaying anchors, and (optionally) LLM agents.

    from fdegym_env.agents import make_agent, run_episode
    result = run_episode(gym.make("FDEGym/news_incident-v0"), make_agent("reference"), seed=0)
"""

from fdegym_env.agents.base import Agent, run_episode
from fdegym_env.agents.baselines import AGENTS, DoNothingAgent, RandomAgent, SolutionAgent, make_agent

__all__ = ["Agent", "run_episode", "DoNothingAgent", "RandomAgent", "SolutionAgent", "make_agent", "AGENTS"]
