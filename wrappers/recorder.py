"""Record episodes to JSONL, replay them, and render them for a person.

A recording has one JSON object per line:

* ``{"type": "reset", "episode", "task", "task_path", "variant", "level", "seed", "agent", "env": {...},
  "observation"}`` — everything needed to rebuild the same episode;
* ``{"type": "step", "turn", "action", "observation", "reward", "terminated", "truncated", "info"}`` per step;
* ``{"type": "result", "result", "return", "annotations"}`` when the episode ends;
* ``{"type": "annotation", ...}`` for facts added after the end (e.g. an LLM agent's token usage).

:func:`replay` rebuilds the env from the reset line, re-executes every recorded action and checks
each reward and the final score (``fdegym replay FILE``). :func:`render_recording` makes a readable
transcript (``fdegym show FILE``).

Example:
    >>> env = Recorder(FDEGymEnv(task="tests/fixtures/tiny_task"), "/tmp/ep.jsonl")  # doctest: +SKIP
    >>> run_episode(env, make_agent("reference"), seed=0); env.close()             # doctest: +SKIP
    >>> replay("/tmp/ep.jsonl").ok                                                  # doctest: +SKIP
    True
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from fdegym_env.core.actions import Action, describe
from fdegym_env.core.env import FDEGymEnv, unwrap_fdegym

REWARD_TOL = 1e-9
MAX_DEPTH = 100          # deeper values are recorded by a short repr (an agent may send "[[[[..." of any depth)
MAX_INT_BITS = 4000      # larger ints too: Python will not print more than 4300 digits


def jsonable(x: Any, _depth: int = 0) -> Any:
    """A JSON-safe copy of ``x`` (numpy values become Python values, unknown objects their repr).
    Never raises: values too deep, too big or unreadable become ``{"__repr__": ...}``."""
    if _depth > MAX_DEPTH:
        return {"__repr__": describe(x)}
    try:
        d = _depth + 1
        if isinstance(x, Action):
            return jsonable(x.to_dict(), d)
        cls = type(x)
        if dataclasses.is_dataclass(x) and not isinstance(x, type) and hasattr(cls, "tool"):
            fields = {f.name: getattr(x, f.name, None) for f in dataclasses.fields(x)}   # no deep copy
            return {"tool": cls.tool, **{k: jsonable(v, d) for k, v in fields.items() if v is not None}}
        if isinstance(x, dict):
            return {str(k): jsonable(v, d) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [jsonable(v, d) for v in x]
        if isinstance(x, np.ndarray):
            return jsonable(x.tolist(), d) if x.dtype != object else [jsonable(v, d) for v in x.reshape(-1)]
        if isinstance(x, np.generic):
            return jsonable(x.item(), d)
        if isinstance(x, float) and not math.isfinite(x):
            return str(x)
        if isinstance(x, int) and not isinstance(x, bool) and x.bit_length() > MAX_INT_BITS:
            return {"__repr__": f"<int of {x.bit_length()} bits>"}
        if x is None or isinstance(x, (str, int, float, bool)):
            return x
        if isinstance(x, Path):
            return str(x)
    except Exception:   # RecursionError included: a value that cannot be walked is recorded by its repr
        pass
    return {"__repr__": describe(x)}


def json_line(rec: Any) -> str:
    """One JSON line for ``rec``: readable UTF-8 where it can be, ``\\uXXXX`` escapes where the text
    holds lone surrogates (which UTF-8 cannot hold; ``json.loads`` reads them back the same)."""
    line = json.dumps(jsonable(rec), ensure_ascii=False, sort_keys=True)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(jsonable(rec), ensure_ascii=True, sort_keys=True)
    return line


def _obs_record(obs: dict) -> dict[str, Any]:
    return {"text": obs["text"], "turn": int(np.asarray(obs["turn"]).reshape(-1)[0]),
            "hours": float(np.asarray(obs["hours"]).reshape(-1)[0]),
            "inbox_new": int(np.asarray(obs["inbox_new"]).reshape(-1)[0]), "valid": int(obs["valid"])}


class Recorder(gym.Wrapper):
    """Write every reset, step and result of the wrapped env to a JSONL file.

    Args:
        env: an FDEGym env (possibly wrapped). Put the Recorder *below* chat/text wrappers so it
            records the structured actions the env executed.
        path: the JSONL file; several episodes go to one file, one ``reset`` line each.
        mode: ``"w"`` (start a new file, default) or ``"a"`` (append).
    """

    def __init__(self, env: gym.Env, path: str | Path, mode: str = "w"):
        if mode not in ("w", "a"):
            raise ValueError(f"mode must be 'w' or 'a', got {mode!r}")
        super().__init__(env)
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = open(self.path, mode, encoding="utf-8")
        self.episode = -1
        self._return = 0.0
        self._ended = False
        self._annotations: dict[str, Any] = {}

    def _write(self, rec: dict[str, Any]) -> None:
        """Write one line; never raises over what the agent sent (the step already ran and was charged)."""
        try:
            line = json_line(rec)
        except (ValueError, TypeError, RecursionError):   # last resort: every value by its short repr
            line = json_line({k: v if isinstance(v, (int, float, bool, type(None))) else {"__repr__": describe(v)}
                              for k, v in rec.items()})
        self._fh.write(line + "\n")
        self._fh.flush()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        u = unwrap_fdegym(self.env)
        variant = u.episode_state()[1]
        self.episode += 1
        self._return, self._ended, self._annotations = 0.0, False, {}
        router = u.router_kind if isinstance(u.router_kind, str) else None
        self._write({
            "type": "reset", "episode": self.episode, "task": u.task.id, "task_path": str(u.task.path),
            "task_hash": u.task.content_hash, "variant": variant.name, "level": u.episode_level,
            "seed": seed, "options": dict(options or {}), "agent": u.agent_name,
            "env": {"sandbox": u.sandbox_name, "reward_mode": u.reward_mode, "router": router,
                    "router_kwargs": u.router_kwargs if router else None,
                    "custom_router": None if router else repr(u.router_kind),
                    "max_turns": u.max_turns, "max_customer_days": u.max_customer_days,
                    "max_wall_seconds": u.max_wall_seconds, "split": u.split},
            "fdegym_version": _version(), "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "observation": _obs_record(obs),
        })
        return obs, info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._return += float(reward)
        slim = {k: v for k, v in info.items() if k not in ("result", "ledger")}
        self._write({"type": "step", "episode": self.episode, "turn": info.get("turn"), "action": action,
                     "observation": _obs_record(obs), "reward": float(reward), "terminated": bool(terminated),
                     "truncated": bool(truncated), "info": slim})
        if (terminated or truncated) and not self._ended:
            self._ended = True
            self._write({"type": "result", "episode": self.episode, "result": info.get("result"),
                         "ledger": info.get("ledger"), "return": self._return,
                         "annotations": dict(self._annotations)})
        return obs, reward, terminated, truncated, info

    def annotate(self, **fields: Any) -> None:
        """Attach facts to the current episode (latest value per key wins).

        Before the episode ends they go into its ``result`` line; after, into an ``annotation`` line.
        An :class:`~fdegym_env.agents.llm.LLMAgent` uses this for its token usage and cost.
        """
        self._annotations.update(fields)
        if self._ended:
            self._write({"type": "annotation", "episode": self.episode, **fields})

    def close(self) -> None:
        try:
            if not self._fh.closed:
                self._fh.close()
        finally:
            super().close()


def _version() -> str:
    try:
        from fdegym_env import __version__
        return __version__
    except Exception:  # pragma: no cover
        return "unknown"


# --- reading -----------------------------------------------------------------------------------------
@dataclass
class Episode:
    """One recorded episode."""

    header: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    recorded_return: float | None = None
    annotations: dict[str, Any] = field(default_factory=dict)


def load_recording(path: str | Path) -> list[Episode]:
    """Parse a recording into episodes; a malformed file raises ``ValueError`` naming the line."""
    episodes: list[Episode] = []
    if not Path(path).is_file():
        raise ValueError(f"no recording at {path} ({'a folder' if Path(path).is_dir() else 'no such file'}); "
                         "expected a JSONL file written by `fdegym run --record FILE` or the Recorder wrapper")
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{n}: not JSON ({e.msg}); expected one JSON object per line") from None
            kind = rec.get("type")
            if kind == "reset":
                episodes.append(Episode(header=rec))
                continue
            if not episodes:
                what = f"a {kind!r} line" if kind is not None else 'a line without a "type"'
                raise ValueError(f"{path}:{n}: {what} before any 'reset' line; is this a fdegym recording?")
            ep = episodes[-1]
            if kind == "step":
                ep.steps.append(rec)
            elif kind == "result":
                ep.result, ep.recorded_return = rec.get("result"), rec.get("return")
                ep.annotations.update(rec.get("annotations") or {})
            elif kind == "annotation":
                ep.annotations.update({k: v for k, v in rec.items() if k not in ("type", "episode")})
            else:
                raise ValueError(f"{path}:{n}: unknown line type {kind!r} (expected reset, step, result, annotation)")
    if not episodes:
        raise ValueError(f"{path}: no episodes (no 'reset' line)")
    return episodes


# --- replay ------------------------------------------------------------------------------------------
@dataclass
class ReplayReport:
    """What :func:`replay` found. ``ok`` is true when every reward and the score reproduced."""

    ok: bool
    steps: int
    recorded_score: float | None
    replayed_score: float | None
    mismatches: list[str]
    observation_diffs: int
    result: dict[str, Any] | None

    def summary(self) -> str:
        head = "REPRODUCED" if self.ok else "DIFFERENT"
        rs = "-" if self.recorded_score is None else f"{self.recorded_score:.6f}"
        ps = "-" if self.replayed_score is None else f"{self.replayed_score:.6f}"
        lines = [f"{head}: {self.steps} steps replayed; score recorded {rs}, replayed {ps}"]
        lines += [f"  - {m}" for m in self.mismatches[:20]]
        if len(self.mismatches) > 20:
            lines.append(f"  ... and {len(self.mismatches) - 20} more")
        if self.observation_diffs:
            lines.append(f"  note: {self.observation_diffs} observation text(s) differ (rewards are what is checked)")
        return "\n".join(lines)


def _make_env(header: dict[str, Any], sandbox: str | None) -> FDEGymEnv:
    from fdegym_env.core.registry import list_tasks, load_task
    task_ref = header["task"] if header["task"] in list_tasks() else header.get("task_path") or header["task"]
    task = load_task(task_ref)
    e = header.get("env") or {}
    return FDEGymEnv(task=task, level=header["level"], variant=header["variant"], split=e.get("split", "train"),
                     sandbox=sandbox or e.get("sandbox") or "auto", router=e.get("router"),
                     router_kwargs=e.get("router_kwargs"), reward_mode=e.get("reward_mode", "dense"),
                     max_turns=e.get("max_turns"), max_customer_days=e.get("max_customer_days"),
                     max_wall_seconds=e.get("max_wall_seconds"))


def replay(path: str | Path, episode: int = 0, sandbox: str | None = None) -> ReplayReport:
    """Re-execute a recorded episode against the same task, variant, level and seed.

    Args:
        path: a recording written by :class:`Recorder`.
        episode: which episode of the file (0-based).
        sandbox: override the recorded sandbox backend.

    Returns:
        A :class:`ReplayReport`; ``ok`` when every step's reward (within 1e-9), every end flag and
        the final score reproduce.
    """
    episodes = load_recording(path)
    if not 0 <= episode < len(episodes):
        raise ValueError(f"{path} holds {len(episodes)} episode(s); got episode={episode}")
    ep = episodes[episode]
    h = ep.header
    mismatches: list[str] = []
    if (h.get("env") or {}).get("custom_router"):
        mismatches.append(f"recorded with a custom router object {h['env']['custom_router']}; replayed with the "
                          "task's default router")
    env = _make_env(h, sandbox)
    obs_diffs = 0
    info: dict[str, Any] = {}
    done = False
    n = 0
    try:
        opts = {"agent": h.get("agent") or "replay"}
        obs, info = env.reset(seed=h.get("seed"), options=opts)
        if h.get("task_hash") and h["task_hash"] != env.task.content_hash:
            mismatches.append(f"the task's files changed since recording (hash {h['task_hash']} -> "
                              f"{env.task.content_hash})")
        if obs["text"] != h["observation"]["text"]:
            obs_diffs += 1
        for rec in ep.steps:
            if done:
                mismatches.append(f"turn {rec.get('turn')}: recorded after the replayed episode had already ended")
                break
            n += 1
            obs, reward, term, trunc, info = env.step(rec["action"])
            if abs(float(reward) - float(rec["reward"])) > REWARD_TOL:
                mismatches.append(f"turn {rec.get('turn')}: reward {float(reward):.9g}, recorded {rec['reward']:.9g}")
            if bool(term) != bool(rec["terminated"]) or bool(trunc) != bool(rec["truncated"]):
                mismatches.append(f"turn {rec.get('turn')}: terminated/truncated {term}/{trunc}, recorded "
                                  f"{rec['terminated']}/{rec['truncated']}")
            if obs["text"] != rec["observation"]["text"]:
                obs_diffs += 1
            done = bool(term or trunc)
    finally:
        env.close()
    replayed = info.get("result") if done else None
    rec_score = (ep.result or {}).get("score")
    new_score = (replayed or {}).get("score")
    if ep.result is None:
        mismatches.append("the recording has no result line (the episode did not end while recording)")
    elif replayed is None:
        mismatches.append("the replayed episode did not end")
    elif rec_score is None or new_score is None or abs(float(rec_score) - float(new_score)) > REWARD_TOL:
        mismatches.append(f"score {new_score}, recorded {rec_score}")
    return ReplayReport(ok=not mismatches, steps=n, recorded_score=rec_score, replayed_score=new_score,
                        mismatches=mismatches, observation_diffs=obs_diffs, result=replayed)


# --- rendering ---------------------------------------------------------------------------------------
def _short(v: Any, n: int) -> str:
    s = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    s = s.replace("\n", "⏎ ")
    return s if len(s) <= n else s[:n - 1] + "…"


def _action_line(action: Any, width: int) -> str:
    if isinstance(action, dict) and isinstance(action.get("tool"), str):
        args = ", ".join(f"{k}={_short(v, 60)}" for k, v in action.items() if k != "tool")
        return f"{action['tool']}({args})"
    if isinstance(action, dict) and "name" in action:
        arguments = action.get("arguments")
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except json.JSONDecodeError:
                return f"{action['name']}(<malformed arguments: {_short(arguments, width)}>)"
        if isinstance(arguments, dict):
            return _action_line({"tool": action["name"], **arguments}, width)
        return f"{action['name']}({_short(arguments, width)})"
    if isinstance(action, dict) and action.get("tool") is None and "unparsed_text" in action:
        return f"(no tool call) {_short(action['unparsed_text'], width)}"
    return _short(action, width)


def _indent(text: str, max_chars: int | None) -> str:
    if max_chars is not None and len(text) > max_chars:
        text = text[:max_chars] + f"\n[... {len(text) - max_chars} more characters; --full shows everything]"
    return "\n".join("    " + ln for ln in text.splitlines())


def render_recording(path: str | Path, max_chars: int | None = 1500) -> str:
    """A transcript of every episode in a recording, for a person to read.

    Args:
        path: the JSONL recording.
        max_chars: clip each observation to this many characters (``None``: everything).
    """
    out = []
    for k, ep in enumerate(load_recording(path)):
        h = ep.header
        e = h.get("env") or {}
        out.append(f"=== episode {k}: {h['task']} [variant {h['variant']}, level {h['level']}, seed {h.get('seed')}] "
                   f"agent {h.get('agent')} ===")
        out.append(f"recorded {h.get('created')} with fdegym {h.get('fdegym_version')}; sandbox {e.get('sandbox')}, "
                   f"reward {e.get('reward_mode')}, limits {e.get('max_turns')} turns / {e.get('max_customer_days')} "
                   f"customer days")
        out.append("--- brief ---")
        out.append(_indent(h["observation"]["text"], max_chars))
        total = 0.0
        for rec in ep.steps:
            total += rec["reward"]
            info = rec.get("info") or {}
            flag = "  [error]" if info.get("last_action_error") else ""
            cost = f"  reward {rec['reward']:+.3f}" if rec["reward"] else ""
            when = f"  @ {info['customer_time']}" if info.get("customer_time") else ""
            out.append(f"--- turn {rec.get('turn')}: {_action_line(rec['action'], 100)}{flag}{cost}{when}")
            out.append(_indent(rec["observation"]["text"], max_chars))
        if ep.result:
            r = ep.result
            out.append("--- result ---")
            out.append(f"score {r.get('score'):.3f}  uplift {r.get('uplift'):.3f}  contact cost "
                       f"{r.get('contact_cost'):.3f}  resolved {'yes' if r.get('resolved') else 'no'}  "
                       f"ended: {r.get('end_reason')}  incidents: {'; '.join(r.get('incidents') or []) or 'none'}")
            out.append(f"return {total:.6f} (equals the score)")
        else:
            out.append("--- (no result: the recording stops before the episode ended) ---")
        usage = ep.annotations.get("usage")
        if usage:
            usd = usage.get("usd")
            out.append(f"model {usage.get('model')}: {usage.get('model_calls')} calls, {usage.get('prompt_tokens')} "
                       f"prompt + {usage.get('completion_tokens')} completion tokens, "
                       f"{'$%.4f' % usd if usd is not None else 'cost unknown'}, stop: {usage.get('stop_reason')}")
        out.append("")
    return "\n".join(out)
