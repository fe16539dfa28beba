"""``fdegym replay FILE`` and ``fdegym show FILE``: check and read episode recordings.

    fdegym run news_incident --agent reference --record ep.jsonl
    fdegym replay ep.jsonl            # re-executes the actions; exit 0 if rewards and score reproduce
    fdegym show ep.jsonl | less       # the transcript, for a person
"""

from __future__ import annotations

import json



def _replay_setup(p):
    p.add_argument("file", help="a JSONL recording (fdegym run --record FILE, or the Recorder wrapper)")
    p.add_argument("--episode", type=int, default=None, help="replay only this episode (0-based; default: all)")
    p.add_argument("--sandbox", default=None, choices=["auto", "bwrap", "docker", "none"],
                   help="override the recorded sandbox backend")
    p.add_argument("--json", action="store_true")


def cmd_replay(a) -> int:
    """Re-execute a recording and check that it reproduces the same rewards and score."""
    from fdegym_env.wrappers.recorder import load_recording, replay
    n = len(load_recording(a.file))
    which = range(n) if a.episode is None else [a.episode]
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
    print(render_recording(a.file, max_chars=None if a.full else a.max_chars))
    return 0
