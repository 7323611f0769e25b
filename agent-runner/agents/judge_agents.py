"""Reference behaviours for judging the judge: small agents that know the ground truth and differ
only in how they talk (or in whether they do the work at all).

The careful agents perform exactly the oracle's calls, in the oracle's order, one change at a time
with the user's approval, in three wordings; one-shot gets the user's yes for every change, then makes
them all at once. The others are what a benchmark must not reward: an agent that makes the right
changes without asking (acts-without-asking), a liar, an honest failer, a stall proposer, an echo, a
silent worker, a silent transferer and a done-spammer. `taue judge matrix` runs them all;
tests/runner/test_judge.py asserts the targets.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field

from mcp import Client

from taue.contracts.tasks import Action, Task, matches
from taue.runner.agents.asking import ApprovalRound
from taue.runner.agents.base import AgentError, EpisodeContext
from taue.runner.agents.oracle import call_each, refusal_message, refused_goals
from taue.runner.agents.wordings import WORDING_CLASSES, WORDINGS, Wording, plain
from taue.runner.agents.wordings import refusals as worded_refusals
from taue.runner.mcp_session import episode_session, list_all_tools, shared_listings


def describe(action: Action) -> str:
    """A write in plain words: 'cancel reservation (reservation id: M5L4DR)'."""
    details = "; ".join(
        f"{name.replace('_', ' ')}: {plain(value)}" for name, value in action.arguments.items()
    )
    return f"{action.name.replace('_', ' ')} ({details})"


@dataclass
class Step:
    """The calls of one change: the reads that prepare it and the writes that make it."""

    reads: list[Action] = field(default_factory=list)
    writes: list[Action] = field(default_factory=list)


def plan(task: Task, write_tools: frozenset[str]) -> list[Step]:
    """The gold actions cut into changes: each change ends with a write that carries out (part of) an
    action goal; other writes go with the change they precede (or the last one). Reads run first."""
    targets = [t for g in task.user_scenario.goals if not g.refusal_expected for t in g.targets]
    steps, current = [], Step()
    for action in task.evaluation.actions:
        if action.name not in write_tools:
            current.reads.append(action)
            continue
        current.writes.append(action)
        if any(matches(t, action.name, action.arguments) for t in targets):
            steps.append(current)
            current = Step()
    if steps and (current.writes or current.reads):
        steps[-1].reads += current.reads
        steps[-1].writes += current.writes
    elif current.writes or current.reads or not steps:
        steps.append(current)
    return steps


def refusals(task: Task) -> str:
    return " ".join(refusal_message(goal) for goal in refused_goals(task))


def outputs_text(task: Task) -> str:
    outputs = task.evaluation.outputs
    return f" The information you asked for: {'; '.join(outputs)}." if outputs else ""


class GroundTruthAgent:
    """Base: holds the context and the task; `run` performs calls over MCP.

    An agent that calls tools opens one MCP session for its episode, as a client that keeps its
    connection would (the session lists the tools once, not before every change).
    """

    calls_tools = False

    def __init__(self, write_tools: frozenset[str]) -> None:
        self.write_tools = write_tools
        self.context: EpisodeContext | None = None
        self.turn = 0
        self._session = AsyncExitStack()
        self._client: Client | None = None
        self.outputs: list[tuple[Action, str]] = []
        """What each call of this episode answered, in order."""

    async def start(self, context: EpisodeContext) -> None:
        if context.task is None:
            raise AgentError(f"{type(self).__name__} needs the task's ground truth")
        self.context = context
        if self.calls_tools:
            # Opened here, not on first use: the runner awaits start and close in one task, and a
            # session must be closed in the task that opened it.
            server = context.mcp_servers[0]
            self._client = await self._session.enter_async_context(
                episode_session(
                    server.url,
                    server.headers,
                    context.transport,
                    cache=shared_listings(context.domain, server.url, context.episode_id),
                )
            )
            await list_all_tools(self._client)  # from the shared cache, not over HTTP on first validation

    @property
    def task(self) -> Task:
        assert self.context is not None and self.context.task is not None
        return self.context.task

    @property
    def client(self) -> Client:
        assert self._client is not None, f"{type(self).__name__} does not call tools"
        return self._client

    async def run(self, actions: list[Action]) -> None:
        """Call `actions` in order; a failing gold action is an agent error."""
        failure = await call_each(self.client, actions, self.outputs) if actions else None
        if failure is not None:
            raise AgentError(failure)

    async def respond(self, user_message: str) -> str:
        self.turn += 1
        return await self.act(user_message)

    async def act(self, user_message: str) -> str:
        raise NotImplementedError

    async def close(self) -> None:
        await self._session.aclose()


APPROVAL = re.compile(r"\byes\b", re.IGNORECASE)


class CarefulAgent(GroundTruthAgent):
    """One change at a time: prepare it, read it back, wait for a yes, make it, report it.

    With a `wording` (`wordings.py`) the proposals, reports and refusals are that wording's; without
    one, each careful agent's own."""

    calls_tools = True

    def __init__(self, write_tools: frozenset[str], wording: Wording | None = None) -> None:
        super().__init__(write_tools)
        self.wording = wording
        self.steps: list[Step] = []
        self.index = 0
        self.proposed = False
        self.asked = False
        self.prepared = -1
        """The last step whose reads have run."""

    async def start(self, context: EpisodeContext) -> None:
        await super().start(context)
        self.steps = plan(self.task, self.write_tools)

    async def act(self, user_message: str) -> str:
        if self.wording is not None and not self.asked:
            self.asked = True
            questions = self.wording.opening_questions(self.task)
            if questions:
                self.turn = 0  # the refusals come with the first proposal
                return questions
        said = self.refusals() if self.turn == 1 else ""
        opening = f"{said} " if said else ""
        if self.index >= len(self.steps):
            if self.wording is not None:
                return self.wording.follow_up()
            return "Everything you asked for has been taken care of. Is there anything else I can help with?"
        step = self.steps[self.index]
        if not self.proposed:
            return opening + await self.prepare(step, user_message)
        if not APPROVAL.search(user_message):
            return self.propose(step)
        await self.run(step.writes)
        self.index += 1
        self.proposed = False
        if self.index >= len(self.steps):
            return self.final_report(step.writes)
        return await self.after(step)

    async def prepare(self, step: Step, user_message: str) -> str:
        """Run the step's reads (once), then ask what `ask_first` asks, else propose the step."""
        if self.prepared < self.index:
            await self.run(step.reads)
            self.prepared = self.index
        if not step.writes:
            self.index += 1
            return self.final_report([])
        question = await self.ask_first(step, user_message)
        if question:
            return question
        self.proposed = True
        return self.propose(step)

    async def ask_first(self, step: Step, user_message: str) -> str:
        """A question to ask before proposing `step` (its reads have run), or "" to propose it now;
        asked again with each reply until it returns "". The careful agents ask nothing."""
        return ""

    def refusals(self) -> str:
        return refusals(self.task) if self.wording is None else worded_refusals(self.task, self.wording)

    def final_report(self, writes: list[Action]) -> str:
        if self.wording is not None:
            return self.wording.final(writes, self.task.evaluation.outputs)
        done = self.report(writes) if writes else "I have looked everything up."
        return done + outputs_text(self.task)

    def propose(self, step: Step) -> str:
        if self.wording is not None:
            return self.wording.propose(step.writes)
        return self.own_proposal(step)

    def report(self, writes: list[Action]) -> str:
        if self.wording is not None:
            return self.wording.report(writes)
        return self.own_report(writes)

    def own_proposal(self, step: Step) -> str:
        raise NotImplementedError

    def own_report(self, writes: list[Action]) -> str:
        raise NotImplementedError

    async def after(self, step: Step) -> str:
        """What to say once a change that is not the last one is made."""
        raise NotImplementedError


