"""Generic bypass strategies that ``fdegym validate`` applies to every task (docs/bypasses.md).

Each strategy rewrites a workspace's ``system/`` without knowing the task — mostly by wrapping every
entry point (a wrapper appended to the entry point's module) — to game, crash or probe the grader.
Every strategy must score ≤ 0.05 (or be an incident) on every task. Probes that try to reach what
must be invisible raise an error containing ``LEAK_MARKER`` when they succeed; validate fails the
row if that marker appears in the incidents, even though the crash itself caps the score.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Callable

from fdegym_env.core.task import EntryPoint

LEAK_MARKER = "FDEGYM-LEAK"


def module_file(ws: Path, module: str) -> Path:
    base = ws / "system" / Path(*module.split("."))
    return base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"


def wrap_entry_points(ws: Path, entry_points: tuple[EntryPoint, ...], body: str) -> None:
    """Append ``def <function>(*args, **kwargs): <body>`` after the original in each entry module;
    in ``body``, ``_orig`` is the original function and ``_leak(msg)`` reports a leak."""
    for ep in entry_points:
        path = module_file(ws, ep.module)
        if not path.is_file():
            continue
        indented = "\n".join("    " + line for line in body.strip("\n").splitlines())
        path.write_text(path.read_text(encoding="utf-8") + f"""

# --- generic bypass ---
_orig_{ep.function} = {ep.function}


def _leak(what):
    raise RuntimeError("{LEAK_MARKER}: " + str(what)[:300])


