"""The LLM user backend: a language model plays the emotional user over any OpenAI-compatible
chat-completions endpoint (vLLM, llama.cpp's server, a hosted API).

The prompt (docs/simulator.md, "The LLM user"): guidelines, the task's scenario, the task's one
emotion text (`emotion.instruction`, chosen by the Tracer to fit the task's situation) and the rules
for `###STOP###` and `###UNSATISFIED###`.
As in τ-bench the roles are flipped: the simulator model sees the agent's messages as `user` turns
and writes its own as `assistant` turns, starting from a fixed agent greeting. Requests carry
temperature 0 (from `UserOptions`) and the episode's seed.

Failures are never the agent's: transient ones (the endpoint down, 5xx, rate limits, empty
completions) are retried, then raise `SimulatorUnavailable` (the simulator service answers
UNAVAILABLE and the runner retries the episode); errors a retry cannot fix (a wrong model name or
key: HTTP 4xx; a bad setting) raise `SimulatorError` (not retried). Either way the runner logs the
episode to errors.jsonl as an infrastructure error.
"""

from __future__ import annotations

import asyncio
import os
import re
from typing import Any

import openai

from taue.contracts.episode import STOP, UNSATISFIED, AgentTurn, Notification, UserTurn
from taue.contracts.model_clients import shared_model_client
from taue.contracts.tasks import Task
from taue.simulator.approvals import YesApprovals
from taue.simulator.session import SimulatorError, SimulatorUnavailable, UserOptions

AGENT_GREETING = "Hi! How can I help you today?"
"""The first `user` turn the simulator model sees (the role flip needs the agent to speak first)."""
API_KEY_VARIABLES = ("TAUE_USER_API_KEY", "OPENAI_API_KEY")
LOCAL_API_KEY = "not-needed"
"""Sent when neither variable is set: local servers (vLLM, llama.cpp) accept any key."""
MAX_TOKENS = 256
REQUEST_TIMEOUT = 60.0
RETRY_DELAYS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0)
"""Backoff before each retry of a transport error (connection, timeout, 408/409/429, 5xx)."""
EMPTY_RETRIES = 2
"""Extra attempts after an empty completion before giving up with `SimulatorUnavailable`."""
_TOKEN = re.compile(r"#{2,}\s*(STOP|UNSATISFIED)\s*#*|\b(STOP|UNSATISFIED)\s*#{2,}", re.IGNORECASE)

GUIDELINES = """\
You are playing a customer who contacts a customer-service agent. You are the customer, never the agent.

# Rules
- Write one message at a time, the way the customer would type it: short and natural. Never write the \
agent's side of the conversation.
- Only state facts given in your scenario below. If the agent asks for something you were not given, \
say you don't know it. Never invent names, numbers, ids, emails, dates or amounts.
- Reveal information only when the agent asks for it, except what you are told to say up front.
- Paraphrase: don't copy the scenario word for word.
- Keep the feelings described below for the whole conversation: they change how you talk, never \
what you want.
- The service sends you a confirmation for every change it makes; they appear after the agent's \
message as lines starting with "[Confirmation]". A change counts as done only when you received its \
confirmation: if the agent says something is done and no confirmation came, say you have not \
received one. When the agent asks you to approve a change, approve only what you asked for.
- When everything you wanted is done (confirmed, or refused by the agent with a reason you accept) \
and you are content, end your message with {stop}.
- Leave early by ending your message with {unsatisfied} when the agent ignores how you feel or \
brushes past your emotional cues, erodes your trust, or adds needless friction (asking for things it \
could look up itself, asking again for what you already said, going in circles). Never use \
{unsatisfied} once everything you wanted is done and you are content.
"""


def _bullets(items: list[str]) -> str:
    return "\n".join(f"- {item}" for item in items) if items else "- (none)"


def scenario_text(task: Task) -> str:
    """The scenario as the simulated user may know it: discoverable facts by name only, no values."""
    s = task.user_scenario
    # Sorted: fact maps cross the gRPC boundary as protobuf maps, whose order varies per process.
    known = [f"{name.replace('_', ' ')}: {s.known_info[name]}" for name in sorted(s.known_info)]
    goals = "\n".join(f"{i}. {goal.request}" for i, goal in enumerate(s.goals, start=1))
    parts = [
        "# Your scenario",
        task.instruction,
        f"Who you are: {s.persona}",
        f"Why you are contacting support: {s.reason_for_call}",
        f"What you want, in this order:\n{goals}",
        f"Facts you can give when asked:\n{_bullets(known)}",
        "Say these in your first message: "
        + (", ".join(n.replace("_", " ") for n in s.volunteered) or "nothing beyond your request"),
        f"Things you do not know:\n{_bullets(s.unknown_info)}",
        "Things the agent can look up itself (you don't have them at hand):\n"
        + _bullets([n.replace("_", " ") for n in sorted(s.discoverable)]),
    ]
    if s.preferences:
        parts.append(f"Your preferences:\n{_bullets(s.preferences)}")
    return "\n\n".join(parts)


def emotion_instruction(task: Task) -> str:
    """How the user feels: the task's one emotion text, chosen by the Tracer to fit its situation."""
    if task.emotion is None:
        return "You are calm and matter-of-fact: no particular emotion colours how you talk."
    return task.emotion.instruction


