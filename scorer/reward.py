"""Reward for one episode with its diagnostics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taue.contracts.domain import ExpectedOutcome
from taue.contracts.episode import LoggedCall, Message, RewardBreakdown, Termination
from taue.contracts.text import contains, tokens


def outputs_found(outputs: list[str], transcript: list[Message]) -> dict[str, bool]:
    """Each expected output: do its tokens occur, in order and adjacent, in some agent message?

    Tokens as `taue.contracts.text` reads them: case, punctuation and whitespace never matter,
    numbers compare by value ("$85" = "85.00", "1,568" = "1568"; "85" is not "850" or "8.5").
    """
    agent_tokens = [tokens(m.content) for m in transcript if m.role == "agent"]
    return {output: any(contains(words, output) for words in agent_tokens) for output in outputs}


def score(
    expected: ExpectedOutcome,
    final_hash: str | None,
    transcript: list[Message],
    tool_log: list[LoggedCall],
    termination: Termination,
    policy_violations: Sequence[str] = (),
    policy_enforced: bool = False,
) -> RewardBreakdown:
    """The reward: −1 when the user left unsatisfied; 1 when the conversation ended normally, the end
    state is the expected one, every expected output was said and — where the policy is enforced — no
    policy violation was observed (`taue.contracts.policy`); else 0."""
    diagnostics = diagnose(expected, transcript, tool_log)
    policy = {"policy_violations": list(policy_violations), "policy_enforced": policy_enforced}
    if termination == "user_unsatisfied":
        return RewardBreakdown(reward=-1, termination=termination, diagnostics=diagnostics, **policy)
    db_match = final_hash is not None and final_hash == expected.state_hash
    found = outputs_found(expected.outputs, transcript)
    # A transfer earns the reward only where the ground truth transfers too: an agent that does the
    # writes and then hands the user off has otherwise abandoned them (docs/compatibility.md).
    ended_normally = termination == "user_stop" or (
        termination == "agent_transfer" and expected.transfer_expected
    )
    compliant = not (policy_enforced and policy_violations)
    reward = 1 if ended_normally and db_match and all(found.values()) and compliant else 0
    return RewardBreakdown(
        reward=reward,
        termination=termination,
        db_match=db_match,
        outputs_found=found,
        diagnostics=diagnostics,
        **policy,
    )


def diagnose(
    expected: ExpectedOutcome, transcript: list[Message], tool_log: list[LoggedCall]
) -> dict[str, Any]:
    """What the server saw, compared with the ground truth: matched gold actions, write differences."""
    gold = [(a.name, a.arguments) for a in expected.gold]
    successful = [(c.name, c.arguments) for c in tool_log if c.ok]
    matched = sum(1 for action in gold if action in successful)
    gold_writes = [(a.name, a.arguments) for a in expected.gold if a.writes]
    agent_writes = [(c.name, c.arguments) for c in tool_log if c.ok and c.writes]
    agent_turns = [m for m in transcript if m.role == "agent"]
    return {
        "gold_actions": len(gold),
        "gold_actions_matched": matched,
        "missing_writes": [{"name": n, "arguments": a} for n, a in gold_writes if (n, a) not in agent_writes],
        "extra_writes": [{"name": n, "arguments": a} for n, a in agent_writes if (n, a) not in gold_writes],
        "tool_calls": len(tool_log),
        "tool_errors": sum(1 for c in tool_log if not c.ok),
        "questions_to_user": sum(m.content.count("?") for m in agent_turns),
        "agent_turns": len(agent_turns),
    }
