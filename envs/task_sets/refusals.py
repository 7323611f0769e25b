"""Refusal-expected goals for what an imported task's customer asks and its gold never does.

In τ-bench a task whose gold makes no write is one where the policy forbids what the customer asks
(cancelling a basic-economy trip without insurance, adding insurance after booking, compensation
for a regular member): the original scores the unchanged database, so the agent that refuses is
right. Our scripted user needs that request as an action goal with `refusal_expected`, or it would
charge the correct refusal as a stall. Built from the instruction's requests (`requests.py`):

- **the write**: the domain's write tool that best fits the request: its kind of change named by the
  tool's name (4 points) or description (1) — adding or removing something is also what a tool that
  changes a record does (2: "add 2 checked bags" to a reservation) — and each word of the request in
  the tool's name (3), or its parameters or description (1); a tie goes to the tool whose name
  shares most with the whole instruction. A request no write tool does is no goal; a refund or a
  payment asked beside another request is part of that one ("cancel … and have the refund").
- **its target**: the record ids named for the tool's id argument in the request's own words (up
  to the next request), else in its sentence, else the one id the whole instruction names for it
  (`requests.record_ids`); one goal per record, requests for the same write merged. A tool keyed by
  the customer (a certificate for the user) takes the task's user id; a record the instruction never
  names leaves the target keyed by the user id, which no call matches (only a refusal settles that
  goal; flagged).
- **its reasons**: the policy's phrases for that kind of change on those things
  (`policy_reasons.py`); a policy with no rule about it gives "policy" (flagged).

Every request of a task without gold writes becomes such a goal. In a task with gold writes only a
request whose own words name a record that no gold write touches does ("cancel reservations A and
B" where the gold cancels A only): a request without an id there cannot be told apart from one a
gold write serves.
"""

from __future__ import annotations

from dataclasses import dataclass

from taue.contracts.tasks import Action, Goal, Target
from taue.envs.runtime.domain import Domain
from taue.envs.runtime.goal_targets import scalars
from taue.envs.task_sets.policy_reasons import Rule, reasons
from taue.envs.task_sets.requests import Request, record_ids, requests
from taue.envs.task_sets.statements import first_person
from taue.envs.task_sets.wording import actions, stem, stems

FALLBACK_REASON = "policy"
PART_OF_CHANGE = frozenset({"add", "remove"})
"""Kinds of change a tool that changes a record also does ("add 2 checked bags" to a reservation)."""
DETAIL_KINDS = frozenset({"refund", "pay"})
"""Kinds of request that go with another change (a refund follows a cancellation, a payment a
booking) rather than being one."""
MAX_REQUEST_WORDS = 16
_CUSTOMER_WORDS = ("user", "customer", "patient", "client", "member")


@dataclass(frozen=True)
class WriteTool:
    name: str
    name_kinds: frozenset[str]
    other_kinds: frozenset[str]
    name_words: frozenset[str]
    other_words: frozenset[str]
    record: str | None
    """Its id argument for the record it changes (reservation_id), if any."""
    customer: str | None
    """Its argument naming the customer (user_id), if any."""


def write_tools(domain: Domain) -> list[WriteTool]:
    tools = []
    for name in sorted(domain.write_tools):
        tool = domain.mcp_tools[name]
        parameters = list(tool.parameters.get("properties", {}))
        ids = [p for p in parameters if p.endswith("_id")]
        customer = next((p for p in ids if any(w in p for w in _CUSTOMER_WORDS)), None)
        record = next((p for p in ids if p != customer and "payment" not in p), None)
        description = tool.description or ""
        label = name.replace("_", " ")
        tools.append(
            WriteTool(
                name=name,
                name_kinds=frozenset(actions(label)),
                other_kinds=frozenset(actions(description)),
                name_words=frozenset(stems(label)),
                other_words=frozenset(stems(description) | stems(" ".join(parameters).replace("_", " "))),
                record=record,
                customer=customer,
            )
        )
    return tools


def best_tool(request: Request, tools: list[WriteTool], instruction: set[str]) -> WriteTool | None:
    """The write tool that most likely does `request` (see the module docstring)."""
    scored = []
    for tool in tools:
        kind = 4 * (request.kind in tool.name_kinds) + (request.kind in tool.other_kinds)
        if not kind and request.kind in PART_OF_CHANGE and "change" in tool.name_kinds:
            kind = 2  # adding bags to a reservation changes the reservation
        if not kind:
            continue
        score = kind + 3 * len(request.objects & tool.name_words) + len(request.objects & tool.other_words)
        scored.append((score, len(instruction & tool.name_words), tool.name, tool))
    return max(scored, key=lambda item: item[:3])[3] if scored else None


@dataclass
class Draft:
    tool: str
    arguments: dict[str, str]
    record: str | None
    texts: list[str]
    reasons: list[str]
    unnamed: bool = False
    """The tool changes a record the instruction does not name: the target matches no call."""


