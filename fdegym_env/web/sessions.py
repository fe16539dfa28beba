"""Episodes the workbench runs for people: one env per browser session, every action recorded.

A :class:`WorkSession` wraps one :class:`~fdegym_env.core.env.FDEGymEnv` in a
:class:`~fdegym_env.wrappers.Recorder`, so an episode worked in the browser is an ordinary
recording that ``fdegym replay`` re-executes. All state a page shows is derived from the env and
what it returned; nothing is graded or revealed outside the env's own actions, except the verdict
after the episode has ended.

Example:
    >>> store = SessionStore(runs_dir="/tmp/fdegym-runs")                  # doctest: +SKIP
    >>> ws = store.start("browser-1", "news_incident", level="L3", variant="base", seed=0)  # doctest: +SKIP
    >>> ws.act({"tool": "read_file", "path": "TASK.md"})["valid"]          # doctest: +SKIP
    True
"""

from __future__ import annotations

import datetime as dt
import json
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from fdegym_env.core.env import NO_WALL_LIMIT, WAIT_MAX_HOURS
from fdegym_env.core.errors import InfrastructureError

MAX_EPISODES = 16            # open episodes across all browser sessions; the oldest idle one is closed first
PERSON_WALL_SECONDS = NO_WALL_LIMIT   # a person thinks at their own pace: no agent wall-clock limit
EVICT_IDLE_SECONDS = 4 * 3600.0   # an open episode leaves memory only after this long idle (it stays resumable)
TURNS_WARNING = 10           # the work page warns when this many turns (or customer days, in hours: 48) are left
_FILE_LINE = re.compile(r"^(\S.*?)\s+([\d,]+) B$")


@dataclass
class TimelineEntry:
    """One step as the pages show it."""

    turn: int
    action: dict[str, Any]
    text: str
    reward: float
    valid: bool
    customer_time: str | None
    cost_so_far: float


