"""Wrappers around an FDEGym env: instruction level, chat/tool calling, text actions, recording,
and a discrete menu for SB3-style learners.

    from fdegym_env.wrappers import ChatEnv, InstructionLevel, Recorder, TextActions, replay
    env = ChatEnv(Recorder(InstructionLevel(FDEGymEnv(task="news_incident"), "L2"), "ep.jsonl"))
    messages, info = env.reset(seed=0)          # [system, user], info["tools"] = OpenAI schemas

Order matters only for the Recorder: put it below ChatEnv/TextActions so it records the
structured actions the env executed (that is what ``replay`` re-executes).
"""

from fdegym_env.wrappers.chat import SYSTEM_PROMPT, ChatEnv, ToolCalling, clip_text, message_to_dict
from fdegym_env.wrappers.discrete_menu import DiscreteMenu
from fdegym_env.wrappers.instruction_level import InstructionLevel
from fdegym_env.wrappers.recorder import Episode, Recorder, ReplayReport, load_recording, render_recording, replay
from fdegym_env.wrappers.text_actions import TextActionError, TextActions, parse_text_action, parse_tool_calls

__all__ = ["DiscreteMenu", "ChatEnv", "ToolCalling", "SYSTEM_PROMPT", "clip_text", "message_to_dict", "InstructionLevel",
           "Recorder", "replay", "load_recording", "render_recording", "ReplayReport", "Episode",
           "TextActions", "TextActionError", "parse_text_action", "parse_tool_calls"]
