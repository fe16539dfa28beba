"""No isolation: commands run on the host in the workspace. Explicit opt-in only; it warns."""

from __future__ import annotations

import os
import warnings

from fdegym_env.sandbox.base import OUTPUT_CAP, SANDBOX_ENV, RunResult, Sandbox, run_process


class NoSandbox(Sandbox):
    name = "none"

    def start(self, workspace, allow_ports=()):
        warnings.warn("sandbox='none': the agent's commands and the delivered code run on this host "
                      "with your permissions; scores from such runs are marked isolation='none'.",
                      stacklevel=3)
        super().start(workspace, allow_ports)

    def run(self, command, *, timeout_s=30.0, stdin=None, cwd=".", cap=OUTPUT_CAP) -> RunResult:
        argv = ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)
        env = dict(SANDBOX_ENV, HOME=str(self.workspace), TMPDIR=os.environ.get("TMPDIR", "/tmp"),
                   FDEGYM_WORKSPACE=str(self.workspace))
        return run_process(argv, stdin=stdin, timeout_s=timeout_s, cap=cap, env=env,
                           cwd=str(self.workspace / cwd))

    def isolation(self) -> str:
        return "none"
