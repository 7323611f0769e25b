"""Agent adapters. `make_agent` turns an `--agent` value into a fresh agent for one episode."""

from __future__ import annotations

from agent_runner.agents.base import Agent, AgentError, EpisodeContext
from agent_runner.agents.oracle import OracleAgent
from agent_runner.agents.pester import PesterAgent

BUILT_IN = {"oracle": OracleAgent, "pester": PesterAgent}
NEEDS_GROUND_TRUTH = frozenset(BUILT_IN)


def make_agent(spec: str, write_tools: frozenset[str]) -> Agent:
    if spec in BUILT_IN:
        return BUILT_IN[spec](write_tools)
    raise ValueError(f"unknown agent {spec!r}; available: {', '.join(sorted(BUILT_IN))}")


def validate_agent_spec(spec: str) -> None:
    if spec not in BUILT_IN:
        raise ValueError(f"unknown agent {spec!r}; available: {', '.join(sorted(BUILT_IN))}")


__all__ = ["Agent", "AgentError", "EpisodeContext", "make_agent", "validate_agent_spec"]
