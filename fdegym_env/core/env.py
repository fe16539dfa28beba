"""FDEGymEnv — one FDE-Gym task as a Gymnasium environment.

Spaces
    Observation: ``Dict(text=UnicodeText, turn, hours, inbox_new, valid)``. ``text`` is what the last
    tool returned (after ``reset``: a title, the brief, a note that ``TASK.md`` holds it, and a
    workspace listing; the title is the catalog ``title`` at L0/L1 and the task's ``agent_title``,
    the sponsor's framing, at L2/L3, where catalog titles would give the hidden problem away);
    ``turn`` counts steps, ``hours`` is customer time elapsed, ``inbox_new`` unread messages,
    ``valid`` whether the last action was well-formed.
    Action: ``Dict(tool=Discrete(11), <argument fields>)``; ``step`` also accepts a plain dict
    ``{"tool": ..., **args}``, an OpenAI-style tool call and the typed actions of
    :mod:`fdegym_env.core.actions`.

Reward
    ``reward_mode="dense"``: each step gives ``-(contact cost it incurred)``, the final step adds
    ``max(-1, U)``. ``"sparse"``: everything on the final step. The undiscounted return equals
    ``info["result"]["score"]``.

Episode end
    ``submit`` (``end_reason="submitted"``) or a limit (``max_turns``, ``max_customer_days``,
    ``max_wall_seconds``): the system as it stands is deployed and graded, ``terminated=True``.
    If the workspace folder disappears from under a live episode (deleted from outside), the next
    step ends it with ``end_reason="workspace_lost"`` and the system is graded as found (uplift 0).

Example:
    >>> import gymnasium as gym, fdegym_env
    >>> env = gym.make("FDEGym/news_incident-v0", level="L3")
    >>> obs, info = env.reset(seed=0)
    >>> obs, r, term, trunc, info = env.step({"tool": "list_files", "path": "docs"})

Version history
    v0: first release.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.envs.registration import EnvSpec

from fdegym_env.core import workspace as wsmod
from fdegym_env.core.actions import Action, ActionError, describe, make_action_space, parse_action
from fdegym_env.core.errors import did_you_mean
from fdegym_env.core.spaces import UnicodeText
from fdegym_env.core.task import LEVELS, SAMPLE_PREFIX, SPLIT_RANGES, Task, Variant
from fdegym_env.grading.grade import GradeOutcome, anchors, grade_system, run_trial, score
from fdegym_env.grading.result_text import result_text
from fdegym_env.people import People, make_router
from fdegym_env.sandbox import make_sandbox, resolve_backend

MAX_OBS_CHARS = 200_000
WORKSPACE_LOST = ("the episode's workspace folder no longer exists (it was deleted from outside this "
                  "environment); the episode ends and the system is graded as found")
RUN_TIMEOUT_DEFAULT = 30.0
RUN_TIMEOUT_MAX = 120.0
WAIT_MAX_HOURS = 336.0              # one `wait` (the tool schema says "at most 336"; the people engine caps it too)
RUN_OUTPUT_CAP = 16_000            # characters of a `run` output shown (head and tail); the rest is saved
RUN_SAVE_CAP = 4 << 20             # bytes of stdout the sandbox hands back for saving (its head and tail)
FILE_TOOLS = ("list_files", "read_file", "write_file", "edit_file")

ENGAGEMENT_RULES = """
---

## Working arrangements

- You are a forward deployed engineer embedded with this customer. Everything you can see of their
  environment is in this workspace. Work only inside it.
- Tools: `list_files`, `read_file`, `write_file`, `edit_file` and `run` (a shell) work on this
  workspace; `directory`, `contact` and `inbox` reach the people; `wait`, `trial`, `submit` below.
- Colleagues at the customer: the `directory` tool lists them; `contact` sends one of them a message.
  Ask specific questions; one message may ask several, and each person answers what they know of
  them (up to four topics a message).
- `system/` is the customer's live system. When you `submit`, whatever is in `system/` goes to
  production unchanged. Production calls only the entry points listed in `system/README.md`; it
  imports them with `system/` as the working directory and import root.
- The customer's machine has the Python 3 standard library and SQLite only: no pip installs, no network.
- `wait` lets time pass at the customer; `trial` runs your current `system/` for one trial day
  where the engagement has a trial environment.
