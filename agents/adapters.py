"""Adapters that let LLM-RL stacks drive one FDEGym env instance.

* :func:`make_trl_environment_factory` — TRL ``GRPOTrainer(environment_factory=...)`` style (the contract
  of TRL's ``examples/scripts/openenv/echo_env_factory.py`` on trl main, 2026): a class built with no
  arguments; ``reset(**row)`` gets the dataset row's columns and returns the brief (text added to the
  prompt); every public method with type hints and a Google docstring is a tool; reward functions
  receive ``environments`` and call ``get_reward()``.
* :class:`SkyRLTextEnv` — SkyRL-Gym ``BaseTextEnv`` style (``skyrl_gym/envs/base_text_env.py``):
  ``__init__(env_config, extras)``, ``init(prompt) -> (conversation, metadata)``,
  ``step(text) -> {"observations", "reward", "done", "metadata", "postprocessed_action"}``, ``close()``.
  :class:`GEMTextEnv` — GEM style: ``reset(seed) -> (text, info)``, ``step(text) -> (text, reward,
  terminated, truncated, info)``.

Neither framework needs to be installed; tests/agents exercise these contracts directly. The sum of
the rewards of a finished episode equals its score; ``get_reward()`` (TRL) and ``score_now()`` grade
a rollout cut off before ``submit`` as it stands.

Example:
    >>> Env = make_trl_environment_factory("news_incident", level="L3")                 # doctest: +SKIP
    >>> trainer = GRPOTrainer(model=..., train_dataset=ds, environment_factory=Env,
    ...                       reward_funcs=lambda environments, **kw: [e.get_reward() for e in environments])  # doctest: +SKIP
"""

from __future__ import annotations

import inspect
from typing import Any, Optional

from fdegym_env.wrappers.chat import SYSTEM_PROMPT, ChatEnv, clip_text

from fdegym_env.core.actions import TOOLS, tool_schemas

_PY_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool}
ENDED = "The engagement has ended; nothing more can be done in this episode."


def _make_env(task: Any, level: str, variant: str, env_kwargs: dict[str, Any]):
    """The episode an adapter drives: in this process, or on an OpenEnv server when ``base_url`` is given."""
    if env_kwargs.get("base_url"):
        from fdegym_env.serving.openenv_client import RemoteFDEGymEnv
        extra = sorted(set(env_kwargs) - {"base_url"})
        if extra:
            raise ValueError(f"a remote env is configured on its server; drop {', '.join(extra)} "
                             "(or pass them to `fdegym serve-env`)")
        return RemoteFDEGymEnv(env_kwargs["base_url"], task=str(getattr(task, "id", task)), level=level,
                               variant=variant)
    from fdegym_env.core.env import FDEGymEnv
    return FDEGymEnv(task=task, level=level, variant=variant, **env_kwargs)


# --- TRL -------------------------------------------------------------------------------------------
class TRLEnvironment:
    """One FDEGym episode per instance, in TRL's ``environment_factory`` shape.

    Configure with :func:`make_trl_environment_factory`; the tool methods (``list_files``, ``read_file``,
    ..., ``submit``) are generated from :data:`fdegym_env.core.actions.TOOLS`, so they match
    :func:`fdegym_env.tool_schemas` exactly. Tool methods never raise for agent mistakes: the error text
    is the return value.
    """

    task: Any = "news_incident"
    level: str = "L3"
    variant: str = "base"
    env_kwargs: dict[str, Any] = {}
    max_tool_chars: int | None = 12_000

    def __init__(self):
        self._env = None
        self._done = False
        self._return = 0.0
        self._result: dict[str, Any] | None = None

    def reset(self, **row: Any) -> str:
        """Start an episode. Row columns ``seed``, ``level``, ``variant`` (and ``task``) are used; others ignored.

        Returns:
            The brief and the workspace listing, to append to the prompt.
        """
        task = row.get("task") or self.task
        if self._env is None or row.get("task"):
            if self._env is not None:
                self._env.close()
            self._env = _make_env(task, self.level, self.variant, dict(self.env_kwargs))
        options = {k: row[k] for k in ("level", "variant") if row.get(k) is not None}
        options["agent"] = "trl"
        seed = row.get("seed")
        obs, _ = self._env.reset(seed=None if seed is None else int(seed), options=options)
        self._done, self._return, self._result = False, 0.0, None
        return obs["text"]

    def _act(self, action: dict[str, Any]) -> str:
        if self._env is None:
            raise RuntimeError("call reset() before the tools")
        if self._done:
            return ENDED
        obs, reward, terminated, truncated, info = self._env.step(action)
        self._return += float(reward)
        if terminated or truncated:
            self._done = True
            self._result = info.get("result")
        return clip_text(obs["text"], self.max_tool_chars)

    def get_reward(self) -> float:
        """The episode's score: the final score once it ended, else the workspace graded as it stands.

        Returns:
            The score (uplift minus contact cost).
        """
        if self._env is None:
            raise RuntimeError("call reset() before get_reward()")
        if self._done:
            return float(self._return)
        return float(self._env.score_now()["score"])

    def _close(self) -> None:
        if self._env is not None:
            self._env.close()
            self._env = None

    def __del__(self):
        try:
            self._close()
        except Exception:
            pass


