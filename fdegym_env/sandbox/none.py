"""No isolation: commands run on the host in the workspace. Explicit opt-in only; it warns."""

from __future__ import annotations

import os
import warnings

from fdegym_env.sandbox.base import HARD_OUTPUT_LIMIT, OUTPUT_CAP, SANDBOX_ENV, RunResult, Sandbox, run_process
from fdegym_env.sandbox.worker import LocalWorker, WorkerLost, to_run_result


class NoSandbox(Sandbox):
    name = "none"

    def start(self, workspace, allow_ports=()):
        warnings.warn("sandbox='none': the agent's commands and the delivered code run on this host "
                      "with your permissions; scores from such runs are marked isolation='none'.",
                      stacklevel=3)
        super().start(workspace, allow_ports)

    _worker: LocalWorker | None = None
    _driver: str | None = None

    def _env(self) -> dict[str, str]:
        return dict(SANDBOX_ENV, PATH="/usr/bin:/bin",   # the host's own /usr/local stays out of it
                    HOME=str(self.workspace), TMPDIR=os.environ.get("TMPDIR", "/tmp"),
                    FDEGYM_WORKSPACE=str(self.workspace))

    def run(self, command, *, timeout_s=30.0, stdin=None, cwd=".", cap=OUTPUT_CAP) -> RunResult:
        argv = ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)
        return run_process(argv, stdin=stdin, timeout_s=timeout_s, cap=cap, env=self._env(),
                           cwd=str(self.workspace / cwd))

    def python_call(self, module, function, args, *, driver, timeout_s, cwd=".", hard=HARD_OUTPUT_LIMIT) -> RunResult:
        if self._worker is None or self._driver != driver:
            self.reset()
            try:
                self._worker = LocalWorker(str(self.workspace), driver, self._env(), hard)
            except WorkerLost as e:
                return RunResult(137, "", f"[sandbox] the grading worker did not start: {e}")
            self._driver = driver
        req = {"module": module, "function": function, "timeout_s": float(timeout_s), "cpu_s": int(timeout_s) + 2,
               "cwd": str(self.workspace / cwd)}
        try:
            head, result = self._worker.call(req, args, float(timeout_s) + 10.0)
        except WorkerLost as e:
            self._worker = None
            return RunResult(124 if e.timed_out else 137, "", f"[sandbox] the grading worker was lost: {e}",
                             timed_out=e.timed_out)
        return to_run_result(head, result)

    def reset(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None

    def isolation(self) -> str:
        return "none"
