"""A named episode held by a background process, reached over a unix socket (``fdegym episode``).

Each episode NAME has a small runtime folder, :func:`runtime_root` ``/NAME``:

* ``sock``        — the unix socket the holding process listens on while the episode is live;
* ``state.json``  — ``{"name", "state", "pid", "dir", "task", ..., "workspace"}``; ``state`` is one of
  ``starting``, ``live``, ``ended`` (graded), ``stopped`` (ended by ``stop`` without grading),
  ``expired`` (idle too long), ``failed`` (could not start);
* ``daemon.log``  — the holding process's stderr.

The transcript (a :class:`~fdegym_env.wrappers.Recorder` JSONL) and ``result.json`` go to the folder the
user named. The protocol is one JSON request line per connection and one JSON reply line:
``{"op": "ping" | "brief" | "act" | "stop", ...}`` -> ``{"ok": true, ...}`` or ``{"ok": false, "error"}``.

The holding process exits when stopped, right after it has sent the step that ended the episode, or
after ``idle_timeout`` seconds without a request; in every case it closes the env, which removes the
workspace and the sandbox.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import re
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
DEFAULT_IDLE_TIMEOUT_S = 2 * 3600.0
MAX_SOCKET_PATH = 100  # sun_path holds 108 bytes on Linux
LIVE_STATES = ("starting", "live")


class EpisodeError(RuntimeError):
    """A request about a named episode that cannot be served (missing, dead, duplicate)."""


# --- the registry of named episodes ----------------------------------------------------------------
def runtime_root() -> Path:
    """``$FDEGYM_EPISODES_HOME``, else ``$XDG_RUNTIME_DIR/fdegym-episodes``, else
    ``<tmp>/fdegym-episodes-<uid>``."""
    if os.environ.get("FDEGYM_EPISODES_HOME"):
        return Path(os.environ["FDEGYM_EPISODES_HOME"])
    if os.environ.get("XDG_RUNTIME_DIR"):
        return Path(os.environ["XDG_RUNTIME_DIR"]) / "fdegym-episodes"
    return Path(tempfile.gettempdir()) / f"fdegym-episodes-{os.getuid()}"


def check_name(name: str) -> str:
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise EpisodeError(f"episode name must be 1-64 letters, digits, '.', '_' or '-' (starting with a letter "
                           f"or digit), got {name!r}")
    return name


def episode_folder(name: str) -> Path:
    return runtime_root() / check_name(name)


def read_state(name: str) -> dict[str, Any] | None:
    p = episode_folder(name) / "state.json"
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None


def write_state(folder: Path, state: dict[str, Any]) -> None:
    tmp = folder / "state.json.tmp"
    tmp.write_text(json.dumps(state, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, folder / "state.json")


def pid_alive(pid: Any) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie (exited, not yet reaped by its parent) is not alive
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def list_episodes() -> list[dict[str, Any]]:
    root = runtime_root()
    out = []
    for d in sorted(root.iterdir()) if root.is_dir() else []:
        st = read_state(d.name) if NAME_RE.match(d.name) else None
        if st is not None:
            if st.get("state") in LIVE_STATES and not pid_alive(st.get("pid")):
                st["state"] = "dead"
            out.append(st)
    return out


# --- client side -----------------------------------------------------------------------------------
def request(name: str, req: dict[str, Any], timeout: float | None = 900.0) -> dict[str, Any]:
    """Send one request to the live episode NAME and return its reply; :class:`EpisodeError` when
    there is no live episode of that name."""
    folder = episode_folder(name)
    st = read_state(name)
    if st is None:
        raise EpisodeError(f"no episode named {name!r} (none in {runtime_root()}); start one with "
                           f"`fdegym episode start {name} TASK`")
    if st.get("state") not in LIVE_STATES:
        raise EpisodeError(f"episode {name!r} is not running (state: {st.get('state')})")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        s.connect(str(folder / "sock"))
        s.sendall(json.dumps(req).encode("utf-8") + b"\n")
        data = _read_line(s)
    except (FileNotFoundError, ConnectionRefusedError, ConnectionResetError, BrokenPipeError) as e:
        alive = pid_alive(st.get("pid"))
        raise EpisodeError(f"episode {name!r} is not answering ({type(e).__name__}); its process {st.get('pid')} "
                           f"is {'still running' if alive else 'gone'}. Transcript so far: {st.get('dir')}. "
                           f"{'' if alive else 'Start a new episode to play again.'}") from None
    finally:
        s.close()
    if not data:
        raise EpisodeError(f"episode {name!r} closed the connection without a reply (see {folder / 'daemon.log'})")
    return json.loads(data)


def _read_line(s: socket.socket) -> bytes:
    buf = bytearray()
    while not buf.endswith(b"\n"):
        chunk = s.recv(1 << 16)
        if not chunk:
            break
        buf += chunk
    return bytes(buf)


def start(name: str, task: str, *, level: str = "L3", variant: str = "base", seed: int | None = 0,
          out_dir: str | Path | None = None, sandbox: str = "auto", router: str | None = None,
          idle_timeout: float = DEFAULT_IDLE_TIMEOUT_S, agent: str = "external", start_timeout: float = 600.0,
          max_wall_seconds: float | None = None) -> tuple[str, dict[str, Any]]:
    """Start the background process holding episode NAME; returns (brief, state)."""
    import subprocess
    folder = episode_folder(name)
    if len(str(folder / "sock")) > MAX_SOCKET_PATH:
        raise EpisodeError(f"the socket path {folder / 'sock'} is longer than {MAX_SOCKET_PATH} characters; "
                           "set FDEGYM_EPISODES_HOME to a shorter folder")
    st = read_state(name)
    if st is not None:
        if st.get("state") in LIVE_STATES and pid_alive(st.get("pid")):
            raise EpisodeError(f"episode {name!r} is already running (pid {st.get('pid')}, {st.get('task')}, "
                               f"transcript in {st.get('dir')}); act on it, or `fdegym episode stop {name}` first")
    out = Path(out_dir if out_dir is not None else Path("episodes") / name).resolve()
    if (out / "transcript.jsonl").exists():
        raise EpisodeError(f"{out} already holds a transcript (one folder per attempt); pass another --dir "
                           "or move that folder away")
    if folder.exists():  # an earlier episode of this name that is over: its runtime folder goes
        for p in folder.iterdir():
            p.unlink(missing_ok=True)
        folder.rmdir()
    folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # sockets of this user's episodes only
    try:
        folder.mkdir(mode=0o700, exist_ok=False)
    except FileExistsError:
        raise EpisodeError(f"episode {name!r} is being started by another command; pick another name") from None
    out.mkdir(parents=True, exist_ok=True)
    task_ref = str(Path(task).resolve()) if Path(task).is_dir() else task
    argv = [sys.executable, "-m", "fdegym_env.serving.episode_daemon", "--name", name, "--dir", str(out),
            "--level", level, "--variant", variant, "--sandbox", sandbox, "--idle-timeout", str(idle_timeout),
            "--agent", agent, task_ref]
    if seed is not None:
        argv += ["--seed", str(seed)]
    if router:
        argv += ["--router", router]
    if max_wall_seconds:
        argv += ["--max-wall-seconds", str(max_wall_seconds)]
    with open(folder / "daemon.log", "ab") as log:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
                                close_fds=True)
    deadline = time.monotonic() + start_timeout
    while True:
        st = read_state(name) or {}
        if st.get("state") == "live":
            break
        if st.get("state") == "failed" or proc.poll() is not None:
            proc.wait()
            raise EpisodeError(f"episode {name!r} did not start: {st.get('error') or _log_tail(folder)}")
        if time.monotonic() > deadline:
            proc.kill()
            raise EpisodeError(f"episode {name!r} did not start within {start_timeout:.0f} s; see {folder / 'daemon.log'}")
        time.sleep(0.05)
    reply = request(name, {"op": "brief"})
    return reply["text"], st


def _log_tail(folder: Path, n: int = 8) -> str:
    try:
        lines = (folder / "daemon.log").read_text(encoding="utf-8", errors="replace").strip().splitlines()
    except OSError:
        return "(no log)"
    return "\n".join(lines[-n:]) or "(the process exited without a word)"


def wait_exit(pid: Any, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while pid_alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# --- the holding process ---------------------------------------------------------------------------
def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class _Daemon:
    def __init__(self, a: argparse.Namespace):
        from fdegym_env.serving.episode_host import EpisodeHost
        self.a = a
        self.folder = episode_folder(a.name)
        self.out = Path(a.dir)
        self.host = EpisodeHost(a.task, level=a.level, variant=a.variant, seed=a.seed, sandbox=a.sandbox,
                                router=a.router, record=self.out / "transcript.jsonl",
                                result_path=self.out / "result.json", agent=a.agent,
                                max_wall_seconds=a.max_wall_seconds)
        self.state: dict[str, Any] = {"name": a.name, "state": "starting", "pid": os.getpid(), "dir": str(self.out),
                                      "task": a.task, "level": a.level, "variant": a.variant, "seed": a.seed,
                                      "started": _now(), "idle_timeout_s": a.idle_timeout}
        self.last_request = time.monotonic()
        self.stop_after_reply: str | None = None

    def set_state(self, **kw: Any) -> None:
        self.state.update(kw)
        write_state(self.folder, self.state)

    def run(self) -> int:
        write_state(self.folder, self.state)
        try:
            self.host.start()
        except Exception as e:  # a bad task/variant/level: the starter shows this
            self.set_state(state="failed", error=f"{type(e).__name__}: {e}")
            self.host.close()
            return 2
        u = self.host.env.unwrapped
        sock_path = self.folder / "sock"
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        srv.bind(str(sock_path))
        os.chmod(sock_path, 0o600)
        srv.listen(8)
        self.set_state(state="live", workspace=str(u.workspace), variant_drawn=u.variant.name)
        self.last_request = time.monotonic()  # the idle clock starts once the episode can be reached
        end_state = "expired"
        try:
            while True:
                idle_left = self.a.idle_timeout - (time.monotonic() - self.last_request)
                if idle_left <= 0:
                    break
                srv.settimeout(min(idle_left, 5.0))
                try:
                    conn, _ = srv.accept()
                except socket.timeout:
                    continue
                self.last_request = time.monotonic()
                with conn:
                    self._serve(conn)
                if self.stop_after_reply:
                    end_state = self.stop_after_reply
                    break
        except _Terminated:
            end_state = "ended" if self.host.ended else "stopped"
        finally:
            srv.close()
            sock_path.unlink(missing_ok=True)
            self.host.close()
            self.set_state(state=end_state, ended_at=_now(), result=self.host.result,
                           result_path=str(self.out / "result.json") if self.host.ended else None)
        return 0

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(60.0)
        try:
            raw = _read_line(conn)
            req = json.loads(raw) if raw.strip() else {}
            reply = self._handle(req if isinstance(req, dict) else {})
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            reply = {"ok": False, "error": f"the request is not one JSON line ({e})"}
        except OSError:
            return
        except Exception as e:  # a bug in fdegym or the task: the caller sees it, the episode stays up
            import traceback
            traceback.print_exc()
            reply = {"ok": False, "error": f"internal error: {type(e).__name__}: {e}"}
        try:
            conn.sendall(json.dumps(reply, default=str).encode("utf-8") + b"\n")
        except OSError:
            pass

    def _handle(self, req: dict[str, Any]) -> dict[str, Any]:
        op = req.get("op")
        if op == "ping":
            return {"ok": True, "state": self.state}
        if op == "brief":
            return {"ok": True, "text": self.host.brief}
        if op == "act":
            action = req.get("action")
            if isinstance(action, str):  # the shell's JSON text: the env parses what it can, and says what it cannot
                try:
                    action = json.loads(action)
                except json.JSONDecodeError:
                    pass
            step = self.host.act(action)
            if step.ended:
                self.stop_after_reply = "ended"
            return {"ok": True, **step.to_json()}
        if op == "stop":
            last = self.host.act({"tool": "submit", "note": req.get("note") or ""}) if req.get("submit") else None
            self.stop_after_reply = "ended" if self.host.ended else "stopped"
            return {"ok": True, "step": last.to_json() if last else None}
        return {"ok": False, "error": f"unknown op {op!r} (expected ping, brief, act, stop)"}


class _Terminated(Exception):
    pass


def _on_sigterm(signum, frame):
    raise _Terminated()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m fdegym_env.serving.episode_daemon",
                                description="Hold one named episode (started by `fdegym episode start`).")
    p.add_argument("task")
    p.add_argument("--name", required=True)
    p.add_argument("--dir", required=True)
    p.add_argument("--level", default="L3")
    p.add_argument("--variant", default="base")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--sandbox", default="auto")
    p.add_argument("--router", default=None)
    p.add_argument("--agent", default="external")
    p.add_argument("--idle-timeout", type=float, default=DEFAULT_IDLE_TIMEOUT_S)
    p.add_argument("--max-wall-seconds", type=float, default=None)
    a = p.parse_args(argv)
    signal.signal(signal.SIGTERM, _on_sigterm)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    return _Daemon(a).run()


if __name__ == "__main__":
    sys.exit(main())
