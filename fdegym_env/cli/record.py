"""``fdegym replay FILE`` and ``fdegym show FILE``: check and read episode recordings.

    fdegym run news_incident --agent reference --record ep.jsonl
    fdegym replay ep.jsonl            # re-executes the actions; exit 0 if rewards and score reproduce
    fdegym show ep.jsonl | less       # the transcript, for a person
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# What each line type must hold for show and replay (key -> expected type)
REQUIRED: dict[str, dict[str, type | tuple[type, ...]]] = {
    "reset": {"task": str, "variant": str, "level": str, "observation": dict},
    "step": {"action": (dict, str), "reward": (int, float), "observation": dict},
    "result": {"result": dict},
}


def check_recording(path: str) -> None:
    """Refuse a recording that is not one JSON object per line with the fields show and replay read;
    the message names the line and what it lacks."""
    p = Path(path)
    if not p.is_file():
        return   # load_recording says what the path is instead
    with open(p, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{n}: not JSON ({e.msg}); expected one JSON object per line "
                                 "(fix: re-record with `fdegym run TASK --record FILE`)") from None
            if not isinstance(rec, dict):
                raise ValueError(f"{path}:{n}: expected a JSON object, got a JSON {type(rec).__name__}; this is not "
                                 "a fdegym recording line (fix: re-record with `fdegym run TASK --record FILE`)")
            line_type = rec.get("type")
            for key, kind in (REQUIRED.get(line_type, {}) if isinstance(line_type, str) else {}).items():
                if not isinstance(rec.get(key), kind):
                    got = "missing" if key not in rec else f"a {type(rec[key]).__name__}"
                    raise ValueError(f"{path}:{n}: a {rec['type']!r} line needs {key!r}, got {got} (the recording "
                                     "is damaged; fix: re-record it)")
            if rec.get("type") == "reset" and not isinstance(rec["observation"].get("text"), str):
                raise ValueError(f"{path}:{n}: the 'reset' line's observation has no 'text' (the recording is "
                                 "damaged; fix: re-record it)")
            if rec.get("type") == "step" and not isinstance(rec["observation"].get("text"), str):
                raise ValueError(f"{path}:{n}: a 'step' line's observation has no 'text' (the recording is "
                                 "damaged; fix: re-record it)")


def check_recorded_task(path: str, header: dict[str, Any]) -> None:
    """Refuse to replay against a task other than the one recorded: the recorded id must be a known
    task, or the id of the task folder the recording points to."""
    from fdegym_env.core.registry import list_tasks, load_task
    tid = header["task"]
    if tid in list_tasks():
        return
    ref = header.get("task_path")
    try:
        found = load_task(ref).id if ref else None
    except (ValueError, OSError):
        found = None
    if found != tid:
        where = f" and its task_path {ref!r} holds {'task ' + repr(found) if found else 'no task'}" if ref else ""
        raise ValueError(f"{path}: the recording names task {tid!r}, which does not exist{where}; nothing "
                         f"can be replayed (fix: install or point task_path at the task it was recorded on)")


def _replay_setup(p):
    p.add_argument("file", help="a JSONL recording (fdegym run --record FILE, or the Recorder wrapper)")
    p.add_argument("--episode", type=int, default=None, help="replay only this episode (0-based; default: all)")
    p.add_argument("--sandbox", default=None, choices=["auto", "bwrap", "docker", "none"],
                   help="override the recorded sandbox backend")
    p.add_argument("--json", action="store_true")


def cmd_replay(a) -> int:
    """Re-execute a recording and check that it reproduces the same rewards and score."""
    from fdegym_env.wrappers.recorder import load_recording, replay
    check_recording(a.file)
    episodes = load_recording(a.file)
    n = len(episodes)
    which = range(n) if a.episode is None else [a.episode]
    for k in which:
        if 0 <= k < n:
            check_recorded_task(a.file, episodes[k].header)
    reports = [replay(a.file, episode=k, sandbox=a.sandbox) for k in which]
    if a.json:
        print(json.dumps([{"episode": k, "ok": r.ok, "steps": r.steps, "recorded_score": r.recorded_score,
                           "replayed_score": r.replayed_score, "mismatches": r.mismatches,
                           "observation_diffs": r.observation_diffs} for k, r in zip(which, reports)], indent=2))
    else:
        for k, r in zip(which, reports):
            print(f"episode {k}: {r.summary()}")
    return 0 if all(r.ok for r in reports) else 1


def _show_setup(p):
    p.add_argument("file", help="a JSONL recording")
    p.add_argument("--full", action="store_true", help="do not clip long observations")
    p.add_argument("--max-chars", type=int, default=1500, help="clip each observation to this many characters")


def cmd_show(a) -> int:
    """Print a recording as a readable transcript."""
    from fdegym_env.wrappers.recorder import render_recording
    check_recording(a.file)
    print(render_recording(a.file, max_chars=None if a.full else a.max_chars))
    return 0
