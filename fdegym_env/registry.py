"""Finding tasks and registering them with Gymnasium as ``FDEGym/<id>-v<version>``."""

from __future__ import annotations

import difflib
from pathlib import Path

import gymnasium as gym

from fdegym_env.task import Task

NAMESPACE = "FDEGym"
_TASKS: dict[str, Task] = {}
_EXTRA_DIRS: list[Path] = []


def tasks_dir() -> Path:
    import fdegym_env.tasks as pkg
    return Path(pkg.__file__).parent


def task_paths() -> dict[str, Path]:
    """Every task folder shipped with the package (a folder with a task.yaml)."""
    out = {}
    for root in [tasks_dir(), *_EXTRA_DIRS]:
        for p in sorted(root.iterdir()):
            if (p / "task.yaml").is_file():
                out.setdefault(p.name, p)
    return out


def list_tasks() -> list[str]:
    return sorted(task_paths())


def load_task(task_id: str) -> Task:
    """Load (and cache) a task by id; unknown ids get a "did you mean"."""
    if task_id in _TASKS:
        return _TASKS[task_id]
    paths = task_paths()
    if task_id not in paths:
        p = Path(task_id)
        if (p / "task.yaml").is_file():  # a path to a task folder outside the package
            task = Task.load(p)
            _TASKS[task_id] = task
            return task
        from fdegym_env.compat import is_case_dir, load_case
        if is_case_dir(p):  # a folder in the reference harness's case format (docs/official_cases.md)
            _TASKS[task_id] = load_case(p)
            return _TASKS[task_id]
        near = difflib.get_close_matches(task_id, list(paths), n=1)
        hint = f" Did you mean {near[0]!r}?" if near else ""
        raise ValueError(f"Unknown task {task_id!r}.{hint} Known tasks: {', '.join(sorted(paths))}.")
    _TASKS[task_id] = Task.load(paths[task_id])
    return _TASKS[task_id]


def gym_id(task_id: str) -> str:
    """The registered Gymnasium id of a task (registering a task folder given by path)."""
    task = load_task(task_id)
    if task.gym_id not in gym.registry:
        gym.register(id=task.gym_id, entry_point="fdegym_env.env:FDEGymEnv", kwargs={"task": task_id},
                     max_episode_steps=int(task.limits["max_turns"]) + 1)
    return task.gym_id


def register_all() -> list[str]:
    """Register every shipped task. Task folders are only read for their id and version here."""
    ids = []
    for task_id, path in task_paths().items():
        import yaml
        with open(path / "task.yaml", encoding="utf-8") as f:
            data = yaml.safe_load(f) or {}
        version = int(data.get("version", 0))
        env_id = f"{NAMESPACE}/{task_id}-v{version}"
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point="fdegym_env.env:FDEGymEnv", kwargs={"task": task_id},
                         max_episode_steps=int((data.get("limits") or {}).get("max_turns", 150)) + 1)
        ids.append(env_id)
    return ids
