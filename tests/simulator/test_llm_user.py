"""The LLM user backend against a scripted OpenAI-compatible double: the exact requests we send,
stop tokens, retries, empty completions, token usage, and a whole episode through the runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taue.contracts.episode import STOP, UNSATISFIED, AgentTurn, Notification
from taue.contracts.run import RunConfig
from taue.envs.runtime.discovery import get_domain
from taue.runner import runner
from taue.runner.runner import execute_run
from taue.simulator import llm
from taue.simulator.anchors import anchors_for
from taue.simulator.llm import AGENT_GREETING, LLMUser, parse_reply, system_prompt
from taue.simulator.session import SimulatorError, SimulatorUnavailable, UserOptions
from tests.conftest import ADMIN_TOKEN
from tests.factories import make_task
from tests.openai_double import OpenAIDouble

SEED = 4242


@pytest.fixture(autouse=True)
def fast_and_keyless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(llm, "RETRY_DELAYS", (0.0, 0.0, 0.0, 0.0))
    for variable in llm.API_KEY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)


def options(base_url: str) -> UserOptions:
    return UserOptions(backend="llm", model="user-model", base_url=base_url)


async def test_requests_are_exactly_the_role_flipped_conversation() -> None:
    task = make_task(emotion="anxiety", family="fear")
    replies = [{"content": "Hi, please cancel ABC123."}, {"content": "Great, thanks!###STOP###"}]
    async with OpenAIDouble(replies) as double:
        user = LLMUser(task, SEED, options(double.base_url))
        first = await user.first_message()
        turn = await user.respond(
            AgentTurn(
                message="Done: reservation ABC123 is cancelled and 120 is refunded.",
                notifications=[
                    Notification(tool="cancel_reservation", arguments={"reservation_id": "ABC123"})
                ],
            )
        )
    prompt = system_prompt(task)
    assert '"[Confirmation]"' in prompt  # the user is told how the service's confirmations look
    opening = [{"role": "system", "content": prompt}, {"role": "user", "content": AGENT_GREETING}]
    common = {"model": "user-model", "temperature": 0.0, "seed": SEED, "max_tokens": llm.MAX_TOKENS}
    assert double.requests == [
        {**common, "messages": opening},
        {
            **common,
            "messages": [
                *opening,
                {"role": "assistant", "content": "Hi, please cancel ABC123."},
                {
                    "role": "user",
                    "content": "Done: reservation ABC123 is cancelled and 120 is refunded.\n"
                    "[Confirmation] cancel reservation completed (reservation id: ABC123).",
                },
            ],
        },
    ]
    assert double.headers[0]["authorization"] == f"Bearer {llm.LOCAL_API_KEY}"
    assert first == "Hi, please cancel ABC123."
    assert (turn.message, turn.done, turn.termination) == (f"Great, thanks! {STOP}", True, "user_stop")
    assert user.usage == {"prompt_tokens": 22, "completion_tokens": 14}


def test_prompt_has_guidelines_scenario_emotion_text_and_rules_but_no_discoverable_values() -> None:
    task = make_task(emotion="anxiety", family="fear")
    prompt = system_prompt(task)
    assert task.emotion.instruction in prompt
    assert not any(a in prompt for a in anchors_for(task.condition_id) if a != task.emotion.instruction)
    for text in ("one message at a time", "Never invent", "Paraphrase", STOP, UNSATISFIED, "ana_lee_1234"):
        assert text in prompt
    assert "Please cancel reservation ABC123." in prompt and "payment id" in prompt
    assert "credit_card_1" not in prompt and "HAT001" not in prompt  # discoverable values stay hidden
    assert task.instruction in prompt


def test_every_user_speaks_from_the_tasks_one_emotion_text() -> None:
    task = make_task()
    user = LLMUser(task, SEED, options("http://127.0.0.1:9/v1"))
    assert task.emotion.instruction in user.messages[0]["content"]
    assert "calm" in system_prompt(make_task(emotion=None))


@pytest.mark.parametrize(
    ("raw", "message", "termination"),
    [
        ("Thanks!###STOP###", f"Thanks! {STOP}", "user_stop"),
        ("All good ###stop###.", f"All good . {STOP}", "user_stop"),
        ("###STOP", STOP, "user_stop"),
        ("This is useless.UNSATISFIED###", f"This is useless. {UNSATISFIED}", "user_unsatisfied"),
        ("I give up ## UNSATISFIED ## bye", f"I give up bye {UNSATISFIED}", "user_unsatisfied"),
        ("Please stop charging me twice.", "Please stop charging me twice.", None),
    ],
)
def test_stop_tokens_are_found_even_when_glued(raw: str, message: str, termination: str | None) -> None:
    assert parse_reply(raw) == (message, termination)


async def test_unsatisfied_reply_records_the_reason() -> None:
    async with OpenAIDouble(
        [{"content": "Hello."}, {"content": "You keep asking me things.###UNSATISFIED###"}]
    ) as d:
        user = LLMUser(make_task(), SEED, options(d.base_url))
        await user.first_message()
        turn = await user.respond(AgentTurn(message="What is your payment id?"))
    assert turn.done and turn.termination == "user_unsatisfied"
    assert turn.reason == "You keep asking me things."


async def test_transport_errors_are_retried_with_the_same_request() -> None:
    async with OpenAIDouble([{"status": 503}, {"status": 500}, {"status": 429}, {"content": "Hello."}]) as d:
        user = LLMUser(make_task(), SEED, options(d.base_url))
        assert await user.first_message() == "Hello."
    assert len(d.requests) == 4 and all(r == d.requests[0] for r in d.requests)


async def test_persistent_transport_errors_raise_simulator_unavailable() -> None:
    async with OpenAIDouble([{"status": 502}]) as d:
        user = LLMUser(make_task(), SEED, options(d.base_url))
        with pytest.raises(SimulatorUnavailable, match="endpoint failed"):
            await user.first_message()
    assert len(d.requests) == 1 + len(llm.RETRY_DELAYS)


async def test_client_errors_are_not_retried() -> None:
    async with OpenAIDouble([{"status": 404}]) as d:
        user = LLMUser(make_task(), SEED, options(d.base_url))
        with pytest.raises(SimulatorError, match="NotFoundError") as raised:
            await user.first_message()
    assert len(d.requests) == 1 and not isinstance(raised.value, SimulatorUnavailable)


async def test_unreachable_endpoint_raises_simulator_unavailable() -> None:
    user = LLMUser(make_task(), SEED, options("http://127.0.0.1:9/v1"))
    with pytest.raises(SimulatorUnavailable, match="APIConnectionError"):
        await user.first_message()


async def test_empty_completions_are_retried_then_raised_and_their_tokens_counted() -> None:
    async with OpenAIDouble([{"content": ""}, {"content": "  "}, {"content": "Hello."}]) as d:
        user = LLMUser(make_task(), SEED, options(d.base_url))
        assert await user.first_message() == "Hello."
    assert user.usage == {"prompt_tokens": 33, "completion_tokens": 21}
    async with OpenAIDouble([{"content": None}]) as d:
        user = LLMUser(make_task(), SEED, options(d.base_url))
        with pytest.raises(SimulatorUnavailable, match="empty completions"):
            await user.first_message()
    assert len(d.requests) == 1 + llm.EMPTY_RETRIES


async def test_api_key_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "from-openai")
    async with OpenAIDouble([{"content": "Hi."}]) as d:
        await LLMUser(make_task(), SEED, options(d.base_url)).first_message()
        monkeypatch.setenv("TAUE_USER_API_KEY", "from-taue")
        await LLMUser(make_task(), SEED, options(d.base_url)).first_message()
    assert [h["authorization"] for h in d.headers] == ["Bearer from-openai", "Bearer from-taue"]


def test_missing_model_or_url_is_a_clear_error() -> None:
    with pytest.raises(SimulatorError, match="--user-model"):
        LLMUser(make_task(), SEED, UserOptions(backend="llm", base_url="http://127.0.0.1:9/v1"))


def llm_config(base_url: str, **extra) -> RunConfig:
    return RunConfig(
        run="llm-user",
        domains=["airline"],
        agent="oracle",
        user="llm",
        user_model="user-model",
        user_base_url=base_url,
        trials=1,
        task_ids=["airline-001"],
        **extra,
    )


def approving(body: dict) -> dict:
    """The LLM user's reply to the oracle on airline-001: yes to a proposal, a nod to a report of one
    change, and stop at the report that names every write."""
    said = body["messages"][-1]["content"]
    if "Shall I go ahead?" in said:
        return {"content": "Yes, please go ahead."}
    writes = {a.name for a in get_domain("airline").task_index["airline-001"].evaluation.actions}
    writes &= get_domain("airline").write_tools
    return {"content": "Perfect.###STOP###" if all(w in said for w in writes) else "Good, and?"}


async def test_episode_through_the_runner_ends_on_the_llm_users_stop_with_tokens(
    servers, tmp_path: Path
) -> None:
    """The oracle asks before each change; the LLM user says yes to each, then stops: reward 1 and no
    policy violation."""
    replies = [{"content": "I need to cancel a trip.", "usage": (100, 10)}, approving]
    async with OpenAIDouble(replies) as d:
        report = await execute_run(
            llm_config(d.base_url),
            tmp_path / "run",
            {"airline": servers["airline"].control_url},
            4,
            admin_token=ADMIN_TOKEN,
        )
    assert report.failed == 0
    (record,) = report.records
    assert record.user == "llm" and record.termination == "user_stop" and record.reward == 1
    assert record.breakdown.policy_violations == [] and record.breakdown.policy_enforced
    said = [m.content for m in record.transcript if m.role == "user"]
    yeses = said.count("Yes, please go ahead.")
    assert yeses >= 2 and said[0] == "I need to cancel a trip." and said[-1] == f"Perfect. {STOP}"
    assert said[1:-1] == ["Yes, please go ahead.", "Good, and?"] * (yeses - 1) + ["Yes, please go ahead."]
    replies_after_first = len(said) - 1
    assert record.usage["user"] == {
        "prompt_tokens": 100 + 11 * replies_after_first,
        "completion_tokens": 10 + 7 * replies_after_first,
    }
    task = get_domain("airline").task_index["airline-001"]
    assert d.requests[0]["seed"] == record.seed
    assert d.requests[0]["messages"][0]["content"] == system_prompt(task)


async def test_the_llm_user_records_a_goal_write_it_had_not_said_yes_to() -> None:
    """A write of a goal's target needs a yes to an agent question since the previous such write; a
    write no goal asked for is not counted; the writes of an unanswered last turn are judged too."""
    task = make_task()
    cancel = Notification(tool="cancel_reservation", arguments={"reservation_id": "ABC123"})
    other = Notification(tool="update_reservation_baggages", arguments={"reservation_id": "ABC123"})
    replies = [
        {"content": "Hi, please cancel ABC123."},
        {"content": "Yes, go ahead."},
        {"content": "Thanks."},
    ]
    async with OpenAIDouble(replies) as double:
        user = LLMUser(task, SEED, options(double.base_url))
        await user.first_message()
        asked = await user.respond(
            AgentTurn(message="Shall I cancel reservation ABC123?", notifications=[other])
        )
        assert asked.policy_violations == []
        approved = await user.respond(AgentTurn(message="Cancelled.", notifications=[cancel]))
        assert approved.policy_violations == []
        assert user.last_turn([cancel]) == ["write_without_approval:cancel_reservation"]


async def test_a_price_table_gives_the_llm_users_cost(servers, tmp_path: Path) -> None:
    replies = [{"content": "I need to cancel a trip.", "usage": (100, 10)}, {"content": "Perfect.###STOP###"}]
    prices = {"user-model": {"input": 2.0, "output": 8.0}, "other-model": {"input": 100.0}}
    async with OpenAIDouble(replies) as d:
        config = llm_config(d.base_url, price_table=prices)
        report = await execute_run(
            config, tmp_path / "run", {"airline": servers["airline"].control_url}, 4, admin_token=ADMIN_TOKEN
        )
    (record,) = report.records
    assert record.usage["user"] == {
        "prompt_tokens": 111,
        "completion_tokens": 17,
        "cost_usd": (111 * 2 + 17 * 8) / 1e6,
    }


@pytest.mark.parametrize(
    ("reply", "expected", "requests"),
    [
        ({"content": ""}, "UNAVAILABLE", 2 * (1 + llm.EMPTY_RETRIES)),  # the runner retries the episode once
        ({"status": 404}, "INVALID_ARGUMENT", 1),  # a wrong model name: retrying cannot help
    ],
)
async def test_a_failing_llm_user_is_an_infrastructure_error_not_the_agents_failure(
    servers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reply: dict, expected: str, requests: int
) -> None:
    monkeypatch.setattr(runner, "RETRY_DELAYS", (0.0,))
    async with OpenAIDouble([reply]) as d:
        report = await execute_run(
            llm_config(d.base_url),
            tmp_path / "run",
            {"airline": servers["airline"].control_url},
            4,
            admin_token=ADMIN_TOKEN,
        )
    assert report.failed == 1 and report.records == []
    *retries, entry = [
        json.loads(line) for line in (tmp_path / "run" / "errors.jsonl").read_text().splitlines()
    ]
    assert [r["error"] for r in retries] == entry["errors"][:-1]  # the reruns, each a `retry` line
    assert entry["termination"] == "infra_error"
    assert entry["errors"] and all(expected in error and "llm user" in error for error in entry["errors"])
    assert len(d.requests) == requests
