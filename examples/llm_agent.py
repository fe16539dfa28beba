"""Run an LLM agent on an FDEGym task through any OpenAI-compatible server.

Offline, with the built-in scripted "model" (no key, no network):

    python examples/llm_agent.py --fake
    python examples/llm_agent.py --fake --task tests/fixtures/tiny_task

Against a real server (the key comes from --api-key-file, $FDEGYM_API_KEY or $OPENAI_API_KEY;
local servers need none):

    # vLLM:    vllm serve Qwen/Qwen3-8B --enable-auto-tool-choice --tool-call-parser hermes
    python examples/llm_agent.py --model Qwen/Qwen3-8B --base-url http://localhost:8000/v1
    # Ollama:  ollama serve && ollama pull qwen3:8b
    python examples/llm_agent.py --model qwen3:8b --base-url http://localhost:11434/v1
    # OpenAI:
    python examples/llm_agent.py --model gpt-4.1-mini --max-usd 0.50

The run is recorded (--record, default llm_run.jsonl): `fdegym show llm_run.jsonl` prints the
transcript, `fdegym replay llm_run.jsonl` checks that it reproduces the same score.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, fields


@dataclass
class Args:
    task: str = "news_incident"       # task id or path to a task folder
    level: str = "L3"                 # L0 (everything stated) .. L3 (the sponsor's request only)
    variant: str = "base"
    seed: int = 0
    model: str = ""                   # model name on the server (ignored with --fake)
    base_url: str = ""                # e.g. http://localhost:8000/v1 (default: $FDEGYM_BASE_URL, then OpenAI)
    api_key_file: str = ""
    fake: bool = False                # use the built-in scripted server
    sandbox: str = "auto"             # auto | bwrap | docker | none
    max_turns: int = 0                # model calls before the agent submits (0: only the env's limit)
    max_usd: float = 0.0              # spend before the agent submits (0: no limit)
    max_wall_seconds: float = 0.0     # wall time before the agent submits (0: no limit)
    record: str = "llm_run.jsonl"


def parse_args() -> Args:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for f in fields(Args):
        flag = "--" + f.name.replace("_", "-")
        if f.type in ("bool", bool):
            p.add_argument(flag, action="store_true")
        else:
            p.add_argument(flag, type=type(f.default), default=f.default)
    return Args(**vars(p.parse_args()))


def main() -> int:
    args = parse_args()
    if not args.fake and not args.model:
        print("error: give --model (and --base-url for a server other than OpenAI), or --fake for the offline "
              "scripted model", file=sys.stderr)
        return 2

    # 1. The model endpoint: the scripted server, or the one you named.
    server = None
    if args.fake:
        from fdegym_env.testing import FakeLLMServer, plan_for
        server = FakeLLMServer(plan_for(args.task, args.variant)).start()
        model, base_url, key = server.model, server.base_url, "fake-key"
        print(f"scripted model {model!r} at {base_url} ({len(server.plan)} planned turns)")
    else:
        model, base_url, key = args.model, args.base_url or None, None

    # 2. The environment, recorded to JSONL.
    from fdegym_env.wrappers import Recorder

    from fdegym_env import FDEGymEnv
    env = Recorder(FDEGymEnv(task=args.task, level=args.level, variant=args.variant, sandbox=args.sandbox),
                   args.record)

    # 3. The agent, with the paper's kind of limits.
    from fdegym_env.agents import run_episode
    from fdegym_env.agents.llm import LLMAgent
    agent = LLMAgent(model=model, base_url=base_url, api_key=key, api_key_file=args.api_key_file or None,
                     max_turns=args.max_turns or None, max_usd=args.max_usd or None,
                     max_wall_seconds=args.max_wall_seconds or None)

    # 4. Play one episode.
    try:
        result = run_episode(env, agent, seed=args.seed)
    finally:
        env.close()
        if server is not None:
            server.stop()

    u = result["usage"]
    cost = f"${u['usd']:.4f}" if u["usd"] is not None else "cost unknown (no price for this model)"
    print(f"{result['task']} [{result['variant']}, {result['level']}] score {result['score']:.3f} "
          f"(uplift {result['uplift']:.3f}, contact cost {result['contact_cost']:.3f}), "
          f"resolved {'yes' if result['resolved'] else 'no'}, incidents: {'; '.join(result['incidents']) or 'none'}")
    print(f"model: {u['model_calls']} calls, {u['prompt_tokens']} prompt + {u['completion_tokens']} completion "
          f"tokens, {cost}; {result['turns']} env turns; stop: {u['stop_reason'] or 'submitted by the model'}")
    print(f"recording: {args.record}  (fdegym show {args.record} | fdegym replay {args.record})")
    print(json.dumps({"score": result["score"], "usd": u["usd"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
