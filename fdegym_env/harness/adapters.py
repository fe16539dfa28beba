"""The harness's build, grading and pilot code paths, driven from fdegym's task interface.

:func:`harness_grade` is ``grade_workspace`` of the reference harness: the grader sees a replay copy
of the workspace with a fresh production gateway and production services wired in, returns
``kpi``, ``kpi_baseline``, ``kpi_oracle``, ``incidents``, ``summary``, ``gates``; then variant
anchors override, ``uplift`` (rounded to 4 places), ``uplift_bounded``, the incident cap,
``framing``, ``discovery`` and ``uplift_net`` follow the harness's formulas
(:func:`fdegym_env.harness.scoring.harness_scores`).

Example:
    >>> out = harness_grade(case, case.variant("base"), ws, "bwrap")     # doctest: +SKIP
    >>> out["uplift"], out["kpi_oracle"]                                  # doctest: +SKIP
"""

from __future__ import annotations

import inspect
import json
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fdegym_env.core.paths import cache_dir, episodes_dir
from fdegym_env.core.task import Variant
from fdegym_env.harness.delivered import DeliveredPython, swapped_executable
from fdegym_env.harness.envvars import variant_env
from fdegym_env.harness.episode import CURRENT, CaseEpisode
from fdegym_env.harness.scoring import harness_scores, score_discovery
from fdegym_env.harness.servers import Gateway, Services, wire_llm, wire_services

if TYPE_CHECKING:  # annotations only: case.py imports this module
    from fdegym_env.harness.case import Case

_LOCAL = threading.local()


def current_episode(case: Case) -> Any:
    """The :class:`~fdegym_env.harness.episode.CaseEpisode` this call belongs to, if any: set by the
    people server's thread, else found as the env whose method is on the call stack."""
    ep = getattr(CURRENT, "episode", None)
    if ep is not None and ep.case is case:
        return ep
    f = inspect.currentframe()
    while f is not None:
        hook = getattr(f.f_locals.get("self"), "_episode_hook", None)
        if isinstance(hook, CaseEpisode) and hook.case is case:
            return hook
        f = f.f_back
    return None


def build_world(case: Case, params: dict[str, Any], ws: Path) -> None:
    """The workspace as the harness's ``new`` builds it (bin/ and deliverables/ first, then ``build``)."""
    variant = case.variant_for(params)
    (ws / "bin").mkdir(parents=True, exist_ok=True)
    (ws / "deliverables").mkdir(parents=True, exist_ok=True)
    with variant_env(variant), case.imports():
        case.load_case_module("build_world").build(str(ws))


def _helper_env() -> dict[str, str]:
    return dict(os.environ)


def harness_grade(case: Case, variant: Variant, replay_ws: Path, sandbox: str, *, level: str = "L3",
                  facts: set[str] | None = None, ledger: list[dict] | None = None,
                  reference_solution: str | None = None, framing_ws: Path | None = None) -> dict[str, Any]:
    """Grade ``replay_ws`` (already a private copy) the way the harness does; returns its result dict."""
    cfg = case.cfg
    tmp = Path(tempfile.mkdtemp(prefix="fdegym-case-grade-", dir=episodes_dir()))
    gateway, services = None, None
    try:
        log_dir = tmp / "logs"
        log_dir.mkdir()
        run_dir = None
        if ledger is not None:
            run_dir = tmp / "run"
            (run_dir / "logs").mkdir(parents=True)
            with open(run_dir / "logs" / "ask.jsonl", "w", encoding="utf-8") as f:
                for rec in harness_log(ledger):
                    f.write(json.dumps(rec, ensure_ascii=False) + "\n")
        ctx: dict[str, Any] = {"judge_log": str(log_dir / "judge_llm.jsonl"), "facts": set(facts or ()),
                               "run_dir": str(run_dir) if run_dir else None, "services": {}}
        ports: list[int] = []
        with variant_env(variant), case.imports():
            if cfg.get("llm"):
                gateway = Gateway(int(cfg.get("prod_llm_calls", 600)), float(cfg.get("prod_llm_usd", 0.30)),
                                  str(log_dir / "prod_llm.jsonl"), "prod")
                wire_llm(replay_ws, gateway.port)
                ports.append(gateway.port)
            if cfg.get("services"):
                services = Services(case.path, cfg["services"], "prod", tmp / "state", log_dir, _helper_env(), "prod_")
                wire_services(replay_ws, services.ports)
                ctx["services"] = services.info
                ports += list(services.ports.values())
            ctx["level"] = level
            if reference_solution:
                ctx["reference_solution"] = reference_solution
            grader = case.load_case_module("grader")
            import sys
            shim = "llm" not in sys.modules
            if shim:
                sys.modules["llm"] = _llm_shim()
            try:
                with DeliveredPython(replay_ws, sandbox, ports) as exe, swapped_executable(exe):
                    if cfg.get("llm") or len(inspect.signature(grader.grade).parameters) >= 2:
                        out = grader.grade(str(replay_ws), ctx)
                    else:
                        out = grader.grade(str(replay_ws))
            finally:
                if shim:
                    sys.modules.pop("llm", None)
            isolation = f"fdegym sandbox ({sandbox}) for delivered code; environment built from nothing"
        if not isinstance(out, dict) or "kpi" not in out:
            raise ValueError(f"{case.path / 'grader.py'}: grade() must return a dict with 'kpi', 'kpi_baseline', "
                             f"'kpi_oracle'; got {str(out)[:200]}")
        out = dict(out)
        out.setdefault("gates", {}).setdefault("isolation", isolation)
    finally:
        if services is not None:
            services.close()
        if gateway is not None:
            gateway.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return harness_scores(out, variant, case.truth_raw, framing_ws or replay_ws,
                          score_discovery(harness_log(ledger), case.truth_raw) if ledger is not None else None)