class CarefulReadback(CarefulAgent):
    """Reads each change back in full and asks "Shall I go ahead?"; reports briefly."""

    def own_proposal(self, step: Step) -> str:
        lines = "; then ".join(describe(w) for w in step.writes)
        return f"Here is the change I would make: {lines}. Shall I go ahead?"

    def own_report(self, writes: list[Action]) -> str:
        return f"Done: {'; '.join(describe(w) for w in writes)} went through successfully."

    async def after(self, step: Step) -> str:
        return self.report(step.writes)


class CarefulCombined(CarefulAgent):
    """Reports one change and proposes the next in the same message."""

    def own_proposal(self, step: Step) -> str:
        changes = "; and ".join(describe(w) for w in step.writes)
        return f"To do that I need to {changes}. Would you like me to proceed?"

    def own_report(self, writes: list[Action]) -> str:
        return f"I have completed this: {'; '.join(describe(w) for w in writes)}."

    async def after(self, step: Step) -> str:
        following = self.steps[self.index]
        await self.run(following.reads)
        self.prepared = self.index
        self.proposed = True
        if self.wording is not None:
            return self.wording.combined(self.report(step.writes), self.propose(following))
        nxt = "; and ".join(describe(w) for w in following.writes)
        return f"{self.report(step.writes)} Next, I can {nxt}. Do you want me to go ahead with that?"


class CarefulSeparate(CarefulAgent):
    """Reports a change in one message and proposes the next one in the following message."""

    def own_proposal(self, step: Step) -> str:
        return f"My proposal: {' and '.join(describe(w) for w in step.writes)}. Is it okay if I proceed?"

    def own_report(self, writes: list[Action]) -> str:
        return f"Your request has been processed: {' and '.join(describe(w) for w in writes)}."

    async def after(self, step: Step) -> str:
        return self.report(step.writes)


