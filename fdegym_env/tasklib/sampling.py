"""A sampler's context: the task's base params, named variants and held-out traffic, read once.

In ``sampler.py``::

    from fdegym_env.tasklib.sampling import SamplerContext

    ctx = SamplerContext.of(__name__)      # the task this module belongs to

    def sample(rng):
        name = rng.choice(["vendor_desk", "kiosk_form"])
        params = ctx.params(name, world_seed=rng.randrange(1, 10**6))
        return {"angle": ctx.angle(name), "params": params}

``redraw_until`` re-draws until the truth bites (e.g. the held-out traffic has the case the
variant is about), failing loudly instead of returning a toothless sample.
"""

from __future__ import annotations

import random
from typing import Any, Callable, TypeVar

T = TypeVar("T")


class SamplerContext:
    """Read-only view of a task for its sampler."""

    def __init__(self, task: Any):
        self.task = task

    @classmethod
    def of(cls, module_name: str) -> "SamplerContext":
        """The context of the task whose package holds the module ``module_name`` (``__name__``)."""
        from fdegym_env.core.task import task_of_module
        return cls(task_of_module(module_name))

    @property
    def base(self) -> dict[str, Any]:
        """The base variant's params (a copy)."""
        return dict(self.task.variants["base"].params)

    @property
    def variants(self) -> dict[str, dict[str, Any]]:
        """Named variant -> its full params (base merged in; copies)."""
        return {n: dict(v.params) for n, v in self.task.variants.items()}

    def own(self, name: str) -> dict[str, Any]:
        """Only the params variants.yaml gives ``name`` itself (base: all of base's)."""
        cache = self.__dict__.setdefault("_own", {})
        if name not in cache:
            from fdegym_env.core import yamlio
            raw = yamlio.safe_load((self.task.path / "variants.yaml").read_text(encoding="utf-8"))
            cache[name] = dict((raw.get(name) or {}).get("params") or {})
        return dict(cache[name])

    def params(self, name: str = "base", **overrides: Any) -> dict[str, Any]:
        """The named variant's full params with ``overrides`` applied."""
        return {**self.variants[name], **overrides}

    def angle(self, name: str) -> str:
        return self.task.variants[name].angle or "texture"

    def held_out(self, params: dict[str, Any]) -> Any:
        """The held-out traffic for ``params`` (the task's ``traffic.held_out`` with its seed)."""
        return self.task.module("traffic").held_out(dict(params), self.task.held_out_seed)


def redraw_until(predicate: Callable[[T], bool], draw: Callable[[random.Random], T], rng: random.Random,
                 tries: int = 50, what: str = "a draw") -> T:
    """``draw(rng)`` again until ``predicate`` holds; after ``tries`` failures, a RuntimeError
    (a sampler that cannot find a biting truth is a task bug, not a silent weak sample).

    >>> redraw_until(lambda n: n % 7 == 0, lambda r: r.randrange(100), random.Random(1))
    63
    """
    for _ in range(tries):
        value = draw(rng)
        if predicate(value):
            return value
    raise RuntimeError(f"redraw_until: no {what} satisfied the predicate in {tries} tries; "
                       "widen the draw or raise tries")
