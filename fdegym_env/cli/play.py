"""``fdegym play``: a person works a task in the terminal with the same tools as an agent.

Every command becomes one ordinary env action, so the person sees the same observations, pays
the same contact costs and gets the same graded result as any agent; ``--record FILE`` writes a
recording that ``fdegym replay FILE`` re-executes. Typing mistakes the shell itself catches (an
unknown command, ``wait soon``, unclosed quotes) are explained and cost no turn; everything the
env judges (a wrong path, an unknown person) is an action like an agent's, and takes a turn.

Commands (readline: history, Tab completes commands, paths and people):

    ls [PATH]                     list_files
    cat PATH [FROM [COUNT]]       read_file (numbered lines)
    edit PATH                     open PATH in $EDITOR (default: nano, vi); the saved file is written back
    edit PATH "OLD" "NEW"         edit_file: replace the exact text OLD with NEW (shell quoting)
    write PATH                    write_file: type the content, end with a line holding only "."
    sh COMMAND...                 run a shell command in the sandbox
    who                           the directory of people
    ask ID "MESSAGE"              contact one person (quotes optional)
    inbox                         messages people sent unasked
    wait 2d | 6h | 90m            let customer time pass
    trial                         run system/ for one trial day
    submit [NOTE]                 deploy system/ and get graded (asks to confirm)
    status | transcript | help | quit

Example:
    $ fdegym play news_incident --level L3 --record me.jsonl
    fdegym> cat docs/desk_handbook.md
    fdegym> ask night_editor "How do agency kill notices arrive?"
    fdegym> submit
"""

from __future__ import annotations

import cmd
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from fdegym_env.grading.result_text import cost_words

# the agent's tool names (and the usual shell words) -> this shell's command
TOOL_COMMANDS = {"list_files": "ls", "read_file": "cat", "read": "cat", "write_file": "write", "edit_file": "edit",
                 "run": "sh", "directory": "who", "contact": "ask"}

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(d|day|days|h|hr|hrs|hour|hours|m|min|mins|minutes?)?\s*$", re.I)


def parse_duration(text: str) -> float:
    """Hours in ``2d``, ``6h``, ``90m`` or a bare number of hours.

    Example:
        >>> parse_duration("2d"), parse_duration("90m"), parse_duration("5")
        (48.0, 1.5, 5.0)
    """
    m = _DURATION.match(text or "")
    if not m:
        raise ValueError(f"expected a duration like 2d, 6h or 90m; got {text!r}")
    n, unit = float(m.group(1)), (m.group(2) or "h").lower()
    if unit.startswith("d"):
        return n * 24.0
    if unit.startswith("m"):
        return n / 60.0
    return n


