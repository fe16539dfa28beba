"""What the executor and the grading worker share: length-prefixed frames, a child's supervision
loop, and the socket pump of a granted port.

A program that runs inside the sandbox is sent as source text, so this file is not imported there:
``source()`` (this package's ``__init__``) puts its text in place of the program's ``from .common
import ...`` line. The host imports it as an ordinary module.

A frame is ``<8-byte big-endian length><body>``; a body is ``<JSON header>\\n<raw bytes>``.

Example:
    >>> data = frame({"ok": True}, b"raw")
    >>> data[:8], split_frame(data[8:])
    (b'\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x10', ({'ok': True}, b'raw'))
"""
import json
import os
import select
import socket
import struct
import time

TYPE_CHECKING = False
if TYPE_CHECKING:   # annotations only (see __init__.py)
    from typing import Any, Callable, Dict, Optional, Tuple


class Capped(object):
    """The head and the tail of a stream, ``cap`` bytes in all."""

    def __init__(self, cap: int) -> None:
        self.half = max(1, cap // 2)
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.half - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > self.half:
                del self.tail[:len(self.tail) - self.half]

    def text(self) -> "Tuple[str, bool]":
        cut = self.total - len(self.head) - len(self.tail)
        head = self.head.decode("utf-8", "replace")
        if cut <= 0:
            return head + self.tail.decode("utf-8", "replace"), False
        return head + "\n[... %d bytes of output cut ...]\n" % cut + self.tail.decode("utf-8", "replace"), True


def frame(header: "Any", body: bytes = b"") -> bytes:
    data = json.dumps(header).encode("utf-8") + b"\n" + body
    return struct.pack(">Q", len(data)) + data


def split_frame(body: bytes) -> "Tuple[Any, bytes]":
    """A frame's body -> (its JSON header, the raw bytes after it)."""
    line, _, rest = body.partition(b"\n")
    return json.loads(line.decode("utf-8")), rest


def read_exact(fd: int, n: int) -> "Optional[bytes]":
    """``n`` bytes from a blocking ``fd``, or None at end of file."""
    buf = bytearray()
    while len(buf) < n:
        chunk = os.read(fd, min(n - len(buf), 1 << 20))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)


def read_body(fd: int) -> "Optional[bytes]":
    """One frame's body from a blocking ``fd``, or None at end of file."""
    head = read_exact(fd, 8)
    return read_exact(fd, struct.unpack(">Q", head)[0]) if head else None


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def read_frame(fd: int, buf: bytearray, deadline: float) -> bytes:
    """One frame's body from ``fd`` by ``deadline`` (``buf`` keeps the bytes read past it).
    Raises TimeoutError, or EOFError when the other end closed."""
    need = None
    while True:
        if need is None and len(buf) >= 8:
            need = 8 + struct.unpack(">Q", bytes(buf[:8]))[0]
        if need is not None and len(buf) >= need:
            body = bytes(buf[8:need])
            del buf[:need]
            return body
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no answer in time")
        try:
            ready, _, _ = select.select([fd], [], [], left)
        except InterruptedError:
            continue
        if ready:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise EOFError("closed")
            buf += chunk


def write_frame(fd: int, data: bytes, deadline: float) -> None:
    """All of ``data`` to a non-blocking ``fd`` by ``deadline``. Raises TimeoutError or OSError."""
    view = memoryview(data)
    while view:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("not read in time")
        try:
            _, ready, _ = select.select([], [fd], [], left)
        except InterruptedError:
            continue
        if ready:
            view = view[os.write(fd, view[:1 << 16]):]


def supervise(pid: int, sinks: "Dict[int, Optional[Callable[[bytes], Any]]]", wake_r: int, deadline: float,
              hard: int, on_exit: "Callable[[int], None]", stdin: bytes = b"",
              win: "Optional[int]" = None) -> "Tuple[Optional[int], bool, bool, Optional[int]]":
    """Run child ``pid`` to its end: drain each fd of ``sinks`` into its callable (None: counted, dropped)
    until end of file, feed ``stdin`` to the non-blocking ``win`` as the child reads it, and call
    ``on_exit(pid)`` as soon as the child has exited (it kills what the child left behind, which closes
    the pipes). Stops at ``deadline`` (timed out) or once more than ``hard`` bytes came (flood).
    ``wake_r`` is the signal wake-up pipe (SIGCHLD wakes the select).

    Returns (wait status or None if the child still runs, timed_out, flood, ``win`` or None once closed).
    """
    readers = set(sinks)
    status = None
    timed_out = flood = False
    total = pos = 0
    while readers or status is None:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        try:
            r, w, _ = select.select(list(readers) + [wake_r], [win] if win is not None else [], [], left)
        except InterruptedError:
            continue
        if wake_r in r:
            try:
                os.read(wake_r, 4096)
            except OSError:
                pass
        if status is None:
            try:
                p, st = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                p, st = pid, 0
            if p == pid:
                status = st
                on_exit(pid)   # the child is over: nothing it started may outlive it
        for fd in r:
            if fd not in readers:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                readers.discard(fd)
                continue
            total += len(chunk)
            sink = sinks[fd]
            if sink is not None:
                sink(chunk)
        if w and win is not None:
            try:
                pos += os.write(win, stdin[pos:pos + 65536])
            except OSError:
                pos = len(stdin)
            if pos >= len(stdin):
                os.close(win)
                win = None
        if total > hard:
            flood = True
            break
    return status, timed_out, flood, win


def pump(a: socket.socket, b: socket.socket) -> None:
    """Copy ``a`` to ``b`` until ``a`` ends, then shut both down (one direction of a bridged connection)."""
    try:
        while True:
            data = a.recv(65536)
            if not data:
                break
            b.sendall(data)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
