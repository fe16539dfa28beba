"""The wheel installs fdegym_env with its sub-packages mapped from top-level folders (docs/design.md, Layout)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_wheel_imports_like_editable_install(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                    "-w", str(dist), str(ROOT)], check=True)
    wheel = next(dist.glob("fdegym-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert "wrappers" not in tops and "agents" not in tops and "tasks" not in tops, tops
    assert any(n.startswith("fdegym_env/tasks/") and n.endswith("task.yaml") for n in names) or \
        not list((ROOT / "tasks").glob("*/task.yaml"))
    subs = sorted(p.parent.relative_to(ROOT).as_posix() for p in (ROOT / "fdegym_env").rglob("__init__.py")
                  if "__pycache__" not in p.parts)
    missing = [s for s in subs if f"{s}/__init__.py" not in names]
    assert not missing, f"sub-packages left out of the wheel (add them to pyproject's packages): {missing}"
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True)
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import fdegym_env, fdegym_env.wrappers, fdegym_env.agents, "
            "fdegym_env.tasks; from fdegym_env.core.registry import list_tasks, tasks_dir; "
            "assert fdegym_env.__file__.startswith(sys.argv[1]), fdegym_env.__file__; "
            "assert str(tasks_dir()).startswith(sys.argv[1]); "
            "from fdegym_env.core.registry import load_task; load_task('helpdesk_tutorial').module('grader'); "
            "print(len(list_tasks()))")
    out = subprocess.run([sys.executable, "-c", code, str(target)], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    shipped = len(list((ROOT / "tasks").glob("*/task.yaml")))
    assert int(out.stdout.strip()) == shipped


def test_version_flag_names_the_installed_version():
    import subprocess
    import sys

    import fdegym_env
    out = subprocess.run([sys.executable, "-m", "fdegym_env.cli.main", "--version"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"fdegym {fdegym_env.__version__}"


def test_license_file_matches_the_declared_license():
    from pathlib import Path

    import tomllib
    root = Path(__file__).resolve().parents[2]
    declared = tomllib.loads((root / "pyproject.toml").read_text())["project"]["license"]["text"]
    assert declared == "Apache-2.0"
    assert "Apache License" in (root / "LICENSE").read_text() and "Version 2.0" in (root / "LICENSE").read_text()
