"""Run the official FDE-Gym cases (the reference harness's case format) as Gymnasium environments.

    import gymnasium as gym, fdegym_env
    fdegym_env.register_cases("/data/fde-gym-cases")        # or FDEGYM_CASES=/data/fde-gym-cases
    env = gym.make("FDEGymCases/oncall_incident-v0", level="L3")

Each case folder (``engagement.json``, ``build_world.py``, ``briefs/``, ``npcs.json``,
``truth.json``, ``grader.py``, ...) is loaded as it is (:class:`Case`); the env, ``fdegym run``,
``fdegym validate``, the agents and the batch runner work on it unchanged. See
``docs/official_cases.md``.
"""

from __future__ import annotations

import os
from pathlib import Path

from fdegym_env.core import registry
from fdegym_env.harness.case import NAMESPACE, Case, is_case_dir, load_case

# a harness case folder given by path to load_task / gym_id / `fdegym run` (docs/official_cases.md)
registry.register_loader("harness_case", is_case_dir, load_case)

_CASES: dict[str, Case] = {}


def register_cases(path: str | os.PathLike, namespace: str = NAMESPACE) -> list[str]:
    """Register every case under ``path`` (a folder of cases, or one case folder) as
    ``<namespace>/<case>-v<version>``; returns the Gymnasium ids. Already registered ids are kept.

    Example:
        >>> ids = register_cases("tests/harness")          # doctest: +SKIP
        >>> ids                                            # doctest: +SKIP
        ['FDEGymCases/fixture_case-v0']
    """
    root = Path(path).expanduser()
    if not root.is_dir():
        raise ValueError(f"register_cases: expected a folder of harness cases (or one case folder), got {str(root)!r}")
    folders = [root] if is_case_dir(root) else sorted(p for p in root.iterdir() if is_case_dir(p))
    ids = []
    for folder in folders:
        case = load_case(folder, namespace)
        _CASES[case.gym_id] = case
        registry.add_task(case, case.gym_id, case.gym_id.rsplit("-v", 1)[0], str(case.path))
        ids.append(case.gym_id)
    return ids


def register_from_env() -> list[str]:
    """Register the folders in ``$FDEGYM_CASES`` (``os.pathsep``-separated). A folder that cannot be
    registered is reported with a warning (importing fdegym must not fail over a setting)."""
    import warnings
    ids: list[str] = []
    for part in filter(None, os.environ.get("FDEGYM_CASES", "").split(os.pathsep)):
        try:
            ids += register_cases(part)
        except ValueError as e:
            warnings.warn(f"FDEGYM_CASES: {e}", stacklevel=2)
    return ids


def list_cases() -> list[str]:
    """Gymnasium ids of the cases registered in this process."""
    return sorted(_CASES)


__all__ = ["Case", "load_case", "is_case_dir", "register_cases", "register_from_env", "list_cases", "NAMESPACE"]