def _tool_method(tool) -> Any:
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    ann: dict[str, Any] = {}
    for a in sorted(tool.args, key=lambda a: not a.required):  # required first, as Python needs
        typ = _PY_TYPES[a.type]
        hint = typ if a.required else Optional[typ]
        params.append(inspect.Parameter(a.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=hint,
                                        default=inspect.Parameter.empty if a.required else None))
        ann[a.name] = hint
    ann["return"] = str
    names = [a.name for a in tool.args]

    def method(self, *args, **kwargs):
        bound = sig.bind(self, *args, **kwargs)
        action = {"tool": tool.name}
        action.update({k: v for k, v in bound.arguments.items() if k != "self" and v is not None and k in names})
        return self._act(action)

    sig = inspect.Signature(params, return_annotation=str)
    method.__signature__ = sig  # type: ignore[attr-defined]  # inspect reads it; typeshed's functions lack it
    method.__annotations__ = ann
    method.__name__ = method.__qualname__ = tool.name
    args_doc = "".join(f"\n    {a.name}: {a.description}" for a in tool.args)
    method.__doc__ = (f"{tool.description}\n" + (f"\nArgs:{args_doc}\n" if tool.args else "")
                      + "\nReturns:\n    What happened, as text (an error says what was wrong and how to fix it).\n")
    return method


for _t in TOOLS:
    setattr(TRLEnvironment, _t.name, _tool_method(_t))


def make_trl_environment_factory(task: Any = "news_incident", level: str = "L3", variant: str = "base",
                                 max_tool_chars: int | None = 12_000, **env_kwargs: Any) -> type[TRLEnvironment]:
    """A no-argument class for ``GRPOTrainer(environment_factory=...)`` bound to a task.

    Args:
        task: task id, path, or loaded Task (a dataset column ``task`` overrides it per row).
        level, variant: defaults (dataset columns ``level``/``variant`` override them per row).
        max_tool_chars: clip tool outputs to this many characters.
        **env_kwargs: passed to :class:`~fdegym_env.FDEGymEnv` (``sandbox``, ``reward_mode``, ...).
    """
    name = f"FDEGymTRL_{getattr(task, 'id', str(task)).rsplit('/', 1)[-1]}"
    return type(name, (TRLEnvironment,), {"task": task, "level": level, "variant": variant,
                                          "env_kwargs": dict(env_kwargs), "max_tool_chars": max_tool_chars})


def trl_tool_names(env_cls: type) -> list[str]:
    """The public methods TRL turns into tools (everything public but ``reset``)."""
    return [n for n, _ in inspect.getmembers(env_cls, inspect.isfunction) if not n.startswith("_") and n != "reset"]


