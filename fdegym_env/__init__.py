"""fdegym: FDE-Gym-style customer-delivery tasks as Gymnasium environments.

    import gymnasium as gym, fdegym_env
    env = gym.make("FDEGym/news_incident-v0", level="L3")
"""

from fdegym_env.core.actions import TOOLS, ActionError, parse_action, tool_schemas
from fdegym_env.core.env import FDEGymEnv
from fdegym_env.core.registry import list_tasks, load_task, register_all

__version__ = "0.1.0"
ENV_IDS = register_all()
from fdegym_env.harness import register_cases, register_from_env  # noqa: E402  (harness case folders)

CASE_IDS = register_from_env()  # $FDEGYM_CASES

__all__ = ["FDEGymEnv", "tool_schemas", "parse_action", "ActionError", "TOOLS", "list_tasks", "load_task",
           "ENV_IDS", "__version__", "register_cases", "CASE_IDS"]
