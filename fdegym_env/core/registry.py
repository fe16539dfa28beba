"""Finding tasks and registering them with Gymnasium as ``FDEGym/<id>-v<version>``.

Other task kinds (the reference harness's case folders, :mod:`fdegym_env.harness`) plug in through
:func:`register_loader`; this module imports none of them.

No ``TimeLimit`` is registered (``max_episode_steps=None``): the env ends every episode at its own
``max_turns`` (which ``gym.make(id, max_turns=N)`` may change) and grades it there. A ``TimeLimit``
fixed at registration would cut a longer episode off ungraded, so return != score. Pass
``gym.make(id, max_episode_steps=N)`` to add one knowingly.

Example:
    >>> import fdegym_env
    >>> gym_id("helpdesk_tutorial")
    'FDEGym/helpdesk_tutorial-v0'
    >>> gym_id("helpdesk_tutoral")
    Traceback (most recent call last):
    ...
    ValueError: Unknown task 'helpdesk_tutoral'. Did you mean 'helpdesk_tutorial'? Known tasks: ...
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import gymnasium as gym

from fdegym_env.core.errors import did_you_mean
from fdegym_env.core.task import Task

NAMESPACE = "FDEGym"
ENTRY_POINT = "fdegym_env.core.env:FDEGymEnv"
_TASKS: dict[str, Task] = {}
_EXTRA_DIRS: list[Path] = []


@dataclass(frozen=True)
class Loader:
    """A task kind other than a task folder: ``accepts(path)`` says whether a folder is one,
    ``load(path)`` loads it as a :class:`~fdegym_env.core.task.Task`."""

    name: str
    accepts: Callable[[Path], bool]
    load: Callable[[Path], Task]


_LOADERS: dict[str, Loader] = {}


def register_loader(name: str, accepts: Callable[[Path], bool], load: Callable[[Path], Task]) -> None:
    """Teach :func:`load_task` another folder format (registering the same name again replaces it)."""
    _LOADERS[name] = Loader(name, accepts, load)


def add_task(task: Task, *keys: str) -> None:
    """Make a loaded task known under ``keys`` (ids, paths) and register its Gymnasium id."""
    for key in keys:
        _TASKS[key] = task
    register_task(task, str(task.path))


def register_task(task: Task, task_arg: str | None = None) -> str:
    """Register ``task.gym_id`` with Gymnasium (no-op if registered); returns the id."""
    if task.gym_id not in gym.registry:
        gym.register(id=task.gym_id, entry_point=ENTRY_POINT, kwargs={"task": task_arg or task.id},
                     max_episode_steps=None)
    return task.gym_id


def tasks_dir() -> Path:
    import fdegym_env.tasks as pkg
    return Path(pkg.__file__).parent


def task_paths() -> dict[str, Path]:
    """Every task folder shipped with the package (a folder with a task.yaml)."""
    out: dict[str, Path] = {}
    for root in [tasks_dir(), *_EXTRA_DIRS]:
        for p in sorted(root.iterdir()):
            if (p / "task.yaml").is_file():
                out.setdefault(p.name, p)
    return out


def list_tasks() -> list[str]:
    return sorted(task_paths())


def load_task(task_id: str) -> Task:
    """Load (and cache) a task by id or folder path; unknown ids get a "did you mean"."""
    if task_id in _TASKS:
        return _TASKS[task_id]
    paths = task_paths()
    if task_id not in paths:
        p = Path(task_id)
        if (p / "task.yaml").is_file():  # a path to a task folder outside the package
            task = Task.load(p)
            _TASKS[task_id] = task
            return task
        for loader in _LOADERS.values():
            if loader.accepts(p):
                _TASKS[task_id] = loader.load(p)
                return _TASKS[task_id]
        hint = did_you_mean(task_id, list(paths))
        raise ValueError(f"Unknown task {task_id!r}.{hint} Known tasks: {', '.join(sorted(paths))}.")
    _TASKS[task_id] = Task.load(paths[task_id])
    return _TASKS[task_id]


def gym_id(task_id: str) -> str:
    """The registered Gymnasium id of a task (registering a task folder given by path)."""
    task = load_task(task_id)
    return register_task(task, task_id)


def register_all() -> list[str]:
    """Register every shipped task. Task folders are only read for their id and version here."""
    from fdegym_env.core import yamlio
    ids = []
    for task_id, path in task_paths().items():
        with open(path / "task.yaml", encoding="utf-8") as f:
            data = yamlio.safe_load(f) or {}
        version = int(data.get("version", 0))
        env_id = f"{NAMESPACE}/{task_id}-v{version}"
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=ENTRY_POINT, kwargs={"task": task_id}, max_episode_steps=None)
        ids.append(env_id)
    return ids