# --- SkyRL / GEM ---------------------------------------------------------------------------------------
class SkyRLTextEnv:
    """SkyRL-Gym ``BaseTextEnv``-shaped env: text in, OpenAI-style messages out.

    Args:
        env_config: ``task``, ``level``, ``variant``, ``seed``, ``max_tool_chars``, ``system_prompt`` and any
            :class:`~fdegym_env.FDEGymEnv` keyword (``sandbox``, ``reward_mode``, ...).
        extras: per-sample overrides of the same keys (SkyRL passes the dataset row's extras here).

    ``step(text)`` reads the tool calls in the model's text (``<tool_call>{...}</tool_call>``, JSON); each
    runs as one env step; ``reward`` is the sum of their rewards; ``done`` when the episode ended.
    """

    _OWN = ("task", "level", "variant", "seed", "max_tool_chars", "system_prompt")

    def __init__(self, env_config: dict[str, Any] | None = None, extras: dict[str, Any] | None = None):
        cfg = {**dict(env_config or {}), **dict(extras or {})}
        self.seed = cfg.get("seed")
        env_kwargs = {k: v for k, v in cfg.items() if k not in self._OWN}
        self._chat = ChatEnv(_make_env(cfg.get("task", "news_incident"), cfg.get("level", "L3"),
                                       cfg.get("variant", "base"), env_kwargs),
                             system_prompt=cfg.get("system_prompt"), max_tool_chars=cfg.get("max_tool_chars", 12_000))
        self.turns = 0
        self.max_turns = getattr(self._chat.unwrapped, "max_turns", None)   # a remote env's: known after init()

    def init(self, prompt: list[dict[str, Any]] | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Reset; returns the conversation to start from and metadata (``tools`` = OpenAI schemas).

        A dataset ``prompt`` (e.g. its own system message) is kept and the brief appended as a user message.
        """
        messages, info = self._chat.reset(seed=None if self.seed is None else int(self.seed),
                                          options={"agent": "skyrl"})
        self.turns = 0
        self.max_turns = self._chat.unwrapped.max_turns
        conv = [dict(m) for m in prompt] if prompt else messages[:1]
        conv.append(messages[-1])
        return conv, {"tools": info["tools"], "task": info["task"], "variant": info["variant"], "level": info["level"]}

    def step(self, action: str) -> dict[str, Any]:
        """One model turn (text). Returns SkyRL's ``BaseTextEnvStepOutput`` fields as a dict."""
        self.turns += 1
        if self._chat.done:
            return {"observations": [], "reward": 0.0, "done": True, "metadata": {"note": ENDED},
                    "postprocessed_action": None}
        new, reward, terminated, truncated, info = self._chat.step(action)
        meta = {"tool_results": info.get("tool_results", []), "turn": info.get("turn")}
        if info.get("result"):
            meta["result"] = info["result"]
        return {"observations": new, "reward": float(reward), "done": bool(terminated or truncated),
                "metadata": meta, "postprocessed_action": None}

    def score_now(self) -> dict[str, Any]:
        """Grade the rollout as it stands (for rollouts cut off by a token budget)."""
        return self._chat.score_now()

    def close(self) -> None:
        self._chat.close()


class GEMTextEnv:
    """GEM-style text env: ``reset(seed) -> (text, info)``; ``step(text) -> (text, reward, terminated, truncated, info)``.

    Args:
        task, level, variant: which engagement.
        **env_kwargs: passed to :class:`~fdegym_env.FDEGymEnv`.

    The first observation is the system prompt and the brief, joined; later observations are the
    joined tool results of the turn.
    """

    def __init__(self, task: Any = "news_incident", level: str = "L3", variant: str = "base",
                 max_tool_chars: int | None = 12_000, **env_kwargs: Any):
        self._chat = ChatEnv(_make_env(task, level, variant, env_kwargs), max_tool_chars=max_tool_chars)
        self.tools = tool_schemas("openai")

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        messages, info = self._chat.reset(seed=seed, options={"agent": "gem"})
        return f"{SYSTEM_PROMPT}\n{messages[-1]['content']}", info

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        new, reward, terminated, truncated, info = self._chat.step(action)
        return "\n\n".join(m["content"] for m in new), float(reward), terminated, truncated, info

    def score_now(self) -> dict[str, Any]:
        return self._chat.score_now()

    def close(self) -> None:
        self._chat.close()