def refusal_drafts(
    domain: Domain,
    policy_rules: list[Rule],
    user_id: str,
    instruction: str,
    actions_: list[Action],
    unserved_only: bool,
) -> list[Draft]:
    """The refusal-expected goals' parts, in the order the instruction asks (see the module docstring);
    `unserved_only`: only requests naming a record no gold write touches."""
    tools = write_tools(domain)
    heads = {t.record: set(t.record.removesuffix("_id").split("_")) for t in tools if t.record}
    looked_up: dict[str, set[str]] = {}
    for action in actions_:
        for name, value in scalars(action.arguments):
            if name in heads and isinstance(value, str):
                looked_up.setdefault(name, set()).add(value)
    named = record_ids(instruction, heads, looked_up)
    written = {str(v) for a in actions_ if a.name in domain.write_tools for _, v in scalars(a.arguments)}
    said = stems(instruction)
    vocabulary = {w for tool in domain.mcp_tools for w in stems(tool.replace("_", " "))}
    drafts: dict[tuple[str, str], Draft] = {}
    for request, tool in _placed(requests(instruction), tools, said):
        records = _records(tool, request, named, unserved_only)
        if unserved_only:
            records = [r for r in records if r is not None and r not in written]
        for record in records:
            arguments = _arguments(tool, record, user_id)
            key = (tool.name, repr(sorted(arguments.items())))
            unnamed = record is None and tool.record is not None
            draft = drafts.setdefault(key, Draft(tool.name, arguments, record, [], [], unnamed))
            draft.texts.append(_first_person(request.text))
            objects = request.objects | {stem(record)} if record else request.objects
            draft.reasons.extend(
                reasons(policy_rules, request.kind, objects, set(tool.name_words), vocabulary, instruction)
            )
    return list(drafts.values())


def _placed(found: list[Request], tools: list[WriteTool], said: set[str]) -> list[tuple[Request, WriteTool]]:
    """Each request with its tool; left out: a request no tool does, and a refund or a payment asked
    beside another request, of which it is a detail ("cancel and have the refund")."""
    placed: list[tuple[Request, WriteTool]] = []
    beside = any(request.kind not in DETAIL_KINDS for request in found)
    for request in found:
        if request.kind in DETAIL_KINDS and beside:
            continue
        if (tool := best_tool(request, tools, said)) is not None:
            placed.append((request, tool))
    return placed


def _records(
    tool: WriteTool, request: Request, named: list[tuple[str, str, int, int]], strict: bool
) -> list[str | None]:
    """The records a request is about: those named in its own span, else (unless `strict`) in its
    sentence, else the one the instruction names; [None] when it names none or several."""
    if tool.record is None:
        return [None]
    start, end = request.span
    mine = [(value, sentence, at) for argument, value, sentence, at in named if argument == tool.record]
    own: list[str | None] = [v for v, s, at in mine if s == request.sentence and start <= at < end]
    if own or strict:
        return list(dict.fromkeys(own))
    nearby = [value for value, sentence, _ in mine if sentence == request.sentence]
    anywhere: list[str | None] = list(dict.fromkeys(nearby or [value for value, _, _ in mine]))
    return anywhere if len(anywhere) == 1 else [None]


def _arguments(tool: WriteTool, record: str | None, user_id: str) -> dict[str, str]:
    if record is not None and tool.record is not None:
        return {tool.record: record}
    return {tool.customer or "user_id": user_id}


def refusal_goals(drafts: list[Draft], first_number: int) -> tuple[list[Goal], list[str]]:
    """Goals `g<first_number>`, … and the flags that say what was derived."""
    goals, flags = [], []
    for number, draft in enumerate(drafts, start=first_number):
        reasons_ = list(dict.fromkeys(draft.reasons))[:4] or [FALLBACK_REASON]
        request = draft.texts[0]
        if draft.record and draft.record not in request:
            request = f"{request} ({draft.record})"
        goals.append(
            Goal(
                id=f"g{number}",
                kind="action",
                request=f"I'd like to {request}.",
                evidence=[draft.record] if draft.record else [],
                targets=[Target(tool=draft.tool, arguments=draft.arguments)],
                refusal_expected=True,
                refusal_reason=reasons_,
            )
        )
        where = draft.record or ", ".join(f"{k}={v}" for k, v in draft.arguments.items())
        if draft.unnamed:
            where = "a record the instruction does not name; only a refusal settles it"
        flags.append(
            f"refusal-expected goal g{number}: {draft.tool} ({where}), which no gold write does; "
            f"refusal reasons {reasons_}"
            + (" (the policy has no rule about it)" if reasons_ == [FALLBACK_REASON] else "")
        )
    return goals, flags


def _first_person(text: str) -> str:
    """The request clause in the customer's words: "cancel your flights" -> "cancel my flights"."""
    return first_person(" ".join(text.split()[:MAX_REQUEST_WORDS]).rstrip(" ,;:."))