class PlayShell(cmd.Cmd):
    """The interactive loop over one env episode (see the module docstring for the commands)."""

    prompt = "fdegym> "
    intro = None

    def __init__(self, env, seed: int | None = 0, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 confirm: bool = True):
        super().__init__(stdin=stdin, stdout=stdout)
        if stdin is not None:
            self.use_rawinput = False
        self.env = env
        self.seed = seed
        self.confirm = confirm
        self.result: dict[str, Any] | None = None
        self.done = False
        self.quit = False

    # --- plumbing ------------------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def start(self) -> None:
        obs, info = self.env.reset(seed=self.seed, options={"agent": "human"})
        self.say(obs["text"])
        self.say("Type `help` for the commands. Nothing reaches production until you `submit`.")
        self._status_line(obs)

    def act(self, action: dict[str, Any]) -> None:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.say(obs["text"])
        if terminated or truncated:
            self.done = True
            self.result = info.get("result")
            self.say("\nThe engagement is over.")
        else:
            self._status_line(obs)

    def _status_line(self, obs: dict) -> None:
        u = self.env.unwrapped
        turn = int(obs["turn"][0])
        line = f"[turn {turn}/{u.max_turns}"
        if u.people is not None and u.people.has_clock:
            line += f", {u.people.stamp()}"
        new = int(obs["inbox_new"][0])
        if new:
            line += f", {new} new message(s): `inbox`"
        self.say(line + "]")

    def preloop(self) -> None:
        if self.use_rawinput:
            try:
                import readline
                readline.set_completer_delims(" \t\n\"'")  # paths keep their / . - _
            except ImportError:  # pragma: no cover (no readline on this platform)
                pass

    def emptyline(self) -> bool:
        return False

    def default(self, line: str) -> None:
        word = line.split()[0] if line.split() else line
        from fdegym_env.core.errors import did_you_mean
        alias = TOOL_COMMANDS.get(word.lower())
        if alias:  # the agent's tool names (what the env's own messages mention) are the usual guess
            hint = f" The agent's `{word.lower()}` tool is `{alias}` here."
        else:
            hint = did_you_mean(word, self._commands(), quote="`")
        self.say(f"Unknown command {word!r}.{hint} Type `help` for the list.")

    def _commands(self) -> list[str]:
        return sorted(n[3:] for n in dir(self) if n.startswith("do_") and n not in ("do_EOF",))

    def postcmd(self, stop: bool, line: str) -> bool:
        return stop or self.done or self.quit

    def onecmd(self, line: str) -> bool:
        try:
            return super().onecmd(line)
        except ValueError as e:  # a person's typing mistake: say what was expected
            self.say(f"Error: {e}")
            return False

    def _split(self, arg: str) -> list[str]:
        try:
            return shlex.split(arg)
        except ValueError as e:
            raise ValueError(f"could not parse the arguments ({e}); close your quotes") from None

    # --- completion ------------------------------------------------------------------------------------
    def _complete_path(self, text: str, line: str, begidx: int, endidx: int) -> list[str]:
        ws = self.env.unwrapped.workspace
        if ws is None:
            return []
        base = Path(ws)
        head = text.rsplit("/", 1)[0] + "/" if "/" in text else ""
        folder = base / head
        if not folder.is_dir():
            return []
        out = []
        for p in sorted(folder.iterdir()):
            name = head + p.name + ("/" if p.is_dir() else "")
            if name.startswith(text):
                out.append(name)
        return out

    complete_ls = complete_cat = complete_edit = complete_write = _complete_path

    def complete_ask(self, text, line, begidx, endidx):
        people = self.env.unwrapped.people
        ids = [p["id"] for p in people.directory()] if people else []
        return [i for i in ids if i.startswith(text)] if len(line[:begidx].split()) <= 1 else []

    # --- the tools ---------------------------------------------------------------------------------------
    def do_ls(self, arg: str) -> bool:
        """ls [PATH] — list files with sizes."""
        args = self._split(arg)
        self.act({"tool": "list_files", "path": args[0] if args else "."})
        return False

    def do_cat(self, arg: str) -> bool:
        """cat PATH [FROM [COUNT]] — show a file with line numbers (from line FROM, COUNT lines)."""
        args = self._split(arg)
        if not args:
            raise ValueError("cat needs a path, e.g. `cat system/README.md`")
        action: dict[str, Any] = {"tool": "read_file", "path": args[0]}
        try:
            if len(args) > 1:
                action["offset"] = int(args[1])
            if len(args) > 2:
                action["limit"] = int(args[2])
        except ValueError:
            raise ValueError(f"cat PATH [FROM [COUNT]] takes line numbers; got {' '.join(args[1:])!r}") from None
        self.act(action)
        return False

    def do_edit(self, arg: str) -> bool:
        """edit PATH — open in $EDITOR; edit PATH "OLD" "NEW" — replace exact text OLD with NEW."""
        args = self._split(arg)
        if len(args) == 3:
            self.act({"tool": "edit_file", "path": args[0], "old": args[1], "new": args[2]})
            return False
        if len(args) != 1:
            raise ValueError('expected `edit PATH` or `edit PATH "OLD" "NEW"`; got ' + str(len(args)) + " argument(s)")
        self._edit_in_editor(args[0])
        return False

    def _edit_in_editor(self, path: str) -> None:
        from fdegym_env.core import workspace as wsmod
        ws = self.env.unwrapped.workspace
        target = wsmod.resolve(ws, path, must_exist=False)
        if target.is_dir():
            raise ValueError(f"{path!r} is a folder; give a file path")
        before = target.read_text(encoding="utf-8", errors="replace") if target.exists() else ""
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or \
            next((e for e in ("nano", "vi") if shutil.which(e)), None)
        if not editor:
            raise ValueError("no editor found: set $EDITOR, or use `write PATH` / `edit PATH \"OLD\" \"NEW\"`")
        with tempfile.TemporaryDirectory(prefix="fdegym-play-") as tmp:
            scratch = Path(tmp) / Path(path).name
            scratch.write_text(before, encoding="utf-8")
            rc = subprocess.call(shlex.split(editor) + [str(scratch)])
            after = scratch.read_text(encoding="utf-8", errors="replace")
        if rc != 0:
            self.say(f"The editor exited with code {rc}; nothing written.")
        elif after == before:
            self.say("No change; nothing written.")
        else:
            self.act({"tool": "write_file", "path": path, "content": after})

    def do_write(self, arg: str) -> bool:
        """write PATH — type the new content of PATH; end with a line holding only "."."""
        args = self._split(arg)
        if len(args) != 1:
            raise ValueError("expected `write PATH`, then the content, then a line with only '.'")
        self.say('Enter the content; finish with a line holding only ".".')
        lines = []
        while True:
            line = self._read_line("... ")
            if line is None or line.rstrip("\r\n") == ".":
                break
            lines.append(line.rstrip("\r\n"))
        self.act({"tool": "write_file", "path": args[0], "content": "\n".join(lines) + ("\n" if lines else "")})
        return False

    def _read_line(self, prompt: str) -> str | None:
        if self.use_rawinput:
            try:
                return input(prompt)
            except EOFError:
                return None
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        return line if line else None

    def do_sh(self, arg: str) -> bool:
        """sh COMMAND — run a shell command in the sandbox (workspace as working directory)."""
        if not arg.strip():
            raise ValueError("sh needs a command, e.g. `sh python3 -m unittest`")
        self.act({"tool": "run", "command": arg})
        return False

    def do_who(self, arg: str) -> bool:
        """who — the people you can contact."""
        self.act({"tool": "directory"})
        return False

    def do_ask(self, arg: str) -> bool:
        """ask ID "MESSAGE" — send one person a message (see `who` for the ids)."""
        parts = arg.strip().split(None, 1)
        if len(parts) < 2:
            raise ValueError('expected `ask ID "MESSAGE"`, e.g. `ask ops "What is the cutoff?"`')
        msg = parts[1].strip()
        if len(msg) >= 2 and msg[0] == msg[-1] and msg[0] in "\"'":
            msg = msg[1:-1]
        self.act({"tool": "contact", "to": parts[0], "message": msg})
        return False

    def do_inbox(self, arg: str) -> bool:
        """inbox — messages people sent you unasked."""
        self.act({"tool": "inbox"})
        return False

    def do_wait(self, arg: str) -> bool:
        """wait DURATION — let customer time pass: 2d, 6h, 90m."""
        self.act({"tool": "wait", "hours": parse_duration(arg)})
        return False

    def do_trial(self, arg: str) -> bool:
        """trial — run the current system/ for one trial day and hear what people saw."""
        self.act({"tool": "trial"})
        return False

    def do_submit(self, arg: str) -> bool:
        """submit [NOTE] — deploy system/ as it is to production and get graded. Ends the engagement."""
        if self.confirm:
            ans = self._read_line("Deploy system/ to production now and end the engagement? [y/N] ")
            if (ans or "").strip().lower() not in ("y", "yes"):
                self.say("Not submitted.")
                return False
        action: dict[str, Any] = {"tool": "submit"}
        if arg.strip():
            action["note"] = arg.strip()
        self.act(action)
        return True

    def do_status(self, arg: str) -> bool:
        """status — turn, customer time and unread messages."""
        u = self.env.unwrapped
        self.say(f"task {u.task.id}, variant {u.variant.name}, level {u.episode_level}; turn {u.turn}/{u.max_turns}"
                 + (f"; {u.people.stamp()}, {u.people.inbox_new()} new message(s)" if u.people.has_clock else ""))
        return False

    def do_transcript(self, arg: str) -> bool:
        """transcript — everything so far."""
        self.say("\n\n".join(self.env.unwrapped.transcript))
        return False

    def do_raw(self, arg: str) -> bool:
        """raw JSON — send any action as JSON, e.g. raw {"tool": "read_file", "path": "TASK.md", "limit": 5}."""
        try:
            action = json.loads(arg)
        except json.JSONDecodeError as e:
            raise ValueError(f"raw takes one JSON object ({e.msg})") from None
        self.act(action)
        return False

    def do_quit(self, arg: str) -> bool:
        """quit — leave without submitting (the episode is not graded)."""
        if self.confirm:
            ans = self._read_line("Leave without submitting? Nothing will be graded. [y/N] ")
            if (ans or "").strip().lower() not in ("y", "yes"):
                return False
        self.quit = True
        return True

    do_exit = do_quit

    def do_EOF(self, arg: str) -> bool:
        self.say("")
        self.quit = True
        return True

    def do_help(self, arg: str) -> bool:
        """help [COMMAND] — the commands."""
        if arg:
            fn = getattr(self, "do_" + arg.strip(), None)
            self.say((fn.__doc__ or "").strip() if fn else f"No command {arg!r}.")
            return False
        for name in ["ls", "cat", "edit", "write", "sh", "who", "ask", "inbox", "wait", "trial", "submit",
                     "status", "transcript", "raw", "quit"]:
            self.say("  " + (getattr(self, "do_" + name).__doc__ or name).strip().splitlines()[0])
        return False