def _llm_shim():
    """A stand-in for the harness's ``llm`` module, for graders that call a model themselves."""
    from types import SimpleNamespace

    from fdegym_env.harness.servers import chat

    def chat_json(messages, max_tokens=400, log_path=None, tag="", **kw):
        text, usage = chat(messages, max_tokens=max_tokens, json_mode=True, log_path=log_path, tag=tag)
        s = text[text.find("{"):text.rfind("}") + 1] if "{" in text else text
        try:
            return json.loads(s), usage
        except ValueError:
            raise RuntimeError("the model did not return JSON: %r" % text[:200]) from None

    def chat_(messages, model=None, max_tokens=400, temperature=0.0, json_mode=False, log_path=None, tag="", **kw):
        return chat(messages, max_tokens=max_tokens, temperature=temperature, json_mode=json_mode,
                    log_path=log_path, tag=tag)

    return SimpleNamespace(chat=chat_, chat_json=chat_json, DEFAULT_MODEL=os.environ.get("FDEGYM_LLM_MODEL", ""))


def harness_log(ledger: list[dict] | None) -> list[dict[str, Any]]:
    """fdegym's people ledger as the harness's ``logs/ask.jsonl`` records (trials are ``pilot``)."""
    out = []
    for r in ledger or []:
        to = "pilot" if r["to"] == "trial" else r["to"]
        rec = {"ts": 0.0, "at": r.get("at"), "to": to, "question": r.get("message", ""), "topics": list(r.get("tags", [])),
               "facts": list(r.get("facts", [])), "n_asked": r.get("n_asked", 0), "cost": r.get("cost", 0.0)}
        if to == "pilot":
            rec["pilot"] = r.get("stats")
        out.append(rec)
    return out


def grade(case: Case, deploy: Any, params: dict[str, Any]) -> dict[str, Any]:
    """fdegym's ``grader.grade(deploy, params, traffic)`` for a case: the harness's grading on the
    deployment's private copy, with the episode's level, facts and question log when there is one."""
    variant = case.variant_for(params)
    ep = current_episode(case)
    kw: dict[str, Any] = {}
    if ep is not None and ep.env.people is not None:
        kw = {"level": getattr(ep.env, "episode_level", "L3"), "facts": set(ep.env.people.known),
              "ledger": [dict(r) for r in ep.env.people.ledger]}
    out = harness_grade(case, variant, Path(deploy.workspace), deploy.sandbox.name, **kw)
    last = _LOCAL.__dict__.setdefault("last", {})
    last[variant.key] = out
    return {"kpi": float(out["kpi"]), "incidents": [str(i) for i in out.get("incidents") or []],
            "summary": str(out.get("summary", "")), "details": {"harness": out}}


def pilot_day(case: Case, deploy: Any, params: dict[str, Any], day: int) -> dict[str, Any]:
    """fdegym's ``trial.run`` for a case: the harness's ``pilot.run(workspace, day)`` on the
    deployment's copy, delivered code in the sandbox with the episode's dev services reachable."""
    variant = case.variant_for(params)
    ep = current_episode(case)
    ports = list(ep.dev_ports) if ep is not None else []
    with variant_env(variant), case.imports():
        mod = ep.pilot_module() if ep is not None else case.load_case_module("pilot")
        with DeliveredPython(deploy.workspace, deploy.sandbox.name, ports) as exe, swapped_executable(exe):
            out = mod.run(str(deploy.workspace), day)
    out = dict(out or {})
    out["feedback"] = str(out.get("feedback", ""))
    return out


def anchors(case: Case, variant: Variant, sandbox: str = "auto") -> dict[str, Any]:
    """``kpi_baseline`` and ``kpi_reference`` (the harness's ``kpi_oracle``) as the case's grader
    reports them: from the variant's params if it carries anchors, else from the grading that just
    ran in this thread, else from grading the untouched world once (cached per case content)."""
    p = variant.params
    out: dict[str, Any] = {}
    last = getattr(_LOCAL, "last", {}).pop(variant.key, None)
    if last is None and not ("kpi_baseline" in p and "kpi_oracle" in p):
        path = cache_dir() / "anchors" / f"case-{case.id}-{case.content_hash}-{variant.key}.json"
        if path.exists():
            last = json.loads(path.read_text())
        else:
            from fdegym_env.core.workspace import world_snapshot
            with tempfile.TemporaryDirectory(prefix="fdegym-case-anchor-", dir=episodes_dir()) as tmp:
                ws = Path(tmp) / "workspace"
                shutil.copytree(world_snapshot(case, variant), ws, symlinks=True)
                from fdegym_env.sandbox import resolve_backend
                g = harness_grade(case, variant, ws, resolve_backend(sandbox))
            last = {"kpi_baseline": g["kpi_baseline"], "kpi_oracle": g["kpi_oracle"]}
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp_path = path.with_suffix(f".{os.getpid()}.{time.monotonic_ns()}.tmp")
            tmp_path.write_text(json.dumps(last))
            tmp_path.replace(path)
    base = p.get("kpi_baseline", (last or {}).get("kpi_baseline"))
    ora = p.get("kpi_oracle", (last or {}).get("kpi_oracle"))
    if base is None or ora is None:
        raise ValueError(f"{case.path / 'grader.py'}: grade() must return a dict with 'kpi', 'kpi_baseline', "
                         f"'kpi_oracle'; variant {variant.name!r} got kpi_baseline={base!r}, kpi_oracle={ora!r}")
    out.update(kpi_baseline=float(base), kpi_reference=float(ora), baseline_incidents=[], reference_incidents=[])
    return out
