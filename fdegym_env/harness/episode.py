"""Per-episode machinery of a harness case, started by :class:`~fdegym_env.core.env.FDEGymEnv` at reset.

Why a port and not a file or socket in the workspace: the harness's ``bin/ask`` is an HTTP client
of ``127.0.0.1:<port>``, delivered code reaches the case's services the same way, and fdegym's
sandboxes already grant single ports (the executor listens on the port inside the sandbox's own
network namespace and relays to the host through a unix socket outside the workspace). So the
workspace holds only ordinary files (grading copies it; a socket file would not copy), the agent
cannot tamper with the channel, and a request is answered while the agent's command runs: no
polling between steps. The answer comes from the env's own :class:`~fdegym_env.people.People`
(one ledger, one simulated clock for ``bin/ask`` and the ``contact`` tool alike); costs incurred
by a ``run`` step are charged to that step's reward.

Example:
    >>> env = FDEGymEnv(task="tests/harness/fixture_case")    # doctest: +SKIP
    >>> env.reset(seed=0); env.step({"tool": "run", "command": "python3 bin/ask --who"})  # doctest: +SKIP
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fdegym_env.harness.clients import ask_client, pilot_client
from fdegym_env.harness.envvars import variant_env
from fdegym_env.harness.servers import Gateway, PeopleServer, Services, wire_llm, wire_services

if TYPE_CHECKING:  # annotations only: case.py imports this module
    from fdegym_env.harness.case import Case


CURRENT = threading.local()  # the episode whose pilot call runs on this thread (people server)


class CaseEpisode:
    """People server, ``bin/`` clients, dev gateway and dev services of one episode.

    Attributes:
        ports: host ports the agent's sandbox is granted (people, gateway, services).
        dev_ports: the ports delivered code may reach on a trial day (gateway, services).
    """

    def __init__(self, case: Case, env: Any) -> None:
        self.case, self.env = case, env
        self.lock = threading.RLock()
        ws: Path = env.workspace
        root = ws.parent
        server = PeopleServer(self)
        self.server: PeopleServer | None = server   # None once closed
        self.gateway: Gateway | None = None
        self.services: Services | None = None
        self._pilot_mod = None
        try:
            (ws / "bin").mkdir(exist_ok=True)
            (ws / "bin" / "ask").write_text(ask_client(server.port), encoding="utf-8")
            (ws / "bin" / "ask").chmod(0o755)
            if (case.path / "pilot.py").is_file():
                (ws / "bin" / "pilot").write_text(pilot_client(server.port), encoding="utf-8")
                (ws / "bin" / "pilot").chmod(0o755)
            cfg = case.cfg
            if cfg.get("llm"):
                self.gateway = Gateway(int(cfg.get("dev_llm_calls", 300)), float(cfg.get("dev_llm_usd", 0.25)),
                                       str(root / "logs" / "dev_llm.jsonl"), "dev")
                wire_llm(ws, self.gateway.port)
            if cfg.get("services"):
                import os
                with variant_env(env.variant):
                    svc_env = dict(os.environ)
                self.services = Services(case.path, cfg["services"], "dev", root / "state", root / "logs", svc_env)
                wire_services(ws, self.services.ports)
        except BaseException:
            self.close()
            raise
        self.dev_ports = ([self.gateway.port] if self.gateway else []) + (
            list(self.services.ports.values()) if self.services else [])
        self.ports = [server.port] + self.dev_ports

    # --- what bin/ask and bin/pilot call (the harness's JSON shapes) -----------------------------
    @property
    def people(self):
        return self.env.people

    def stamp(self) -> str | None:
        return self.people.stamp()

    def who(self) -> dict[str, Any]:
        with self.lock:
            p = self.people
            out = [{"id": d["id"], "name": d["name"], "role": d["role"], "about": d["blurb"],
                    "questions_left": d["questions_left"], "gone": d["gone"], "away": d["away"]}
                   for d in p.directory()]
            return {"stakeholders": out, "total_questions_left": p.total_questions_left(), "at": p.stamp(),
                    "inbox_new": p.inbox_new()}

    def ask(self, to: str, question: str) -> dict[str, Any]:
        with self.lock:
            p = self.people
            if to not in p.people:
                return {"error": "unknown stakeholder %r; run `ask --who`" % to}
            r = p.contact(to, str(question))
            return {"from": r.name, "answer": r.reply, "questions_left": r.questions_left,
                    "total_questions_left": r.total_questions_left, "at": r.at or None, "inbox_new": p.inbox_new()}

    def inbox(self) -> dict[str, Any]:
        with self.lock:
            msgs = self.people.read_inbox()
            return {"at": self.people.stamp(), "messages": msgs}

    def wait(self, hours: Any) -> dict[str, Any]:
        with self.lock:
            p = self.people
            if not p.has_clock:
                return {"error": "this engagement keeps no calendar"}
            p.wait(float(hours))
            return {"at": p.stamp(), "inbox_new": p.inbox_new()}

    def pilot(self) -> dict[str, Any]:
        if not (self.case.path / "pilot.py").is_file():
            return {"error": "no trial environment for this engagement"}
        with self.lock:
            CURRENT.episode = self
            try:
                day, feedback, _ = self.people.trial(self.env._run_trial_day)
            finally:
                CURRENT.episode = None
        return {"day": day, "feedback": feedback}

    def pilot_module(self):
        """The case's pilot module, imported once per episode (as the harness's server does)."""
        if self._pilot_mod is None:
            self._pilot_mod = self.case.load_case_module("pilot")
        return self._pilot_mod

    def close(self) -> None:
        for part in (self.server, self.gateway, self.services):
            if part is not None:
                try:
                    part.close()
                except Exception:
                    pass
        self.server = self.gateway = self.services = None