@dataclass
class WorkSession:
    """One episode worked through the browser (see the module docstring)."""

    id: str
    owner: str
    env: Any                                  # Recorder(FDEGymEnv)
    recording: Path
    brief: str
    lock: threading.Lock = field(default_factory=threading.Lock)
    timeline: list[TimelineEntry] = field(default_factory=list)
    chats: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    opened: set[str] = field(default_factory=set)   # files read through read_file this episode
    inbox: list[dict[str, str]] = field(default_factory=list)   # every inbox read, kept as a thread
    result: dict[str, Any] | None = None
    ledger: list[dict[str, Any]] = field(default_factory=list)
    last_used: float = field(default_factory=time.monotonic)
    return_so_far: float = 0.0
    mode: str = "exam"                        # exam: what an agent sees; practice: running cost, hints
    start_form: dict[str, Any] = field(default_factory=dict)   # task, level, variant, seed as chosen (retry)
    hints_used: list[dict[str, Any]] = field(default_factory=list)
    meta_path: Path | None = None
    diffs: dict[str, str] = field(default_factory=dict)   # after the end: yours and the reference's, vs the world

    def hint(self) -> dict[str, Any]:
        """The next rung of the task's hint ladder (practice only); recorded with the episode."""
        import yaml
        with self.lock:
            if self.mode != "practice":
                raise PermissionError("hints are for practice mode; this episode is an exam (what an agent sees)")
            if self.done:
                raise PermissionError("the episode has ended")
            path = Path(self.core.task.path) / "hints.yaml"
            ladder = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("hints", []) if path.is_file() else []
            if len(self.hints_used) >= len(ladder):
                raise PermissionError(f"no more hints: all {len(ladder)} are shown")
            rung = ladder[len(self.hints_used)]
            used = {"rung": str(rung["rung"]), "text": str(rung["text"]), "turn": len(self.timeline)}
            self.hints_used.append(used)
            if hasattr(self.env, "annotate"):
                self.env.annotate(hints=list(self.hints_used), mode=self.mode)
            if self.meta_path is not None and self.meta_path.is_file():
                meta = json.loads(self.meta_path.read_text(encoding="utf-8"))
                meta["hints"] = self.hints_used
                self.meta_path.write_text(json.dumps(meta), encoding="utf-8")
            return {**used, "left": len(ladder) - len(self.hints_used)}

    @property
    def core(self):
        return self.env.unwrapped

    @property
    def done(self) -> bool:
        return self.result is not None

    # --- acting -----------------------------------------------------------------------------------
    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """Execute one action through the env; returns what the page needs to update."""
        with self.lock:
            self.last_used = time.monotonic()
            if self.done:
                return {"text": "This episode has ended; start a new one from the catalog.", "valid": False,
                        "error": "episode ended", "reward": 0.0, "terminated": True, **self.status()}
            try:
                obs, reward, terminated, truncated, info = self.env.step(action)
            except InfrastructureError as e:   # ours, not the player's: the episode stays open for a retry
                return {"text": f"fdegym could not finish this action: {e}", "valid": False,
                        "error": "infrastructure error (not the delivery's fault): send the action again",
                        "reward": 0.0, "terminated": False, **self.status()}
            self.return_so_far += float(reward)
            text = obs["text"]
            valid = bool(obs["valid"])
            tool = action.get("tool") or action.get("name")
            if valid and tool == "read_file":
                self.opened.add(str(action.get("path", "")).strip("/"))
            if valid and tool == "inbox":
                self.inbox.append({"at": info.get("customer_time") or "", "text": text})
            if valid and tool == "contact":
                self.chats.setdefault(str(action["to"]), []).append(
                    {"from": "you", "text": str(action["message"]), "at": info.get("customer_time") or ""})
                self.chats[str(action["to"])].append({"from": "them", "text": text, "at": info.get("customer_time") or ""})
            self.timeline.append(TimelineEntry(
                turn=int(info.get("turn") or len(self.timeline) + 1), action=dict(action), text=text,
                reward=float(reward), valid=valid, customer_time=info.get("customer_time"),
                cost_so_far=float(info.get("contact_cost") or 0.0)))
            if terminated or truncated:
                self.result = dict(info.get("result") or {})
                self.ledger = list(info.get("ledger") or [])
                try:
                    from fdegym_env.web.teach import diffs
                    self.diffs = diffs(self.core.task, self.core.variant, self.core.workspace)
                except Exception as e:       # a diff that cannot be made must not lose the verdict
                    self.diffs = {"yours": f"(no diff: {type(e).__name__}: {e})", "reference": ""}
                self.env.close()
            return {"text": text, "valid": valid, "error": info.get("last_action_error"), "reward": float(reward),
                    "terminated": bool(terminated or truncated), **self.status()}

    # --- what the pages show ----------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        core = self.core
        people = core.people
        practice = self.mode == "practice"
        hours = float(people.clock.hours) if people is not None else 0.0
        has_clock = bool(people is not None and people.has_clock)
        max_hours = float(core.max_customer_days) * 24
        turns_left = max(0, int(core.max_turns) - len(self.timeline))
        warnings = []
        if not self.done and turns_left <= TURNS_WARNING:
            warnings.append(f"{turns_left} turn(s) left: at 0 the system is deployed as it stands")
        if not self.done and has_clock and max_hours - hours <= 48:
            warnings.append(f"{max(0.0, max_hours - hours):g} customer hour(s) left in the engagement")
        trial_hours = None                    # customer hours one trial day takes (the page asks before the last)
        if has_clock and core.task.has_module("trial"):
            trial_hours = float(people.trial_terms().get("advance_hours") or 0.0) or None
        return {"turn": len(self.timeline), "max_turns": core.max_turns, "turns_left": turns_left,
                "trial_hours": trial_hours,
                "max_hours": max_hours if has_clock else None,
                "hours_left": round(max(0.0, max_hours - hours), 2) if has_clock else None,
                "wait_max_hours": WAIT_MAX_HOURS, "warnings": warnings,
                "customer_time": people.stamp() if people is not None else None,
                "hours": round(float(people.clock.hours), 2) if people is not None else 0.0,
                "contact_cost": (round(float(people.contact_cost), 4) if people is not None else 0.0) if practice else None,
                "inbox_new": int(people.inbox_new()) if people is not None and not self.done else 0,
                "done": self.done, "return": round(self.return_so_far, 6) if practice else None, "mode": self.mode}

    def files(self) -> list[dict[str, Any]]:
        """The workspace tree (paths and sizes). The reset observation already lists it, and it only
        changes through the person's own actions, so showing it costs no turn."""
        ws = self.core.workspace
        if ws is None:
            return []
        from fdegym_env.core.workspace import list_files
        out = []
        for line in list_files(ws, ".").splitlines():
            m = _FILE_LINE.match(line)
            if m:
                out.append({"path": m.group(1), "size": int(m.group(2).replace(",", ""))})
        return out

    def raw_file(self, path: str) -> str:
        """A file's full text for the editor; only files already read with ``read_file`` this episode."""
        from fdegym_env.core.workspace import resolve
        rel = path.strip("/")
        if rel not in self.opened:
            raise PermissionError(f"read {rel!r} first (the read_file action) before editing it")
        target = resolve(self.core.workspace, rel)
        return target.read_text(encoding="utf-8", errors="replace")

    def directory(self) -> list[dict[str, Any]]:
        """Who can be contacted, once the person has asked for the directory (an ordinary action)."""
        if not any(e.action.get("tool") == "directory" and e.valid for e in self.timeline):
            return []
        return [dict(p) for p in self.core.people.directory()]

    def verdict(self) -> dict[str, Any]:
        """The graded result with contact cost by person and the key facts found (after the end only)."""
        if not self.done:
            raise RuntimeError("the episode has not ended")
        r = self.result or {}
        by_person: dict[str, float] = {}
        for rec in self.ledger:
            if rec.get("cost"):
                by_person[rec["to"]] = round(by_person.get(rec["to"], 0.0) + float(rec["cost"]), 6)
        truth = self.core.task.truth or {}
        texts = truth.get("facts") or {}
        found = set(r.get("facts_obtained") or [])
        hidden = [v for v in self.core.task.variants if v != "base"]
        from fdegym_env.web.teach import explain, learnt_from, system_failed
        commands = [str(e.action.get("command", "")) for e in self.timeline if e.valid and e.action.get("tool") == "run"]
        facts = []
        for f in truth.get("key_facts") or []:      # from people (the graded discovery), or a document the truth names
            doc = None if f in found else learnt_from(str(texts.get(f, "")), self.opened, commands)
            facts.append({"id": f, "found": f in found or doc is not None, "from_document": doc,
                          "text": _unname(str(texts.get(f, "")), hidden)})
        return {"result": r, "formula": explain(r), "failed": system_failed(r), "diffs": self.diffs, "cost_by_person": by_person, "key_facts": facts, "recording": str(self.recording),
                "hints": list(self.hints_used), "mode": self.mode, "retry": dict(self.start_form)}


