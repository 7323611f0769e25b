"""The A2A adapter against a real a2a-sdk server on loopback, through the real runner.

Episodes are scored from what the domain server observed (final database, tool log), never from
the agent: the reference agent behind A2A does the task's writes over MCP itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ADMIN_TOKEN

pytest.importorskip("a2a", reason="a2a-sdk (the `a2a` extra) is not installed")

from a2a.utils.constants import TransportProtocol

from taue.contracts.run import RunConfig
from taue.envs.runtime.discovery import get_domain
from taue.envs.runtime.server import bind_socket
from taue.runner import runner
from taue.runner.agents import AgentError, AgentOptions, make_agent
from taue.runner.agents.a2a_agent import A2AAgent, agent_base_url
from taue.runner.agents.base import Agent, EpisodeContext, McpServerInfo
from taue.runner.agents.oracle import OracleAgent
from taue.runner.agents.pester import PesterAgent
from taue.runner.control import InfraError
from taue.runner.runner import execute_run
from tests.a2a_reference import A2AReferenceServer, MakeAgent
from tests.task_picks import plain_task_id

TASK = plain_task_id("airline")
PATIENT = "relief.warm.low.trusting"
AIRLINE = get_domain("airline")


def oracle_for(task_id: str) -> MakeAgent:
    """The oracle behind A2A: it knows the task the test chose, the runner does not tell it."""
    task = AIRLINE.task_index[task_id]

    async def make(episode: EpisodeContext) -> Agent:
        agent = OracleAgent(AIRLINE.write_tools)
        await agent.start(episode.model_copy(update={"task": task}))
        return agent

    return make


class IdleAgent:
    """Never calls a tool; always apologises."""

    async def start(self, context: EpisodeContext) -> None:
        return None

    async def respond(self, user_message: str) -> str:
        return "I am sorry, I cannot help with that."

    async def close(self) -> None:
        return None


class CrashingAgent(IdleAgent):
    def __init__(self) -> None:
        self.turns = 0

    async def respond(self, user_message: str) -> str:
        self.turns += 1
        if self.turns == 2:
            raise RuntimeError("the booking backend is on fire")
        return "Let me look into that for you."


class CountingAgent(IdleAgent):
    def __init__(self) -> None:
        self.turns = 0

    async def respond(self, user_message: str) -> str:
        self.turns += 1
        return f"reply {self.turns} to {user_message}"


async def started(agent: Agent) -> Agent:
    await agent.start(EpisodeContext(episode_id="x", domain="airline", mcp_servers=[], policy=""))
    return agent


async def run_a2a(servers, tmp_path: Path, url: str, trials: int = 2, task_id: str = TASK):
    config = RunConfig(run="a2a", domains=["airline"], agent=url, trials=trials, task_ids=[task_id])
    urls = {name: server.control_url for name, server in servers.items()}
    return await execute_run(config, tmp_path / "run", urls, concurrency=4, admin_token=ADMIN_TOKEN)


@pytest.mark.parametrize(
    ("style", "binding"),
    [
        ("message", TransportProtocol.JSONRPC),
        ("input-required", TransportProtocol.JSONRPC),
        ("completed", TransportProtocol.HTTP_JSON),
    ],
)
async def test_oracle_behind_a2a_scores_one_from_server_observations(
    servers, tmp_path: Path, style: str, binding: str
) -> None:
    async with A2AReferenceServer(oracle_for(TASK), style=style, binding=binding) as agent:
        report = await run_a2a(servers, tmp_path, agent.url)
    assert report.failed == 0 and len(report.records) == 2
    gold_writes = [
        a.name for a in AIRLINE.task_index[TASK].evaluation.actions if a.name in AIRLINE.write_tools
    ]
    for record in report.records:
        assert (record.reward, record.termination) == (1, "user_stop"), (record.error, record.breakdown)
        assert record.breakdown.db_match
        assert [call.name for call in record.tool_log if call.name in AIRLINE.write_tools] == gold_writes
        # The oracle asks first: its first message proposes the first change, the writes come later.
        assert record.transcript[1].role == "agent" and "Shall I go ahead?" in record.transcript[1].content
        assert record.breakdown.policy_violations == [] and all(c.turn for c in record.tool_log if c.writes)
    executor = agent.executor
    # One A2A context per episode, opened by the episode data part; later turns are plain text.
    assert len(executor.episodes) == 2 and all(cid.startswith("taue-") for cid in executor.episodes)
    for context_id, episode in executor.episodes.items():
        assert set(episode) == {"episode_id", "domain", "mcp_servers", "policy"}
        assert context_id == f"taue-{episode['episode_id']}"
        assert episode["domain"] == "airline" and episode["policy"] == AIRLINE.policy
        (server,) = episode["mcp_servers"]
        assert server["transport"] == "streamable-http"
        assert server["url"].endswith(f"/episodes/{episode['episode_id']}/mcp")
        assert server["headers"]["Authorization"].startswith("Bearer ")
    # Every user turn but the closing one (STOP ends the episode) reached the agent, in order.
    relayed = sorted(tuple(m.content for m in r.transcript if m.role == "user")[:-1] for r in report.records)
    assert sorted(tuple(turns) for turns in executor.turns.values()) == relayed
    if style == "input-required":  # the adapter releases the task left open when the episode ends
        assert len(executor.canceled) == 2


async def test_a_multi_turn_agent_behind_a2a_keeps_one_context_per_episode(servers, tmp_path: Path) -> None:
    """Pester asks one question per turn; a patient user answers them all and it then does the task."""
    task = AIRLINE.task_index[TASK]

    async def make(episode: EpisodeContext) -> Agent:
        agent = PesterAgent(AIRLINE.write_tools)
        await agent.start(episode.model_copy(update={"task": task}))
        return agent

    urls = {name: server.control_url for name, server in servers.items()}
    async with A2AReferenceServer(make, style="completed", binding=TransportProtocol.HTTP_JSON) as agent:
        config = RunConfig(
            run="a2a", domains=["airline"], agent=agent.url, trials=1, task_ids=[TASK], condition=PATIENT
        )
        report = await execute_run(config, tmp_path / "run", urls, concurrency=1, admin_token=ADMIN_TOKEN)
    (record,) = report.records
    assert (record.reward, record.termination) == (1, "user_stop"), (record.error, record.breakdown)
    (turns,) = agent.executor.turns.values()
    agent_messages = [m.content for m in record.transcript if m.role == "agent"]
    assert len(turns) == len(agent_messages) >= 4
    assert agent_messages[0].startswith("Before I do anything, could you tell me your")


async def test_agent_that_does_nothing_gets_no_reward(servers, tmp_path: Path) -> None:
    async def make(episode: EpisodeContext) -> Agent:
        return IdleAgent()

    async with A2AReferenceServer(make, style="input-required") as agent:
        report = await run_a2a(servers, tmp_path, agent.url, trials=1)
    (record,) = report.records
    assert record.reward in (0, -1) and not record.breakdown.db_match
    assert record.tool_log == []
    assert record.termination in ("user_unsatisfied", "max_turns", "user_stop")


async def test_agent_failure_ends_the_episode_as_agent_error_with_the_reason(servers, tmp_path: Path) -> None:
    async def make(episode: EpisodeContext) -> Agent:
        return CrashingAgent()

    async with A2AReferenceServer(make, style="message") as agent:
        report = await run_a2a(servers, tmp_path, agent.url, trials=1)
    (record,) = report.records
    assert (record.termination, record.reward) == ("agent_error", 0)
    assert "TASK_STATE_FAILED" in record.error and "the booking backend is on fire" in record.error


async def test_unreachable_agent_is_an_infrastructure_error_and_no_record(
    servers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "RETRY_DELAYS", (0.0,))
    closed = bind_socket()
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there any more
    agent = A2AAgent(f"a2a://127.0.0.1:{port}", AgentOptions())
    with pytest.raises(InfraError, match="unreachable"):
        await agent.start(EpisodeContext(episode_id="e", domain="airline", mcp_servers=[], policy=""))
    await agent.close()
    report = await run_a2a(servers, tmp_path, f"a2a://127.0.0.1:{port}", trials=1)
    assert report.failed == 1 and report.records == []
    errors = [json.loads(line) for line in (tmp_path / "run" / "errors.jsonl").read_text().splitlines()]
    assert [e.get("kind") for e in errors] == ["retry", None]  # one rerun (RETRY_DELAYS), then the give-up
    assert errors[-1]["termination"] == "infra_error" and "unreachable" in errors[-1]["errors"][0]


async def test_missing_agent_card_is_the_agents_error() -> None:
    async with A2AReferenceServer(oracle_for(TASK)) as server:
        agent = make_agent(f"{server.url}/nowhere", frozenset())
        with pytest.raises(AgentError, match="404"):
            await agent.start(EpisodeContext(episode_id="e", domain="airline", mcp_servers=[], policy=""))
        await agent.close()


@pytest.mark.parametrize("style", ["message", "input-required", "completed"])
async def test_first_message_carries_the_episode_and_later_turns_only_text(style: str) -> None:
    context = EpisodeContext(
        episode_id="ep1",
        domain="airline",
        mcp_servers=[McpServerInfo(name="airline", url="http://h/episodes/ep1/mcp", headers={"A": "b"})],
        policy="Be kind.",
    )

    async def make(episode: EpisodeContext) -> Agent:
        return await started(CountingAgent())

    async with A2AReferenceServer(make, style=style) as server:
        agent = A2AAgent(server.url, AgentOptions())
        await agent.start(context)
        assert await agent.respond("hello") == "reply 1 to hello"
        first_task = agent.open_task
        assert await agent.respond("still there?") == "reply 2 to still there?"
        if style == "input-required":  # the same task continues while it waits for input
            assert first_task is not None and agent.open_task == first_task
        else:
            assert first_task is None and agent.open_task is None
        await agent.close()
    executor = server.executor
    assert executor.turns == {"taue-ep1": ["hello", "still there?"]}
    assert executor.episodes["taue-ep1"] == {
        "episode_id": "ep1",
        "domain": "airline",
        "mcp_servers": [
            {
                "name": "airline",
                "transport": "streamable-http",
                "url": "http://h/episodes/ep1/mcp",
                "headers": {"A": "b"},
            }
        ],
        "policy": "Be kind.",
    }
    assert executor.canceled == ([first_task] if style == "input-required" else [])


async def test_a_task_answered_before_the_agent_finished_is_polled_until_it_waits_for_input() -> None:
    async def make(episode: EpisodeContext) -> Agent:
        return await started(CountingAgent())

    async with A2AReferenceServer(make, style="input-required", answer_early=True) as server:
        agent = A2AAgent(server.url, AgentOptions())
        await agent.start(EpisodeContext(episode_id="ep2", domain="airline", mcp_servers=[], policy=""))
        assert await agent.respond("hi") == "reply 1 to hi"
        assert await agent.respond("and?") == "reply 2 to and?"
        await agent.close()
    assert server.handler.polls >= 1  # the first turn came back `submitted`


@pytest.mark.parametrize("spec", ["a2a://", "a2a://nohost", "a2a://host:port", "a2a:///x"])
def test_malformed_a2a_spec_is_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="HOST:PORT"):
        agent_base_url(spec)


def test_a2a_spec_with_a_path_keeps_it() -> None:
    assert agent_base_url("a2a://127.0.0.1:9999/agents/x/") == "http://127.0.0.1:9999/agents/x"