"""


TURNS_WARNING = 10       # from this many actions left, every observation counts them down
HOURS_WARNING = 24.0     # from this much customer time left, every observation says so
WALL_WARNING_S = 600.0   # from this much real time left (a sixth of a shorter limit), every observation says so
# A wall-clock limit this long or longer is none: interactive play (a shell, MCP, the workbench) lets the
# player think at their own pace, and its host drops an abandoned episode instead.
NO_WALL_LIMIT = 10 * 365 * 24 * 3600.0


def _points(costs: list[float]) -> str:
    """``0.03`` or ``0.03, 0.06 and 0.09 (days 1 to 3)``: what trial days cost."""
    if len(set(costs)) == 1:
        return f"{costs[0]:g} points each"
    return ", ".join(f"{c:g}" for c in costs[:-1]) + f" and {costs[-1]:g} points (days 1 to {len(costs)})"


def _whole_minutes(seconds: float) -> tuple[int, int]:
    """``(hours, minutes)`` of a duration rounded to the minute, at least one minute."""
    return divmod(max(1, round(seconds / 60)), 60)


def _real_time(seconds: float) -> str:
    """``45 minutes``, ``2 hours``, ``2 hours 30 minutes``."""
    h, m = _whole_minutes(seconds)
    parts = ([_count(h, "hour")] if h else []) + ([_count(m, "minute")] if m else [])
    return " ".join(parts)


def _hours_minutes(seconds: float) -> str:
    """``1h30``: a duration in a form no fact of a scenario is written in (the leak scan matches phrases)."""
    h, m = _whole_minutes(seconds)
    return f"{h}h{m:02d}"


def task_limits(task: Task, variant: Variant, max_turns: int | None = None,
                max_customer_days: float | None = None, max_wall_seconds: float | None = None) -> str:
    """:func:`limits_text` for an episode of ``task`` on ``variant`` (the task's limits unless overridden)."""
    from fdegym_env.core.clock import Clock
    from fdegym_env.people.engine import trial_terms
    spec = task.people_spec(variant)
    clock = Clock(spec["clock"].get("start") if spec.get("clock") else None)     # as the people engine's
    now = clock.stamp() if clock.enabled else None
    trial = trial_terms(spec.get("trial")) if task.has_module("trial") else None
    return limits_text(int(max_turns or task.limits["max_turns"]),
                       float(max_customer_days or task.limits["max_customer_days"]), now, trial,
                       float(max_wall_seconds or task.limits["max_wall_seconds"]),
                       float((spec.get("clock") or {}).get("wait_cost_per_day", 0.0)), task.metric)


def limits_text(max_turns: int, max_days: float, now: str | None, trial: dict | None,
                wall_seconds: float | None = None, wait_cost_per_day: float = 0.0,
                metric: dict[str, Any] | None = None) -> str:
    """The engagement's limits and what costs points, stated in the reset observation and TASK.md:
    nothing that ends an episode or lowers a score may be learnt only from the result. A wall-clock
    limit of ``None`` or :data:`NO_WALL_LIMIT` and more is no limit, and is not stated. The
    customer's metric is named with its direction; what it is made of is for the agent to learn."""
    days = f" or once {max_days:g} customer days have passed (it is now {now})" if now else ""
    waits = bool(now) and wait_cost_per_day > 0
    lines = ["## Limits of this engagement", "",
             f"- It ends after {max_turns} actions (every tool call counts, reading a file included){days}, "
             "whichever comes first; `system/` is then deployed as it stands, as if you had submitted.",
             *([f"- It also ends once {_hours_minutes(wall_seconds)} (hours and minutes) of real, wall-clock "
                "time have passed since it started, however few actions you have taken, in the same way."]
               if wall_seconds is not None and wall_seconds < NO_WALL_LIMIT else []),
             *([f"- The customer judges this work by `{metric['name']}` "
                f"({'higher' if metric['direction'] == 'maximize' else 'lower'} is better); the result reports it."]
               if metric else []),
             "- The score: how far your `system/` moves the customer's own metric on their real traffic after "
             "hand-over, from 0 (as found) to 1 (an expert's change; more if you do better), less what "
             + ("contacts, trial days and waiting" if waits else "contacts and trial days") + " cost; an "
             "incident caps it at 0. It counts as resolved at 0.8 or more with no incident.",
             "- Every `contact` costs points: more for senior people, more past what a person will answer."
             + (" Contacts, trial days and `wait` take customer time." if now else "")
             + (f" `wait` costs {wait_cost_per_day:g} points per customer day waited." if waits else "")]
    if trial and trial["max_runs"] > 0:
        hours = f"; each takes {trial['advance_hours']:g} hours of customer time" if now and trial["advance_hours"] else ""
        lines.append(f"- `trial`: at most {trial['max_runs']} trial days; they cost {_points(trial['costs'])}{hours}.")
    return "\n".join(lines) + "\n"


def _count(n: int, word: str) -> str:
    """``1 action``, ``3 actions``."""
    return f"{n} {word}{'s' if n != 1 else ''}"


def mail_notice(n: int) -> str:
    """The reset observation's last line when messages wait in the inbox from the start."""
    return f"\n{_count(n, 'message')} already in your inbox: `inbox` reads them.\n" if n else ""


def limits_in_task_md(task: Task, variant: Variant, limits: str) -> str:
    """What TASK.md gets of the limits: all of them, except in a harness case, whose TASK.md is the harness's own."""
    return "" if task.engagement_rules(variant) else limits


CATALOG_TITLE_LEVELS = ("L0", "L1")  # the catalog title may name the hidden problem: shown only where the brief does
TASK_MD_NOTE = "The brief above is also in `TASK.md` in your workspace."


def episode_brief(task: Task, level: str, variant: Variant) -> str:
    """``TASK.md``: the level's brief, filled from the variant, and the working arrangements."""
    # harness cases bring their own rules
    return task.brief(level, variant).rstrip() + "\n" + (task.engagement_rules(variant) or ENGAGEMENT_RULES)


def shown_title(task: Task, level: str) -> str | None:
    """The title heading the reset observation: the catalog ``title`` at L0/L1; at L2/L3 the
    sponsor's framing (``agent_title``) or none, because catalog titles state the hidden problem."""
    if level in CATALOG_TITLE_LEVELS:
        return task.title
    return getattr(task, "agent_title", None)


def reset_segments(task: Task, level: str, variant: Variant, workspace: Path,
                   limits: str = "") -> list[tuple[str, str]]:
    """The reset observation as ``(source, text)`` pieces; ``"".join`` of the texts is exactly what
    :meth:`FDEGymEnv.reset` shows. The leak check (:mod:`fdegym_env.admission.leaks`) scans these pieces
    and names the source of an offending line."""
    segs = []
    title = shown_title(task, level)
    if title:
        segs.append(("task.yaml " + ("title" if level in CATALOG_TITLE_LEVELS else "agent_title"), f"# {title}\n\n"))
    segs.append((f"briefs/{level}.md", task.brief(level, variant).rstrip() + "\n"))
    segs.append(("engagement rules", (task.engagement_rules(variant) or ENGAGEMENT_RULES) + "\n"))
    if limits:
        segs.append(("limits", limits + "\n"))
    segs.append(("reset observation", f"---\n\n{TASK_MD_NOTE}\n\nYour workspace:\n"))
    segs.append(("workspace listing", wsmod.list_files(workspace, ".") + "\n"))
    return segs


class FDEGymEnv(gym.Env[dict, dict]):
    """A customer-delivery engagement as a Gymnasium environment (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, task: str | Task = "news_incident", level: str = "L3", variant: str = "base",
                 split: str = "train", sandbox: str = "auto", router: str | Any | None = None,
                 reward_mode: str = "dense", max_turns: int | None = None,
                 max_customer_days: float | None = None, max_wall_seconds: float | None = None,
                 render_mode: str | None = None, router_kwargs: dict[str, Any] | None = None):
        from fdegym_env.core.registry import load_task
        self.task: Task = task if isinstance(task, Task) else load_task(task)
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
        if reward_mode not in ("dense", "sparse"):
            raise ValueError(f"reward_mode must be 'dense' or 'sparse', got {reward_mode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        if split not in SPLIT_RANGES:
            raise ValueError(f"split must be one of {', '.join(SPLIT_RANGES)}, got {split!r}."
                             f"{did_you_mean(split, SPLIT_RANGES)} (It picks which samples variant='sample' draws.)")
        self._check_variant_name(variant)
        self.level, self.variant_name, self.split = level, variant, split
        self.sandbox_name = resolve_backend(sandbox)
        self.router_kind = router or self.task.router
        self.router_kwargs = dict(router_kwargs or {})
        self.reward_mode = reward_mode
        lim = self.task.limits
        self.max_turns = int(max_turns or lim["max_turns"])
        self.max_customer_days = float(max_customer_days or lim["max_customer_days"])
        self.max_wall_seconds = float(max_wall_seconds or lim["max_wall_seconds"])
        self.render_mode = render_mode
        self.observation_space = make_observation_space()
        self.action_space = make_action_space()
        self._routers: dict[str, Any] = {}
        self._people_specs: dict[str, dict] = {}
        self._reset_texts: dict[tuple, str] = {}
        self.sandbox = None
        self.workspace: Path | None = None
        self.people: People | None = None
        self.variant: Variant | None = None
        self.agent_name = "unknown"
        self._done = True
        self.task.preload()

    @property
    def spec(self) -> EnvSpec | None:
        """The registration spec (set by ``gym.make``); ``nondeterministic`` is True while a
        nondeterministic router is on."""
        return self.__dict__.get("_spec")

    @spec.setter
    def spec(self, value: EnvSpec | None) -> None:
        if value is not None and not self.deterministic and not value.nondeterministic:
            value = dataclasses.replace(value, nondeterministic=True)
        self.__dict__["_spec"] = value

    @property
    def deterministic(self) -> bool:
        """False while a nondeterministic stakeholder router (``llm``) is on: seeded runs replay
        exactly only when this is True."""
        kind = self.router_kind
        if isinstance(kind, str):
            return kind != "llm"
        return bool(getattr(kind, "deterministic", True))

    # --- episode setup ---------------------------------------------------------------------------
    def _check_variant_name(self, name: str) -> None:
        if name in ("random", "sample") or name.startswith(SAMPLE_PREFIX):
            if name != "random" and not self.task.has_sampler:
                raise ValueError(f"task {self.task.id!r} has no sampler.py, so no variant {name!r}")
            return
        if name not in self.task.variants:  # the env also takes random and sample: suggest and list them too
            drawn = ["random"] + (["sample"] if self.task.has_sampler else [])
            hint = did_you_mean(name, [*self.task.variants, *drawn])
            raise ValueError(f"task {self.task.id!r} has no variant {name!r}.{hint} Variants: "
                             f"{', '.join(self.task.variants)}, random (a named one per episode seed)"
                             + (", sample (a drawn one per episode seed), sample:<N>" if self.task.has_sampler else ""))

    def _pick_variant(self, name: str, rng: random.Random) -> Variant:
        if name == "random":
            return self.task.variant(rng.choice(sorted(self.task.variants)))
        if name == "sample":
            return self.task.sample_variant(rng, self.split)
        return self.task.variant(name)

    def _make_people(self, variant: Variant) -> People:
        spec = self._people_specs.get(variant.key)
        if spec is None:
            spec = self._people_specs[variant.key] = self.task.people_spec(variant)
        router = self._routers.get(variant.key)
        if router is None:
            router = self._routers[variant.key] = make_router(self.router_kind, spec["people"], **self.router_kwargs)
        return People(spec, router)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        options = dict(options or {})
        level = options.pop("level", self.level)
        if level not in LEVELS:
            raise ValueError(f"options['level'] must be one of {', '.join(LEVELS)}, got {level!r}")
        variant_name = options.pop("variant", self.variant_name)
        self._check_variant_name(variant_name)
        self.agent_name = options.pop("agent", self.agent_name)
        if options:
            raise ValueError(f"unknown reset option(s): {', '.join(sorted(options))} (known: level, variant, agent)")
        rng = random.Random(int(self.np_random.integers(0, 2 ** 62)))
        self.action_space.seed(int(self.np_random.integers(0, 2 ** 31)))
        self._teardown()
        self.episode_seed = seed
        self.episode_level = level
        self.variant = self._pick_variant(variant_name, rng)
        brief = episode_brief(self.task, level, self.variant)
        self.workspace = wsmod.new_workspace(self.task, self.variant, brief)
        # harness cases: people server for bin/ask, dev services, gateway (fdegym_env.harness.episode)
        self._episode_hook = self.task.start_episode(self)
        self.sandbox = None  # started on the first `run`: most steps never need it
        self.people = self._make_people(self.variant)
        limits = self._limits()
        with open(self.workspace / "TASK.md", "a", encoding="utf-8") as f:
            f.write(limits_in_task_md(self.task, self.variant, limits))
        self._mail_told = self.people.inbox_new()
        self.turn = 0
        self.return_so_far = 0.0
        self.pending_cost = 0.0
        self.submit_note = ""
        self._done = False
        self._started = time.monotonic()
        self.transcript: list[str] = []
        self.result: dict[str, Any] | None = None
        text = self._reset_text(level, limits) + mail_notice(self._mail_told)
        self.transcript.append("== brief ==\n" + text)
        return self._obs(text, True), self._info(None, None)

    def episode_state(self) -> tuple[People, Variant, Path]:
        """The running episode's people, variant and workspace (reset() sets them; close() removes the workspace)."""
        if self.people is None or self.variant is None or self.workspace is None:
            raise RuntimeError("no episode is running; call reset() first")
        return self.people, self.variant, self.workspace

    def _limits(self) -> str:
        people, _, _ = self.episode_state()
        trial = people.trial_terms() if self.task.has_module("trial") else None
        return limits_text(self.max_turns, self.max_customer_days, people.stamp(), trial, self.max_wall_seconds,
                           float(people.clock_cfg.get("wait_cost_per_day", 0.0)), self.task.metric)

    def _new_mail(self, act: Action | None) -> str:
        """Messages that arrived since the agent last heard of them are announced once, whatever the action."""
        n = self.episode_state()[0].inbox_new()
        told, self._mail_told = self._mail_told, n
        if n <= told or (act is not None and act.tool in ("wait", "inbox")):
            return ""
        return f"\n\n[{_count(n, 'new message')} in your inbox: `inbox` reads them]"

    def _countdown(self) -> str:
        """Near the end, each observation says what is left before the system is deployed as it stands."""
        left = []
        turns = self.max_turns - self.turn
        if turns <= TURNS_WARNING:
            left.append(_count(turns, "action"))
        people = self.episode_state()[0]
        if people.has_clock:
            hours = self.max_customer_days * 24 - people.clock.hours
            if hours <= HOURS_WARNING:
                left.append(f"{max(0.0, hours):.0f} hours of customer time")
        if self.max_wall_seconds < NO_WALL_LIMIT:
            real = self.max_wall_seconds - (time.monotonic() - self._started)
            if real <= min(WALL_WARNING_S, self.max_wall_seconds / 6):
                left.append(f"{_real_time(max(0.0, real))} of real time")
        if not left:
            return ""
        return (f"\n\n[{' and '.join(left)} left: then the engagement ends and system/ is deployed as it "
                "stands; `submit` ends it now]")

    def _reset_text(self, level: str, limits: str) -> str:
        """The reset observation. A fresh workspace is the variant's snapshot plus TASK.md, so the
        text is the same every episode of a (level, variant) unless the task's episode hook adds
        files: it is built once per pair (RL loops reset thousands of times)."""
        _, variant, workspace = self.episode_state()
        key = (level, variant.key)
        text = self._reset_texts.get(key) if self._episode_hook is None else None
        if text is None:
            text = "".join(seg for _, seg in reset_segments(self.task, level, variant, workspace, limits))
            if self._episode_hook is None:
                self._reset_texts[key] = text
                while len(self._reset_texts) > 64:
                    self._reset_texts.pop(next(iter(self._reset_texts)))
        return text

    # --- stepping ---------------------------------------------------------------------------------
    def step(self, action: Any) -> tuple[dict, SupportsFloat, bool, bool, dict]:
        if self._done:
            raise RuntimeError("step() called on a finished episode; call reset() first")
        self.turn += 1
        error = None
        cost = 0.0
        contact_info = None
        end_reason = None
        try:
            act = parse_action(action)
        except ActionError as e:
            act, error = None, str(e)
        if wsmod.workspace_lost(self.workspace):
            act, error, end_reason = None, WORKSPACE_LOST, "workspace_lost"
        if act is not None:
            try:  # agent mistakes become observations; a bug in fdegym or a task's code raises
                text, cost, contact_info, end_reason = self._execute(act)
            except (ActionError, wsmod.PathError) as e:
                error, cost, contact_info, end_reason = str(e), 0.0, None, None
            except OSError as e:  # the agent's own workspace state (a file where a folder should be, ...)
                if act.tool not in FILE_TOOLS:
                    raise
                error, cost, contact_info, end_reason = f"{act.tool} failed: {e.strerror or e}", 0.0, None, None
        if end_reason != "workspace_lost" and wsmod.workspace_lost(self.workspace):
            error, end_reason = WORKSPACE_LOST, "workspace_lost"   # gone while this step ran
        if error is not None:
            text = f"Error: {error}"
        if end_reason is None:
            end_reason = self._limit_reached()
        if end_reason is None:
            text += self._new_mail(act) + self._countdown()
        self.transcript.append(f"== turn {self.turn}: {act.to_dict() if act else describe(action)} ==\n{text}")
        reward = -cost if (self.reward_mode == "dense" and cost) else 0.0
        self.pending_cost += cost
        terminated = end_reason is not None
        result = None
        if end_reason is not None:
            final, result = self._finish(end_reason)
            reward += final
        self.return_so_far += reward
        if result is not None:
            result["score"] = self.return_so_far
            text += "\n\n" + result_text(result)
            self.transcript.append(result_text(result))
        info = self._info(act, error, contact_info)
        if self.render_mode == "human":
            print(self.transcript[-1])
        return self._obs(text, error is None), reward, terminated, False, info

    def _execute(self, act: Action) -> tuple[str, float, dict | None, str | None]:
        a = act.args
        people, _, ws = self.episode_state()
        tool = act.tool
        if tool == "list_files":
            return wsmod.list_files(ws, a.get("path", ".")), 0.0, None, None
        if tool == "read_file":
            return wsmod.read_file(ws, a["path"], a.get("offset"), a.get("limit")), 0.0, None, None
        if tool == "write_file":
            return wsmod.write_file(ws, a["path"], a["content"], self._ws_owner()), 0.0, None, None
        if tool == "edit_file":
            return (wsmod.edit_file(ws, a["path"], a["old"], a["new"], bool(a.get("replace_all")), self._ws_owner()),
                    0.0, None, None)
        if tool == "run":
            timeout = min(max(float(a.get("timeout_s", RUN_TIMEOUT_DEFAULT)), 1.0), RUN_TIMEOUT_MAX)
            cost_before = people.contact_cost  # bin/ask inside the command may contact people
            r = self._sandbox().run(a["command"] + "\n", timeout_s=timeout, cap=RUN_SAVE_CAP)
            out = (r.stdout + (("\n[stderr]\n" + r.stderr) if r.stderr.strip() else "")).rstrip()
            status = f"exit code {r.exit_code}"
            if r.timed_out:
                status = f"killed after {timeout:g} s time limit (exit code 124)"
            elif r.killed_for_output:
                status = "stopped: output limit exceeded"
            if len(out) > RUN_OUTPUT_CAP:
                out = self._cut_run_output(a["command"], out, status, r.truncated)
            return f"$ {a['command']}\n{out}\n[{status}]", people.contact_cost - cost_before, None, None
        if tool == "directory":
            lines = []
            for p in people.directory():
                state = (f"away: {p['away']}" if p.get("away") else "reachable" if p["reachable"]
                         else f"NOT reachable ({p['gone']})")
                left = f", {p['questions_left']} questions left" if p["questions_left"] is not None else ""
                lines.append(f"- {p['id']}: {p['name']}, {p['role']} — {p['blurb']} [{state}{left}]")
            now = f"It is {people.stamp()} at the customer.\n" if people.has_clock else ""
            return now + "\n".join(lines), 0.0, None, None
        if tool == "contact":
            if not a["message"].strip():
                raise ActionError("contact needs a non-empty 'message'.")
            res = people.contact(a["to"], a["message"])
            if res.error:
                raise ActionError(res.error)
            info = {"to": res.to, "tags": res.tags, "facts": res.facts, "cost": res.cost}
            stamp = f" ({res.at})" if res.at else ""
            left = f"\n[{res.questions_left} questions left with {res.name}]" if res.questions_left is not None else ""
            return f"{res.name}{stamp}:\n{res.reply}{left}", res.cost, info, None
        if tool == "inbox":
            msgs = people.read_inbox()
            if not msgs:
                return "No messages.", 0.0, None, None
            return "\n\n".join(f"[{'new' if m['new'] else 'read'}] from {m['from']}:\n{m['text']}" for m in msgs), 0.0, None, None
        if tool == "wait":
            if not people.has_clock:
                raise ActionError("This engagement keeps no calendar, so there is nothing to wait for.")
            hours = a["hours"]
            if hours <= 0:
                raise ActionError(f"wait: 'hours' must be more than 0, got {hours:g}; "
                                  'e.g. {"tool": "wait", "hours": 24} lets a day pass.')
            capped = hours > WAIT_MAX_HOURS
            cost = people.wait(min(hours, WAIT_MAX_HOURS))
            new = people.inbox_new()
            return (f"It is now {people.stamp()}."
                    + (f" (One wait is at most {WAIT_MAX_HOURS:g} hours: waited {WAIT_MAX_HOURS:g}, not {hours:g}.)"
                       if capped else "")
                    + (f" {new} new message(s) in your inbox." if new else "")), cost, None, None
        if tool == "trial":
            if not self.task.has_module("trial"):
                raise ActionError("This engagement has no trial environment.")
            began = people.stamp()
            day, feedback, cost = people.trial(self._run_trial_day)
            terms = people.trial_terms()
            if day > terms["max_runs"]:
                head = f"No trial day: all {terms['max_runs']} have been used"
            else:
                left = terms["max_runs"] - day
                head = (f"Trial day {day} of {terms['max_runs']}{', from ' + began if began else ''} (cost {cost:g} points; "
                        f"{_count(left, 'trial day')} left)")
            return f"{head}:\n{feedback}", cost, {"to": "trial", "day": day, "cost": cost}, None
        if tool == "submit":
            self.submit_note = a.get("note", "")
            return "Submitted. system/ is deployed to production as it is.", 0.0, None, "submitted"
        raise ActionError(f"unhandled tool {tool!r}")

    def _cut_run_output(self, command: str, out: str, status: str, cut_in_sandbox: bool) -> str:
        """Head and tail of a long ``run`` output; the whole of it is saved in the workspace
        (``.fdegym/run/turn-NNNN.out``) and the marker in the middle says where."""
        saved = f"$ {command}\n{out}\n[{status}]\n"
        rel = wsmod.save_run_output(self.episode_state()[2], self.turn, saved, self._ws_owner())
        half = RUN_OUTPUT_CAP // 2 - 200
        head, tail = out[:half], out[-half:]
        nl = head.rfind("\n")
        head = head[:nl + 1] if nl > half - 400 else head
        nl = tail.find("\n")
        tail = tail[nl + 1:] if 0 <= nl < 400 else tail
        cut = len(out) - len(head) - len(tail)
        if rel is None:
            where = "it could not be saved (.fdegym/run/ is not a folder of the workspace)"
        else:
            what = "the whole output" if not cut_in_sandbox else "the output kept (its first and last 2 MB)"
            # read_file pages by line, so say which line of the saved file the cut part starts on
            first = len((saved[:len(f"$ {command}") + 1 + len(head)] + "x").splitlines())
            where = (f"{what} ({len(out):,} characters) is in {rel}: the cut part starts at line "
                     f'{first:,}; read it with read_file(path="{rel}", offset={first}) (offset and limit count lines)')
        return f"{head.rstrip(chr(10))}\n[... {cut:,} characters cut; {where} ...]\n{tail}"

    def _ws_owner(self) -> int | None:
        """The host uid files created in the workspace must have: the sandbox's, once it runs."""
        return getattr(self.sandbox, "uid", None) if self.sandbox is not None else None

    def _sandbox(self):
        if self.sandbox is None:
            self.sandbox = make_sandbox(self.sandbox_name)
            self.sandbox.start(self.workspace, allow_ports=tuple(getattr(self._episode_hook, "ports", ())))
        return self.sandbox

    def _run_trial_day(self, day: int) -> dict[str, Any]:
        _, variant, workspace = self.episode_state()
        return run_trial(self.task, variant, workspace, day, self.sandbox_name)

    def _limit_reached(self) -> str | None:
        if self.turn >= self.max_turns:
            return "max_turns"
        people = self.episode_state()[0]
        if people.has_clock and people.clock.hours >= self.max_customer_days * 24:
            return "max_customer_days"
        if time.monotonic() - self._started >= self.max_wall_seconds:
            return "max_wall_seconds"
        return None

    # --- grading ----------------------------------------------------------------------------------
    def _finish(self, end_reason: str) -> tuple[float, dict[str, Any]]:
        """Grade the workspace as it stands; returns the final reward increment and the result (also
        kept as ``self.result``)."""
        people, variant, workspace = self.episode_state()
        anc = anchors(self.task, variant, self.sandbox_name)
        if end_reason == "workspace_lost":   # nothing left to deploy: the system as the customer has it
            outcome = GradeOutcome(anc["kpi_baseline"], [], "the workspace was lost; graded as found", {},
                                   resolve_backend(self.sandbox_name))
        else:   # an InfrastructureError (ours, not the agent's) leaves the episode open: the step can be retried
            outcome = grade_system(self.task, variant, workspace, self.sandbox_name)
        self._done = True
        contact_cost = people.contact_cost
        s = score(outcome.kpi, anc["kpi_baseline"], anc["kpi_reference"], outcome.incidents, contact_cost)
        disc = people.discovery(self.task.truth.get("key_facts", []))
        self.result = result = {
            "task": self.task.id, "variant": variant.name, "level": self.episode_level,
            "seed": self.episode_seed, "agent": self.agent_name,
            "score": None, "uplift": s["uplift"], "uplift_bounded": s["uplift_bounded"],
            "uplift_net": s["uplift_net"], "contact_cost": float(round(contact_cost, 6)),
            "cost_parts": people.cost_parts(),
            "incidents": outcome.incidents, "resolved": s["resolved"], "end_reason": end_reason,
            "turns": self.turn, "key_fact_coverage": disc["key_fact_coverage"],
            "facts_obtained": disc["facts_obtained"], "questions_asked": disc["questions_asked"],
            "asked_by_person": disc["asked_by_person"], "off_limits_contacts": disc["off_limits_contacts"],
            "kpi": outcome.kpi, "kpi_baseline": anc["kpi_baseline"], "kpi_reference": anc["kpi_reference"],
            "metric": self.task.metric, "summary": outcome.summary, "isolation": outcome.isolation,
            "customer_hours": round(people.clock.hours, 4), "note": self.submit_note,
        }
        if self.reward_mode == "dense":
            return s["final_uplift"], result
        return s["final_uplift"] - self.pending_cost, result

    # --- observation/info ---------------------------------------------------------------------------
    def _obs(self, text: str, valid: bool) -> dict:
        if not text.isascii():   # a lone surrogate (from a file name or output) shown escaped: UTF-8 can't hold it
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                text = text.encode("utf-8", "backslashreplace").decode("utf-8")
        if len(text) > MAX_OBS_CHARS:
            half = MAX_OBS_CHARS // 2 - 100
            text = text[:half] + f"\n[... {len(text) - 2 * half} characters cut ...]\n" + text[-half:]
        p = self.people
        return {"text": text,
                "turn": np.array([self.turn], dtype=np.int64),
                "hours": np.array([p.clock.hours if p else 0.0], dtype=np.float32),
                "inbox_new": np.array([p.inbox_new() if p else 0], dtype=np.int64),
                "valid": int(valid)}

    def _info(self, act: Action | None, error: str | None, contact: dict | None = None) -> dict[str, Any]:
        p = self.people
        info: dict[str, Any] = {
            "task": self.task.id, "variant": self.variant.name if self.variant else None,
            "level": getattr(self, "episode_level", self.level), "turn": self.turn,
            "tool": act.tool if act else None, "last_action_error": error,
            "customer_time": p.stamp() if p else None,
            "contact_cost": float(round(p.contact_cost, 6)) if p else 0.0,
        }
        if contact is not None:
            info["contact"] = contact
        if self._done and self.result is not None and p is not None:   # a result is graded with the people
            info["result"] = dict(self.result)
            info["ledger"] = [dict(r) for r in p.ledger]
        return info

    # --- rendering and cleanup ----------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return "\n\n".join(getattr(self, "transcript", []))
        if self.render_mode == "human":
            print(self.transcript[-1] if getattr(self, "transcript", None) else "")
        return None

    def score_now(self) -> dict[str, Any]:
        """Grade the workspace as it stands without ending the episode (for cut-off rollouts)."""
        people, variant, workspace = self.episode_state()
        outcome = grade_system(self.task, variant, workspace, self.sandbox_name)
        anc = anchors(self.task, variant, self.sandbox_name)
        s = score(outcome.kpi, anc["kpi_baseline"], anc["kpi_reference"], outcome.incidents, people.contact_cost)
        return {"score": s["score"], "uplift": s["uplift"], "incidents": outcome.incidents, "kpi": outcome.kpi}

    def _teardown(self) -> None:
        hook = getattr(self, "_episode_hook", None)
        if hook is not None:
            hook.close()
            self._episode_hook = None
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None
        if self.workspace is not None:
            wsmod.remove_workspace(self.workspace)
            self.workspace = None

    def close(self) -> None:
        self._teardown()
        self._done = True

    def __del__(self):
        try:
            self._teardown()
        except Exception:
            pass


def make_observation_space() -> spaces.Dict:
    """The observation space of an fdegym episode (see the module docstring), local or remote."""
    return spaces.Dict({
        "text": UnicodeText(max_length=MAX_OBS_CHARS),
        "turn": spaces.Box(0, np.iinfo(np.int32).max, shape=(1,), dtype=np.int64),
        "hours": spaces.Box(0.0, 1e7, shape=(1,), dtype=np.float32),
        "inbox_new": spaces.Box(0, np.iinfo(np.int32).max, shape=(1,), dtype=np.int64),
        "valid": spaces.Discrete(2),
    })


def unwrap_fdegym(env: gym.Env) -> FDEGymEnv:
    """The :class:`FDEGymEnv` under ``env``'s wrappers; a TypeError names what is there instead."""
    core = env.unwrapped
    if not isinstance(core, FDEGymEnv):
        raise TypeError(f"expected an FDEGymEnv under the wrappers, got {type(core).__name__}")
    return core


def result_json(result: dict[str, Any]) -> str:
    return json.dumps(result, sort_keys=True, default=str)
