"""Baseline agents: do-nothing, random, and agents that deliver one of a task's solutions.

The solution agents ("reference", "literal", any ``shortcut_*``/``bypass_*``) know the hidden truth
(they are anchors, not contestants): they apply ``solutions/<name>.py`` to a scratch copy of the
workspace and then deliver the difference through the ordinary ``write_file`` tool, so the
delivery goes through exactly the same path as any agent's.
"""

from __future__ import annotations

import filecmp
import functools
import inspect
import random
import shlex
import shutil
import tempfile
import zlib
from pathlib import Path
from typing import Any, Callable

import gymnasium as gym

from fdegym_env.core.env import unwrap_fdegym
from fdegym_env.grading.grade import apply_solution

RANDOM_QUESTIONS = ("What should I know about how this system is used?", "Who decides the rules here?",
                    "Has anything changed recently?", "What goes wrong most often?",
                    "Which data should I look at first?")


class DoNothingAgent:
    """Submits the system as found (the paper's do-nothing anchor: uplift 0)."""

    name = "do-nothing"

    def reset(self, env, obs, info):
        pass

    def act(self, obs, info):
        return {"tool": "submit", "note": "No change."}


class RandomAgent:
    """Random but well-formed actions over the workspace and the directory; submits after ``steps``."""

    name = "random"

    def __init__(self, steps: int = 12, seed: int | None = None):
        self.steps = steps
        self.seed = seed

    def reset(self, env, obs, info):
        u = env.unwrapped
        seed = self.seed if self.seed is not None else getattr(u, "episode_seed", None)
        self.rng = random.Random(seed if seed is not None else zlib.crc32(u.task.id.encode()))
        self.files = sorted(str(p.relative_to(u.workspace)) for p in u.workspace.rglob("*") if p.is_file())
        self.people = [p["id"] for p in u.people.directory()]
        self.t = 0

    def act(self, obs, info):
        self.t += 1
        if self.t > self.steps:
            return {"tool": "submit"}
        kind = self.rng.choice(["read_file", "read_file", "list_files", "run", "contact", "directory", "inbox"])
        if kind == "read_file" and self.files:
            return {"tool": "read_file", "path": self.rng.choice(self.files)}
        if kind == "run":
            return {"tool": "run", "command": self.rng.choice(["ls -R | head -50", "wc -l data/* 2>/dev/null | tail -5",
                                                               "cat system/README.md"])}
        if kind == "contact" and self.people:
            return {"tool": "contact", "to": self.rng.choice(self.people), "message": self.rng.choice(RANDOM_QUESTIONS)}
        if kind in ("directory", "inbox"):
            return {"tool": kind}
        return {"tool": "list_files"}


class SolutionAgent:
    """Delivers ``solutions/<solution>.py`` (applied with the episode's true params) and submits."""

    def __init__(self, solution: str = "reference", params_from: str | None = None):
        self.solution = solution
        self.params_from = params_from
        self.name = solution.replace("_", "-") if params_from is None else f"{solution}@{params_from}"

    def reset(self, env: gym.Env, obs, info):
        u = unwrap_fdegym(env)
        if u.variant is None or u.workspace is None:
            raise RuntimeError("SolutionAgent.reset() needs an env with a running episode; call env.reset() first")
        if self.solution not in u.task.solution_names():
            raise ValueError(f"task {u.task.id!r} has no solution {self.solution!r} "
                             f"(has: {', '.join(u.task.solution_names())})")
        params = u.variant.params if self.params_from is None else u.task.variant(self.params_from).params
        self.queue = _delivery_actions(u.task, self.solution, u.workspace, params)
        self.queue.append({"tool": "submit", "note": f"Delivered the {self.solution} solution."})

    def act(self, obs, info):
        return self.queue.pop(0)


def _delivery_actions(task, solution: str, workspace: Path, params: dict) -> list[dict[str, Any]]:
    """write_file actions that turn ``workspace`` into what the solution would deliver."""
    with tempfile.TemporaryDirectory(prefix="fdegym-solution-") as tmp:
        scratch = Path(tmp) / "workspace"
        shutil.copytree(workspace, scratch, symlinks=True)
        apply_solution(task, solution, scratch, params)
        actions = []
        for p in sorted(scratch.rglob("*")):
            if not p.is_file() or "__pycache__" in p.parts:
                continue
            rel = p.relative_to(scratch)
            orig = workspace / rel
            if orig.is_file() and filecmp.cmp(orig, p, shallow=False):
                continue
            try:
                content = p.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                raise ValueError(f"solution {solution!r} wrote a binary file {rel}; solutions must write text") from None
            actions.append({"tool": "write_file", "path": rel.as_posix(), "content": content})
        for p in sorted(workspace.rglob("*")):  # files the solution deleted
            rel = p.relative_to(workspace)
            if p.is_file() and not (scratch / rel).exists():
                actions.append({"tool": "run", "command": "rm -f -- " + shlex.quote(rel.as_posix())})
    return actions


AGENTS: dict[str, Callable[..., Any]] = {"do-nothing": DoNothingAgent, "random": RandomAgent,
                                         "reference": functools.partial(SolutionAgent, "reference"),
                                         "literal": functools.partial(SolutionAgent, "literal")}


def make_agent(name: str, **kwargs: Any):
    """Build an agent by name: ``do-nothing``, ``random``, ``reference``, ``literal``, ``llm``, or
    ``solution:<name>`` for any script in the task's solutions/."""
    if name.startswith("solution:"):
        return SolutionAgent(name.split(":", 1)[1], **kwargs)
    if name == "llm":
        from fdegym_env.agents.llm import LLMAgent
        return LLMAgent(**kwargs)
    if name not in AGENTS:
        from fdegym_env.core.errors import did_you_mean
        hint = did_you_mean(name, list(AGENTS) + ["llm"])
        raise ValueError(f"Unknown agent {name!r}.{hint} Agents: {', '.join(list(AGENTS) + ['llm'])}, solution:<name>.")
    factory = AGENTS[name]
    accepted = [p for p in inspect.signature(factory).parameters if p != "solution"]
    unknown = sorted(set(kwargs) - set(accepted))
    if unknown:
        raise TypeError(f"agent {name!r} takes {', '.join(accepted) or 'no settings'}; got {', '.join(unknown)}")
    return factory(**kwargs)