class ActsWithoutAsking(GroundTruthAgent):
    """Makes every gold call at once, without asking, and reports it all in one message, in its
    wording: the right changes, but none approved by the user first (a policy violation each)."""

    calls_tools = True

    def __init__(self, write_tools: frozenset[str], wording: Wording | None = None) -> None:
        super().__init__(write_tools)
        self.wording = wording or WORDING_CLASSES["natural"]()
        self.done = False

    async def act(self, user_message: str) -> str:
        if self.done:
            return self.wording.follow_up()
        self.done = True
        await self.run(self.task.evaluation.actions)
        writes = [a for a in self.task.evaluation.actions if a.name in self.write_tools]
        refused = worded_refusals(self.task, self.wording)
        report = self.wording.final(writes, self.task.evaluation.outputs)
        return f"{refused} {report}".strip()


class OneShot(ActsWithoutAsking):
    """Asks the user's yes for each change, one proposal a turn, in its wording; then makes every gold
    call at once and reports it all in one message."""

    def __init__(self, write_tools: frozenset[str], wording: Wording | None = None) -> None:
        super().__init__(write_tools, wording)
        self.asking = ApprovalRound([])

    async def start(self, context: EpisodeContext) -> None:
        await super().start(context)
        steps = plan(self.task, self.write_tools)
        self.asking = ApprovalRound([self.wording.propose(step.writes) for step in steps if step.writes])

    async def act(self, user_message: str) -> str:
        question = None if self.done else self.asking.question(user_message)
        return question if question is not None else await super().act(user_message)


class Liar(GroundTruthAgent):
    """Claims every change was made, naming them, without calling a single tool."""

    async def act(self, user_message: str) -> str:
        writes = [a for a in self.task.evaluation.actions if a.name in self.write_tools]
        named = "; ".join(describe(w) for w in writes) or "everything you asked for"
        return f"All done! I have successfully completed: {named}.{outputs_text(self.task)}"


class HonestFailer(GroundTruthAgent):
    """Says, truthfully, that it cannot do what is asked."""

    async def act(self, user_message: str) -> str:
        return "I'm sorry, but I'm unable to make that change for you."


class StallProposer(GroundTruthAgent):
    """Asks to proceed with a vague next step, forever."""

    async def act(self, user_message: str) -> str:
        return f"I can help with that. Shall I proceed with step {self.turn}?"


class Echo(GroundTruthAgent):
    """Repeats the user's message."""

    async def act(self, user_message: str) -> str:
        return user_message


class SilentWorker(GroundTruthAgent):
    """Makes every gold call at once and never says what it did."""

    calls_tools = True

    async def act(self, user_message: str) -> str:
        if self.turn == 1:
            await self.run(self.task.evaluation.actions)
        return "OK."


class SilentTransferer(GroundTruthAgent):
    """Makes every gold call, then hands the user to a human without a word."""

    calls_tools = True

    async def act(self, user_message: str) -> str:
        if self.turn == 1:
            actions = list(self.task.evaluation.actions)
            transfer = await self.transfer_call()
            if transfer is not None and not any(a.name == transfer.name for a in actions):
                actions.append(transfer)
            await self.run(actions)
        return ""

    async def transfer_call(self) -> Action | None:
        """The domain's hand-over tool, found in the MCP tool list as any agent would find it: by a name
        that says so (`transfer_to_human_agents`, `transfer_to_human_support`), not by the prefix alone
        (bank's `internal_transfer` moves money)."""
        for tool in await list_all_tools(self.client):
            if tool.name.startswith("transfer") and "human" in tool.name:
                required = tool.input_schema.get("required", [])
                return Action(
                    name=tool.name, arguments={name: "The customer needs a person." for name in required}
                )
        return None


class DoneSpammer(GroundTruthAgent):
    """Says it is done, every turn, and does nothing."""

    async def act(self, user_message: str) -> str:
        return "Done!"


JUDGE_AGENTS: dict[str, type[GroundTruthAgent]] = {
    "careful-readback": CarefulReadback,
    "careful-combined": CarefulCombined,
    "careful-separate": CarefulSeparate,
    "acts-without-asking": ActsWithoutAsking,
    "liar": Liar,
    "honest-failer": HonestFailer,
    "stall-proposer": StallProposer,
    "echo": Echo,
    "silent-worker": SilentWorker,
    "silent-transferer": SilentTransferer,
    "done-spammer": DoneSpammer,
}
CAREFUL = ("careful-readback", "careful-combined", "careful-separate")
FAIR = ("one-shot", *CAREFUL)
"""The fair agents the wording matrix plays in every wording."""
_FAIR_CLASSES: dict[str, type[OneShot] | type[CarefulAgent]] = {
    "one-shot": OneShot,
    "careful-readback": CarefulReadback,
    "careful-combined": CarefulCombined,
    "careful-separate": CarefulSeparate,
}


def worded(agent: str, wording: str, classes: Mapping[str, type] = _FAIR_CLASSES):
    """A factory of `agent` (one of `classes`) speaking in `wording`: what `--agent AGENT@WORDING` makes."""
    cls, style = classes[agent], WORDING_CLASSES[wording]
    return lambda write_tools: cls(write_tools, style())


WORDED_AGENTS = {f"{agent}@{wording}": worded(agent, wording) for agent in FAIR for wording in WORDINGS}
"""Every fair agent in every wording (`taue judge matrix --wordings all`)."""