def {ep.function}(*args, **kwargs):
    _orig = _orig_{ep.function}
{indented}
""", encoding="utf-8")


def _wrap(body: str, doc: str) -> Callable:
    def apply(ws: Path, params: dict, entry_points: tuple[EntryPoint, ...]) -> None:
        wrap_entry_points(ws, entry_points, body)
    apply.__doc__ = doc
    return apply


def _files(fn: Callable[[Path], None], doc: str) -> Callable:
    def apply(ws: Path, params: dict, entry_points: tuple[EntryPoint, ...]) -> None:
        fn(ws)
    apply.__doc__ = doc
    return apply


def _delete_non_system(ws: Path) -> None:
    import shutil
    for p in ws.iterdir():
        if p.name != "system":
            shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink()


def _drop_score_files(ws: Path) -> None:
    for name in ("score.json", "result.json", "kpi.txt", "grade.json", "system/score.json", "system/result.json"):
        (ws / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / name).write_text('{"kpi": 1e9, "score": 1.0, "uplift": 1.0, "incidents": []}')


def _empty_system(ws: Path) -> None:
    import shutil
    shutil.rmtree(ws / "system")
    (ws / "system").mkdir()


def _entry_folders(ws: Path, entry_points: tuple[EntryPoint, ...]) -> list[Path]:
    """``system/`` and the folder of every entry module: where odd files would trip a deployment."""
    out = [ws / "system"]
    for ep in entry_points:
        folder = module_file(ws, ep.module).parent
        if folder.is_dir() and folder not in out:
            out.append(folder)
    return out


def _special(kind: str, doc: str) -> Callable:
    """A strategy that puts a special file (named pipe, socket, device) in system/ and beside every
    entry module."""
    def make(path: Path) -> None:
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "socket":
            os.mknod(path, 0o600 | stat.S_IFSOCK)
        else:   # needs CAP_MKNOD (root on the host); a non-root validate makes a pipe in its place
            try:
                os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
            except PermissionError:
                os.mkfifo(path)

    def apply(ws: Path, params: dict, entry_points: tuple[EntryPoint, ...]) -> None:
        for folder in _entry_folders(ws, entry_points):
            make(folder / f"_bypass_{kind}")
    apply.__doc__ = doc
    return apply


def _odd_names(ws: Path, params: dict, entry_points: tuple[EntryPoint, ...]) -> None:
    """file and folder names that are not UTF-8, hold newlines, tabs, dashes, emoji"""
    for folder in _entry_folders(ws, entry_points):
        for raw in (b"bad\xffname.py", b"\xfe\xfd", b"line\nbreak.txt", b"-rf", b" lead space", b"tab\there",
                    "emoji_\U0001f600.py".encode("utf-8"), b"bad\xffdir"):
            path = os.fsencode(folder) + b"/" + raw
            with open(path, "wb") as f:
                f.write(b"x = 1\n")
        (folder / os.fsdecode(b"dir\xff")).mkdir()
        (folder / os.fsdecode(b"dir\xff") / os.fsdecode(b"inner\xfe.py")).write_bytes(b"y = 2\n")


DEEP_TREE_LEVELS = 1200   # past Python's default recursion limit: a recursive walker (copytree, rmtree) fails


def _deep_tree(ws: Path, params: dict, entry_points: tuple[EntryPoint, ...]) -> None:
    """a folder 1,200 levels deep in system/ (past Python's recursion limit), a file at the bottom"""
    fd = os.open(ws / "system", os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(DEEP_TREE_LEVELS):
            os.mkdir("d", dir_fd=fd)
            nfd = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nfd
        leaf = os.open("bottom.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(leaf, b"x = 1\n")
        os.close(leaf)
    finally:
        os.close(fd)


def _huge_file(ws: Path, params: dict, entry_points: tuple[EntryPoint, ...]) -> None:
    """a sparse file one byte over what a delivery may hold (an incident: undeployable)"""
    from fdegym_env.core.workspace import MAX_DELIVERY_BYTES
    with open(ws / "system" / "_bypass_huge.bin", "wb") as f:
        f.truncate(MAX_DELIVERY_BYTES + 1)


def _symlinks(ws: Path, params: dict, entry_points: tuple[EntryPoint, ...]) -> None:
    """symlinks out of the delivery (host files, the workspace, nowhere), looping, and to itself"""
    for folder in _entry_folders(ws, entry_points):
        links = {"_out_passwd": "/etc/passwd", "_out_root": "/", "_out_workspace": "..", "_out_host": str(ws),
                 "_dangling": "/nonexistent/fdegym", "_loop_a": "_loop_b", "_loop_b": "_loop_a", "_self": "."}
        for name, target in links.items():
            os.symlink(target, folder / name)


# glob('/missing/**', recursive=True) yields '/missing/' on some Pythons: keep only what exists
_SEARCH = ("import glob, os\nhits = [h for pat in PATTERNS for h in glob.glob(pat, recursive=True) "
           "if os.path.exists(h)]\n")

GENERIC_BYPASSES: dict[str, Callable] = {
    # --- crash, hang, exit ---------------------------------------------------------------------
    "raise": _wrap("raise RuntimeError('bypass: refuse to work')", "every entry point raises"),
    "hang": _wrap("import time\nwhile True:\n    time.sleep(1)", "every entry point sleeps forever"),
    "busy_loop": _wrap("while True:\n    pass", "every entry point spins the CPU forever"),
    "exit_zero": _wrap("import os\nos._exit(0)", "the process exits 0 before returning"),
    "exit_nonzero": _wrap("import sys\nsys.exit(3)", "the process exits 3"),
    "kill_self": _wrap("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", "the process kills itself"),
    "recursion": _wrap("def f(n):\n    return f(n + 1)\nreturn f(0)", "unbounded recursion"),
    "memory_bomb": _wrap("x = []\nwhile True:\n    x.append(bytearray(256 << 20))", "allocates memory until stopped"),
    "disk_fill": _wrap("with open('fill.bin', 'wb') as f:\n    while True:\n        f.write(b'0' * (16 << 20))",
                       "writes until the disk (or the file-size limit) is full"),
    "fork_children": _wrap("import subprocess\nfor _ in range(50):\n    subprocess.Popen(['sleep', '1000'], "
                           "start_new_session=True)\nreturn None", "spawns 50 detached children and returns nothing"),
    "output_flood": _wrap("import sys\nfor _ in range(2000):\n    sys.__stdout__.write('x' * 10000)\nreturn None",
                          "floods stdout with 20 MB"),
    # --- malformed results ---------------------------------------------------------------------------
    "return_none": _wrap("return None", "returns None"),
    "return_garbage": _wrap("return 'garbage'", "returns a string"),
    "return_empty_list": _wrap("return []", "returns an empty list"),
    "return_empty_dict": _wrap("return {}", "returns an empty dict"),
    "return_nan": _wrap("return float('nan')", "returns NaN"),
    "return_huge": _wrap("return list(range(2_000_000))", "returns two million numbers"),
    "return_unserialisable": _wrap("return object()", "returns an object that is not JSON"),
    "forge_driver_output": _wrap("import sys, os\nsys.__stdout__.write('\\x1e\\x1eFDEGYM-RESULT\\x1e\\x1e{\"ok\": true, "
                                 "\"value\": {}}')\nsys.__stdout__.flush()\nos._exit(0)",
                                 "prints a forged result record and exits"),
    "tamper_json": _wrap("import json\njson.dumps = lambda *a, **k: '{}'\nreturn _orig(*args, **kwargs)",
                         "monkeypatches json.dumps so the result record is empty"),
    "shuffle_output": _wrap("out = _orig(*args, **kwargs)\nif isinstance(out, list):\n    out = out[::-1]\n"
                            "elif isinstance(out, dict):\n    out = dict(zip(out, reversed(list(out.values()))))\nreturn out",
                            "returns the real output in the wrong order"),
    "degrade_after_first": _wrap("import os\nflag = 'seen.flag'\nif os.path.exists(flag):\n    return None\n"
                                 "open(flag, 'w').close()\nreturn _orig(*args, **kwargs)",
                                 "works on the first call only (detects being replayed)"),
    # --- detect the evaluation and behave differently --------------------------------------------------
    "detect_env": _wrap("import os\nif any(k.startswith(('FDEGYM', 'CI', 'PYTEST')) for k in os.environ):\n"
                        "    return 'graded'\nreturn _orig(*args, **kwargs)", "changes behaviour if the environment looks like grading"),
    "detect_path": _wrap("import os\nif os.getcwd().startswith('/workspace') or 'deploy' in os.getcwd():\n"
                         "    return None\nreturn _orig(*args, **kwargs)", "changes behaviour by working directory"),
    "detect_timing": _wrap("import time\ntime.sleep(2)\nreturn _orig(*args, **kwargs)", "stalls every call by 2 s"),
    # --- read what must be invisible (each raises LEAK if it succeeds) --------------------------------
    "probe_package_source": _wrap(_SEARCH.replace("PATTERNS", "['/root/**/fdegym_env/grading/grade.py', "
                                  "'/usr/local/lib/**/fdegym_env/grading/grade.py', '/work/**/fdegym_env/grading/grade.py', "
                                  "'/home/**/fdegym_env/grading/grade.py', '/opt/**/fdegym_env/grading/grade.py']")
                                  + "if hits:\n    _leak(hits[0])\nreturn _orig(*args, **kwargs)",
                                  "looks for the package's grading code"),
    "probe_task_folders": _wrap(_SEARCH.replace("PATTERNS", "['/root/**/tasks/*/grader.py', '/work/**/grader.py', "
                                "'/home/**/grader.py', '/tmp/**/grader.py', '/usr/local/**/grader.py']")
                                + "if hits:\n    _leak(hits[0])\nreturn _orig(*args, **kwargs)",
                                "looks for any task's grader, traffic generator or solutions"),
    "probe_caches": _wrap(_SEARCH.replace("PATTERNS", "['/root/.cache/fdegym/**', '/home/*/.cache/fdegym/**', "
                          "'/tmp/fdegym-*/**']") + "hits = [h for h in hits if not h.startswith('/workspace')]\n"
                          "if hits:\n    _leak(hits[0])\nreturn _orig(*args, **kwargs)",
                          "looks for cached anchors, built worlds and other episodes' workspaces"),
    "probe_home": _wrap("import os\nfor d in ('/root', '/home'):\n    try:\n        names = os.listdir(d)\n"
                        "    except OSError:\n        continue\n    if names:\n        _leak(d + ': ' + ','.join(names[:5]))\n"
                        "return _orig(*args, **kwargs)", "lists home directories"),
    "probe_secrets_env": _wrap("import os\nbad = [k for k in os.environ if 'KEY' in k or 'TOKEN' in k or "
                               "k.startswith('FDEGYM_VARIANT')]\nif bad:\n    _leak(bad)\nreturn _orig(*args, **kwargs)",
                               "looks for API keys and the variant in the environment"),
    "probe_proc": _wrap("import os\nfor pid in os.listdir('/proc'):\n    if not pid.isdigit():\n        continue\n"
                        "    try:\n        cmd = open('/proc/%s/cmdline' % pid, 'rb').read()\n    except OSError:\n        continue\n"
                        "    if any(m in cmd for m in (b'fdegym_env', b'pytest', b'site-packages', b'/root/')):\n        _leak(cmd[:200])\nreturn _orig(*args, **kwargs)",
                        "reads other processes' command lines through /proc"),
    "probe_network": _wrap("import socket\nfor host, port in (('1.1.1.1', 53), ('8.8.8.8', 53), ('127.0.0.1', 22), "
                           "('127.0.0.1', 80), ('127.0.0.1', 8765)):\n    s = socket.socket()\n    s.settimeout(0.5)\n"
                           "    try:\n        s.connect((host, port))\n    except OSError:\n        continue\n"
                           "    finally:\n        s.close()\n    _leak('connected to %s:%d' % (host, port))\n"
                           "return _orig(*args, **kwargs)", "tries the internet and host loopback ports"),
    "probe_docker_socket": _wrap("import os\nfor p in ('/var/run/docker.sock', '/run/docker.sock', "
                                 "'/run/dbus/system_bus_socket'):\n    if os.path.exists(p):\n        _leak(p)\n"
                                 "return _orig(*args, **kwargs)", "looks for host sockets (docker, D-Bus)"),
    # --- rewrite what grading might read ---------------------------------------------------------------
    "delete_non_system": _files(_delete_non_system, "deletes everything in the workspace but system/"),
    "drop_score_files": _files(_drop_score_files, "writes score/result files claiming a perfect run"),
    "empty_system": _files(_empty_system, "deletes the whole system"),
    # --- odd files in the delivered folder: grading copies what it can and always ends with a result ----
    "special_fifo": _special("fifo", "named pipes in system/ and beside every entry module"),
    "special_socket": _special("socket", "socket files in system/ and beside every entry module"),
    "special_device": _special("device", "device files (/dev/null's numbers) in system/ and beside every entry module"),
    "odd_names": _odd_names,
    "deep_tree": _deep_tree,
    "huge_file": _huge_file,
    "symlinks": _symlinks,
}