def _unname(text: str, variants: list[str]) -> str:
    """A key fact's text without the names of hidden variants (they give the variants away)."""
    for v in sorted(variants, key=len, reverse=True):
        text = re.sub(rf"\b{re.escape(v)}\b", "some engagements", text)
    return re.sub(r"\{\{\w+\}\}", "(depends on the engagement)", text)


class StoreFull(RuntimeError):
    """Every open episode is recent and someone else's: none may be closed to make room."""


class SessionStore:
    """Open episodes, keyed by id; each belongs to the browser session that started it.

    Every episode is indexed in ``<runs_dir>/workbench/.episodes/<id>.json`` (owner, recording); one
    that is not in memory (a server restart, or eviction) is re-created on demand by replaying its
    recorded actions through a fresh env, so nothing a person did is lost.

    Args:
        runs_dir: where recordings go (``<runs_dir>/workbench/*.jsonl``).
        sandbox: the sandbox backend for every episode.
        max_episodes: open episodes kept at once; past it the least recently used is closed.
        wall_seconds: the env's wall-clock limit for a person's episode (default: years, i.e. none;
            turns and customer days still end it).
        evict_idle_seconds: only episodes idle this long leave memory to make room (they stay resumable).
    """

    def __init__(self, runs_dir: str | Path, sandbox: str = "auto", max_episodes: int = MAX_EPISODES,
                 wall_seconds: float = PERSON_WALL_SECONDS, evict_idle_seconds: float = EVICT_IDLE_SECONDS):
        self.runs_dir = Path(runs_dir)
        self.index_dir = self.runs_dir / "workbench" / ".episodes"
        self.evict_idle_seconds = float(evict_idle_seconds)
        self.wall_seconds = float(wall_seconds)
        self.sandbox = sandbox
        self.max_episodes = max_episodes
        self._episodes: dict[str, WorkSession] = {}
        self._lock = threading.Lock()

    def start(self, owner: str, task: str, level: str = "L3", variant: str = "base", seed: int = 0,
              mode: str = "exam", person: str = "") -> WorkSession:
        """Reset a new episode for the browser session ``owner`` (errors: ``ValueError`` with a fix)."""
        import fdegym_env  # noqa: F401  (registers ids)
        from fdegym_env.core.env import FDEGymEnv
        from fdegym_env.wrappers import Recorder
        if mode not in ("exam", "practice"):
            raise ValueError(f"mode must be 'exam' or 'practice', got {mode!r}")
        if int(seed) < 0:
            raise ValueError(f"seed must be 0 or more, got {seed}; pick any whole number from 0")
        env = FDEGymEnv(task=task, level=level, variant=variant, sandbox=self.sandbox,
                        max_wall_seconds=self.wall_seconds)
        eid = secrets.token_hex(8)
        stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S")
        path = self.runs_dir / "workbench" / f"{stamp}-{env.task.id}-{level}-{eid}.jsonl"
        rec = Recorder(env, path)
        try:
            obs, _ = rec.reset(seed=int(seed), options={"agent": f"person:{person}" if person else "person"})
        except BaseException:
            rec.close()
            raise
        form = {"task": task, "level": level, "variant": variant, "seed": int(seed), "mode": mode}
        meta_path = self.index_dir / f"{eid}.json"
        ws = WorkSession(id=eid, owner=owner, env=rec, recording=path, brief=obs["text"], mode=mode,
                         start_form=form, meta_path=meta_path)
        self.index_dir.mkdir(parents=True, exist_ok=True)
        meta_path.write_text(json.dumps(
            {"id": eid, "owner": owner, "recording": path.name, "task": env.task.id, "level": level, "mode": mode, "person": person,
             "form": form, "hints": [], "started": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")}),
            encoding="utf-8")
        with self._lock:
            try:
                self._make_room(owner)
            except StoreFull:
                rec.close()
                raise
            self._episodes[eid] = ws
        return ws

    def _make_room(self, owner: str) -> None:
        """Free a place for one more episode: first any idle for ``evict_idle_seconds``, then the
        starter's own least recent one; never someone else's recent one (``StoreFull`` instead)."""
        now = time.monotonic()
        while len(self._episodes) >= self.max_episodes:
            idle = [w for w in self._episodes.values() if now - w.last_used >= self.evict_idle_seconds]
            own = [w for w in self._episodes.values() if w.owner == owner]
            pool = idle or own
            if not pool:
                raise StoreFull(f"the workbench has {len(self._episodes)} episodes open, all in recent use; "
                                f"try again later, or raise max_episodes")
            oldest = min(pool, key=lambda w: w.last_used)
            self._episodes.pop(oldest.id)
            try:
                oldest.env.close()
            except Exception:
                pass

    def mine(self, owner: str) -> list[dict[str, Any]]:
        """Every episode ``owner`` started (newest first), open or ended, from the index."""
        out = []
        for f in sorted(self.index_dir.glob("*.json"), reverse=True) if self.index_dir.is_dir() else []:
            try:
                meta = json.loads(f.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if not secrets.compare_digest(str(meta.get("owner", "")), owner):
                continue
            rec = self.runs_dir / "workbench" / str(meta.get("recording", ""))
            text = rec.read_text(encoding="utf-8") if rec.is_file() else ""
            result = next((json.loads(x).get("result") for x in text.splitlines() if '"type": "result"' in x), None)
            meta.pop("owner", None)
            seconds = rec.stat().st_mtime - dt.datetime.fromisoformat(meta["started"]).timestamp() if text else 0.0
            out.append({**meta, "ended": result is not None, "score": (result or {}).get("score"),
                        "resolved": (result or {}).get("resolved"), "minutes": round(max(0.0, seconds) / 60, 1)})
        return sorted(out, key=lambda m: m.get("started", ""), reverse=True)

    def _restore(self, eid: str, owner: str) -> WorkSession | None:
        """Re-create an episode not in memory by replaying its recording (``None`` if unknown/not owner's)."""
        if not re.fullmatch(r"[0-9a-f]{16}", eid):
            return None
        meta_path = self.index_dir / f"{eid}.json"
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not secrets.compare_digest(str(meta.get("owner", "")), owner):
            return None
        from fdegym_env.wrappers import Recorder
        from fdegym_env.wrappers.recorder import _make_env, load_recording
        path = self.runs_dir / "workbench" / str(meta["recording"])
        episode = load_recording(path)[0]
        env = _make_env(episode.header, self.sandbox)
        obs, _ = env.reset(seed=episode.header.get("seed"), options=episode.header.get("options") or None)
        ws = WorkSession(id=eid, owner=owner, env=env, recording=path, brief=obs["text"],
                         mode=str(meta.get("mode", "exam")), start_form=dict(meta.get("form") or {}),
                         hints_used=list(meta.get("hints") or []), meta_path=meta_path)
        for step in episode.steps:                    # deterministic: the same actions give the same state
            ws.act(step["action"])
        if not ws.done:                               # keep recording into the same file
            rec = Recorder(env, path, mode="a")
            rec.episode, rec._return = 0, ws.return_so_far
            ws.env = rec
        return ws

    def get(self, eid: str, owner: str) -> WorkSession:
        """The episode ``eid`` of ``owner``; ``KeyError`` if there is none (or it is someone else's)."""
        with self._lock:
            ws = self._episodes.get(eid)
            if ws is None:
                ws = self._restore(eid, owner)
                if ws is not None:
                    self._episodes[eid] = ws
        if ws is None or not secrets.compare_digest(ws.owner, owner):
            raise KeyError(eid)
        return ws

    def close_all(self) -> None:
        with self._lock:
            eps, self._episodes = list(self._episodes.values()), {}
        for ws in eps:
            try:
                ws.env.close()
            except Exception:
                pass


def jsonable_status(x: Any) -> Any:
    """numpy scalars to Python values, for JSON responses."""
    if isinstance(x, np.generic):
        return x.item()
    return x