def play(task: str, level: str = "L3", variant: str = "base", seed: int = 0, sandbox: str = "auto",
         record: str | None = None, transcript: str | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None, confirm: bool = True) -> dict[str, Any] | None:
    """Run one interactive episode; returns the graded result (``None`` if the person quit).

    Args:
        task: a registered task id or a task folder.
        level, variant, seed, sandbox: as for the env.
        record: write a JSONL recording (``fdegym replay FILE`` reproduces it).
        transcript: write the episode transcript (text) here at the end.
        stdin, stdout: for scripted use; by default the terminal, with readline.
        confirm: ask before ``submit`` and ``quit``.
    """
    import gymnasium as gym

    import fdegym_env  # noqa: F401
    from fdegym_env.core.env import unwrap_fdegym
    from fdegym_env.core.registry import gym_id
    env = gym.make(gym_id(task), task=task, level=level, variant=variant, sandbox=sandbox, render_mode="ansi")
    if record:
        from fdegym_env.wrappers import Recorder
        env = Recorder(env, record)
    shell = PlayShell(env, seed=seed, stdin=stdin, stdout=stdout, confirm=confirm)
    try:
        shell.start()
        try:
            shell.cmdloop()
        except KeyboardInterrupt:
            shell.say("\nInterrupted; nothing submitted.")
        if transcript:
            Path(transcript).write_text(unwrap_fdegym(env).render() or "", encoding="utf-8")
    finally:
        env.close()
    out = shell.stdout
    if shell.result is not None:
        r = shell.result
        out.write(f"\nResult: score {r['score']:.3f} (uplift {r['uplift']:.3f}, {cost_words(r)}),"
                  f" resolved: {'yes' if r['resolved'] else 'no'}\n")
        if record:
            out.write(f"Recording: {record} (check it with `fdegym replay {record}`, read it with "
                      f"`fdegym show {record}`)\n")
        if transcript:
            out.write(f"Transcript: {transcript}\n")
    else:
        out.write("Not submitted: no result.\n")
    out.flush()
    return shell.result


if __name__ == "__main__":  # pragma: no cover
    sys.exit(0 if play(sys.argv[1]) is not None else 1)
