"""``fdegym episode``: play one episode from a shell, one JSON action at a time.

    fdegym episode start ep1 news_incident --level L3 --seed 0     # prints the brief
    fdegym episode act ep1 '{"tool": "read_file", "path": "TASK.md"}'
    fdegym episode act ep1 -  < action.json                       # the action from stdin
    fdegym episode show ep1                                        # the transcript so far
    fdegym episode stop ep1 [--submit]
    fdegym episode list
    fdegym episode tools                                           # every action's JSON form

One start is one graded attempt: no reset. The transcript (``transcript.jsonl``, readable with
``fdegym show`` and checkable with ``fdegym replay``) and ``result.json`` go to ``--dir``
(default ``./episodes/NAME``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from fdegym_env.core.actions import action_reference
from fdegym_env.people.routers import ROUTER_NAMES
from fdegym_env.serving import episode_daemon as ed


def _setup(p) -> None:
    sub = p.add_subparsers(dest="episode_cmd", required=True, metavar="ACTION")
    s = sub.add_parser("start", help="start an episode in a background process and print the brief")
    s.add_argument("name", help="a name for the episode (letters, digits, . _ -)")
    s.add_argument("task", help="a registered task id or a task folder")
    s.add_argument("--level", default="L3", choices=["L0", "L1", "L2", "L3"])
    s.add_argument("--variant", default="base", help="a named variant, random, sample or sample:N")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--dir", default=None, help="where the transcript and result go (default ./episodes/NAME)")
    s.add_argument("--sandbox", default="auto", choices=["auto", "bwrap", "docker", "none"])
    s.add_argument("--router", default=None, choices=ROUTER_NAMES)
    s.add_argument("--agent", default="external", help="the agent name written into the result")
    s.add_argument("--idle-timeout", type=float, default=ed.DEFAULT_IDLE_TIMEOUT_S,
                   help="seconds without a request after which the episode is dropped, ungraded (default 7200)")
    s.add_argument("--max-wall-seconds", type=float, default=None,
                   help="end (and grade) the episode this long after it starts; stated in the brief and counted "
                        "down (default: no wall-clock limit)")
    a = sub.add_parser("act", help="send one action and print the observation")
    a.add_argument("name")
    a.add_argument("action", help='a JSON action, e.g. \'{"tool": "list_files"}\' or an OpenAI-style tool call; '
                                  "- reads it from stdin")
    a.add_argument("--json", action="store_true", help="print the whole step as JSON")
    sh = sub.add_parser("show", help="print the transcript so far")
    sh.add_argument("name")
    sh.add_argument("--full", action="store_true", help="do not clip long observations")
    sh.add_argument("--max-chars", type=int, default=1500)
    st = sub.add_parser("stop", help="end the episode (nothing is submitted unless --submit)")
    st.add_argument("name")
    st.add_argument("--submit", action="store_true", help="submit system/ as it stands first, and print the result")
    sub.add_parser("list", help="the episodes this user has started, with their states")
    sub.add_parser("tools", help="every action's JSON form, with its arguments")


def cmd_episode(a) -> int:
    """Play one episode from a shell: start, act (one JSON action), show, stop, list."""
    try:
        return _COMMANDS[a.episode_cmd](a)
    except ed.EpisodeError as e:
        print(f"fdegym episode {a.episode_cmd}: error: {e}", file=sys.stderr)
        return 2


def _start(a) -> int:
    brief, st = ed.start(a.name, a.task, level=a.level, variant=a.variant, seed=a.seed, out_dir=a.dir,
                         sandbox=a.sandbox, router=a.router, idle_timeout=a.idle_timeout, agent=a.agent,
                         max_wall_seconds=a.max_wall_seconds)
    print(brief)
    print(f"[episode {a.name} started: pid {st['pid']}, transcript and result in {st['dir']}. Next: "
          f"fdegym episode act {a.name} '{{\"tool\": \"list_files\"}}']", file=sys.stderr)
    print("[actions (also: fdegym episode tools):\n" + action_reference() + "]", file=sys.stderr)
    return 0


def _tools(a) -> int:
    print(action_reference())
    return 0


def _ended_notice(name: str, st: dict) -> int:
    result = st.get("result")
    if st.get("state") == "ended" and result:
        from fdegym_env.grading.result_text import result_text
        print(f"Episode {name} has ended ({result.get('end_reason')} at turn {result.get('turns')}); "
              f"no further actions run.\n\n{result_text(result)}")
        print(f"[result: {st.get('result_path')}]", file=sys.stderr)
    else:
        why = {"stopped": "was stopped without submitting; nothing was graded",
               "expired": "was dropped after its idle timeout; nothing was graded",
               "failed": f"did not start ({st.get('error')})",
               "dead": "lost its process; nothing was graded"}.get(str(st.get("state")), f"is {st.get('state')}")
        print(f"fdegym episode: episode {name} {why}. Transcript: {st.get('dir')}", file=sys.stderr)
    return 1


def _state(name: str) -> dict:
    """The state of NAME, ``dead`` when its process is gone while it should be live."""
    st = ed.read_state(name)
    if st is None:
        raise ed.EpisodeError(f"no episode named {name!r}; start one with `fdegym episode start {name} TASK` "
                              f"(`fdegym episode list` shows those that exist)")
    if st.get("state") in ed.LIVE_STATES and not ed.pid_alive(st.get("pid")):
        st["state"] = "dead"
    return st


def _act(a) -> int:
    st = _state(a.name)
    if st["state"] not in ed.LIVE_STATES:
        return _ended_notice(a.name, st)
    text = sys.stdin.read() if a.action == "-" else a.action
    reply = ed.request(a.name, {"op": "act", "action": text})
    if not reply.get("ok"):
        raise ed.EpisodeError(reply.get("error"))
    if a.json:
        print(json.dumps({k: v for k, v in reply.items() if k != "ok"}, default=str))
    else:
        print(reply["text"])
    if reply.get("ended"):
        print(f"[episode {a.name} has ended; result in {Path(st['dir']) / 'result.json'}]", file=sys.stderr)
        ed.wait_exit(st.get("pid"), timeout=30)
    return 0


def _show(a) -> int:
    st = _state(a.name)
    path = Path(st["dir"]) / "transcript.jsonl"
    if not path.is_file():
        raise ed.EpisodeError(f"episode {a.name!r} has no transcript yet at {path}")
    from fdegym_env.wrappers.recorder import render_recording
    print(render_recording(path, max_chars=None if a.full else a.max_chars))
    return 0


def _stop(a) -> int:
    st = _state(a.name)
    if st["state"] not in ed.LIVE_STATES:
        print(f"episode {a.name} is already over (state: {st['state']}); "
              f"transcript: {st.get('dir')}", file=sys.stderr)
        return 0
    reply = ed.request(a.name, {"op": "stop", "submit": a.submit})
    if not reply.get("ok"):
        raise ed.EpisodeError(reply.get("error"))
    if reply.get("step"):
        print(reply["step"]["text"])
    gone = ed.wait_exit(st.get("pid"), timeout=60)
    print(f"[episode {a.name} {'stopped' if gone else 'asked to stop (its process is still closing)'}; "
          f"transcript in {st['dir']}]", file=sys.stderr)
    return 0 if gone else 1


def _list(a) -> int:
    rows = ed.list_episodes()
    if not rows:
        print(f"no episodes in {ed.runtime_root()}")
    for st in rows:
        score = (st.get("result") or {}).get("score")
        tail = f" score {score:.3f}" if isinstance(score, (int, float)) else ""
        print(f"{st['name']:<20} {st.get('state'):<8} {st.get('task')} [{st.get('level')}, {st.get('variant')}, "
              f"seed {st.get('seed')}] {st.get('dir')}{tail}")
    return 0


_COMMANDS = {"start": _start, "act": _act, "show": _show, "stop": _stop, "list": _list, "tools": _tools}
