"""Agent adapters. `make_agent` turns an `--agent` value into a fresh agent for one episode.

| `--agent` value | adapter |
|---|---|
| `oracle`, `pester` | reference baselines that replay the ground truth (`oracle.py`, `pester.py`) |
| `careful-readback`, `liar`, `echo`, … | the judge suite's reference behaviours (`judge_agents.py`) |
| `careful-readback@markdown`, `one-shot@terse`, … | a fair judge agent in a wording (`wordings.py`) |
| `asks-payment`, `offers-options@terse`, `over-claimer`, … | like frontier agents (`style_agents.py`) |
| `model` | the built-in tool-calling agent over an OpenAI-compatible endpoint (`model_agent.py`) |
| `http://HOST:PORT`, `https://…` | a black-box agent speaking agent protocol v1 (`http_agent.py`) |
| `a2a://HOST:PORT` | an Agent2Agent agent (`a2a_agent.py`) |
"""

from __future__ import annotations

import importlib

from pydantic import BaseModel

from taue.runner.agents.base import Agent, AgentError, EpisodeContext
from taue.runner.agents.judge_agents import JUDGE_AGENTS, WORDED_AGENTS
from taue.runner.agents.oracle import OracleAgent
from taue.runner.agents.pester import PesterAgent
from taue.runner.agents.style_agents import STYLE_AGENTS, STYLE_WORDED_AGENTS

BUILT_IN = {
    "oracle": OracleAgent,
    "pester": PesterAgent,
    **JUDGE_AGENTS,
    **WORDED_AGENTS,
    **STYLE_AGENTS,
    **STYLE_WORDED_AGENTS,
}
NEEDS_GROUND_TRUTH = frozenset(BUILT_IN)
ADAPTERS = {
    "model": ("taue.runner.agents.model_agent", "ModelAgent"),
    "http": ("taue.runner.agents.http_agent", "HttpAgent"),
    "a2a": ("taue.runner.agents.a2a_agent", "A2AAgent"),
}


class AgentOptions(BaseModel):
    """Settings an adapter may need; unused ones are ignored."""

    model: str | None = None
    base_url: str | None = None
    temperature: float = 0.0
    seed: int | None = None
    """Passed through to the model endpoint (with temperature 0: repeatable answers where supported)."""
    max_tool_calls_per_turn: int = 30
    turn_timeout: float = 120.0
    price_table: dict[str, dict[str, float]] | None = None
    """Model name -> {"input": $ per 1M tokens, "output": $ per 1M tokens}."""
    enable_thinking: bool | None = None
    """Sent as `chat_template_kwargs: {"enable_thinking": ...}` (Qwen3 templates); None sends nothing."""


def adapter_kind(spec: str) -> str:
    if spec in BUILT_IN:
        return "built-in"
    if spec.startswith(("http://", "https://")):
        return "http"
    if spec.startswith("a2a://"):
        return "a2a"
    if spec == "model":
        return "model"
    known = ", ".join([*sorted(BUILT_IN), "model", "http://HOST:PORT", "a2a://HOST:PORT"])
    raise ValueError(f"unknown agent {spec!r}; use one of: {known}")


def make_agent(spec: str, write_tools: frozenset[str], options: AgentOptions | None = None) -> Agent:
    kind = adapter_kind(spec)
    if kind == "built-in":
        return BUILT_IN[spec](write_tools)
    module_name, class_name = ADAPTERS[kind]
    try:
        adapter = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"the {kind} agent adapter is not available: {exc}") from None
    return adapter(spec, options or AgentOptions())


def validate_agent_spec(spec: str, options: AgentOptions | None = None) -> None:
    kind = adapter_kind(spec)
    if kind == "model" and (options is None or not options.model or not options.base_url):
        raise ValueError(
            "--agent model needs --model NAME and --base-url URL (an OpenAI-compatible endpoint)"
        )
    if kind in ADAPTERS:
        module_name, _ = ADAPTERS[kind]
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            extra = {"a2a": "a2a"}.get(kind, "")
            hint = f'; install it with pip install -e ".[{extra}]"' if extra else ""
            raise ValueError(f"the {kind} agent adapter cannot load ({exc}){hint}") from None
        if kind == "a2a":
            module.agent_base_url(spec)  # raises ValueError for a malformed a2a:// address


__all__ = ["Agent", "AgentError", "AgentOptions", "EpisodeContext", "make_agent", "validate_agent_spec"]