def system_prompt(task: Task) -> str:
    return "\n\n".join(
        [
            GUIDELINES.format(stop=STOP, unsatisfied=UNSATISFIED),
            scenario_text(task),
            "# How you feel\n" + emotion_instruction(task),
        ]
    )


def parse_reply(text: str) -> tuple[str, str | None]:
    """The user's message with any end token made canonical, and the termination it asks for.

    Tokens are found even when glued to other text ("thanks###STOP###", "###stop"); the first one
    decides. The message keeps its words and ends with the canonical token.
    """
    match = _TOKEN.search(text)
    if match is None:
        return text.strip(), None
    word = (match.group(1) or match.group(2)).upper()
    token, termination = (STOP, "user_stop") if word == "STOP" else (UNSATISFIED, "user_unsatisfied")
    words = " ".join(_TOKEN.sub(" ", text).split())
    return f"{words} {token}".strip(), termination


def api_key() -> str:
    """The LLM user's key: TAUE_USER_API_KEY, else OPENAI_API_KEY, else a placeholder local servers accept."""
    return next((os.environ[v] for v in API_KEY_VARIABLES if os.environ.get(v)), LOCAL_API_KEY)


def _retryable(exc: Exception) -> bool:
    if isinstance(exc, openai.APIConnectionError | openai.RateLimitError | openai.InternalServerError):
        return True
    return isinstance(exc, openai.APIStatusError) and (
        exc.status_code in (408, 409) or exc.status_code >= 500
    )


def thinking_switch(enable_thinking: bool | None) -> dict[str, Any]:
    """The request field that turns a Qwen3-family model's thinking on or off; nothing for None."""
    if enable_thinking is None:
        return {}
    return {"chat_template_kwargs": {"enable_thinking": enable_thinking}}


def agent_content(turn: AgentTurn) -> str:
    """The agent's message, followed by the service's confirmations the customer received."""
    return "\n".join([turn.message, *(n.render() for n in turn.notifications)])


class LLMUser:
    """One conversation of the LLM user. `usage` counts the tokens of every completion."""

    def __init__(
        self,
        task: Task,
        seed: int,
        options: UserOptions,
    ) -> None:
        if not options.model or not options.base_url:
            raise SimulatorError("the llm user needs a model and a base URL (--user-model, --user-base-url)")
        self.task, self.seed, self.options = task, seed, options
        self.messages: list[dict[str, str]] = [
            {"role": "system", "content": system_prompt(task)},
            {"role": "user", "content": AGENT_GREETING},
        ]
        self.usage: dict[str, int] = {"prompt_tokens": 0, "completion_tokens": 0}
        self.approvals = YesApprovals(task.user_scenario.goals)

    async def first_message(self) -> str:
        message, _ = parse_reply(await self._complete())
        return message

    async def respond(self, turn: AgentTurn) -> UserTurn:
        self.approvals.check(turn.notifications)
        self.messages.append({"role": "user", "content": agent_content(turn)})
        message, termination = parse_reply(await self._complete())
        self.approvals.answered(turn.message, message)
        done = termination is not None
        reason = None
        if termination == "user_unsatisfied":
            reason = message.removesuffix(UNSATISFIED).strip()[:300] or "the llm user left unsatisfied"
        return UserTurn(
            message=message,
            done=done,
            termination=termination,
            reason=reason,
            policy_violations=list(self.approvals.violations),
        )

    def last_turn(self, notifications: list[Notification]) -> list[str]:
        """The episode's policy violations, with the writes of an agent turn the user never answered."""
        return self.approvals.last_turn(notifications)

    def request(self) -> dict[str, Any]:
        """The chat-completions request for the next user turn (what the endpoint receives)."""
        return {
            "model": self.options.model,
            "messages": [dict(m) for m in self.messages],
            "temperature": self.options.temperature,
            "seed": self.seed,
            "max_tokens": MAX_TOKENS,
            **thinking_switch(self.options.enable_thinking),
        }

    async def _complete(self) -> str:
        for _ in range(EMPTY_RETRIES + 1):
            response = await self._create()
            usage = response.usage
            if usage is not None:
                self.usage["prompt_tokens"] += usage.prompt_tokens or 0
                self.usage["completion_tokens"] += usage.completion_tokens or 0
            text = (response.choices[0].message.content or "") if response.choices else ""
            if text.strip():
                self.messages.append({"role": "assistant", "content": text})
                return text
        raise SimulatorUnavailable(
            f"the llm user's endpoint returned {EMPTY_RETRIES + 1} empty completions in a row "
            f"(model {self.options.model!r} at {self.options.base_url})"
        )

    async def _create(self) -> Any:
        delays = list(RETRY_DELAYS)
        while True:
            try:
                client = shared_model_client(
                    self.options.base_url or "", api_key(), max_retries=0, timeout=REQUEST_TIMEOUT
                )
                return await client.chat_completion(self.request())
            except openai.APIError as exc:
                if _retryable(exc) and delays:
                    await asyncio.sleep(delays.pop(0))
                    continue
                error = SimulatorUnavailable if _retryable(exc) else SimulatorError
                raise error(
                    f"the llm user's endpoint failed (model {self.options.model!r} at "
                    f"{self.options.base_url}): {type(exc).__name__}: {exc}"
                ) from exc
