"""A TRL-style environment class whose episodes run on an fdegym OpenEnv server.

TRL's ``GRPOTrainer(environment_factory=Env)`` builds ``Env()`` per rollout, calls ``reset(**row)``
and then the class's public methods as tools; reward functions read ``get_reward()``. Pointing the
factory at a server (``base_url``) is the only change from a local run, so the trainer can live on
another host than the sandboxes and graders.

    python examples/openenv_trl.py                         # starts a local server for the demo
    python examples/openenv_trl.py --base-url http://gpu-box:8000

This script plays what a policy would (read the brief, look around, submit) through the tool methods
and prints the reward TRL would see. No TRL install is needed for the demo.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from fdegym_env.agents.adapters import make_trl_environment_factory, trl_tool_names

from fdegym_env.serving.openenv_client import launch_local_server


@dataclass
class Args:
    base_url: str | None = None       # a running `fdegym serve-env`; None starts one on a free local port
    task: str = "helpdesk_tutorial"
    seed: int = 0


def main(args: Args) -> float:
    proc, url = (None, args.base_url) if args.base_url else launch_local_server(args.task, max_episodes=2)
    try:
        Env = make_trl_environment_factory(args.task, base_url=url)
        print("tools TRL sees:", ", ".join(trl_tool_names(Env)))
        env = Env()
        brief = env.reset(seed=args.seed)
        print(brief[:300], "...\n")
        print(env.list_files()[:300], "...\n")
        print(env.directory()[:300], "...\n")
        print(env.submit(note="Nothing changed yet: a demo rollout.")[:500])
        reward = env.get_reward()
        print(f"\nreward (the episode's score): {reward:.3f}")
        env._close()
        return reward
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name, default in vars(Args()).items():
        p.add_argument("--" + name.replace("_", "-"), type=type(default) if default is not None else str,
                       default=default)
    main(Args(**vars(p.parse_args())))
