"""What a domain declares for the Tracer, the task factory (docs/tracer.md).

A domain's `tracer.py` exposes `TRACER = TracerSpec(...)`: how to read its seed records, who its
customers are, the intents a customer can bring (each grounded on concrete seed records by a small
function), and the hard rules of its policy as code. The pipeline itself lives in `taue.tracer`;
nothing here runs it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from taue.contracts.tasks import Action, GoalKind


def write(name: str, **arguments: Any) -> Action:
    """A gold call, written the way grounders read best: `write("cancel_order", order_id=...)`."""
    return Action(name=name, arguments=arguments)


@dataclass(frozen=True)
class Customer:
    """Who a task is for: the gold calls that identify them and the facts they identify with."""

    id: str
    """The entity key: tasks of the evaluation set and the training split never share one."""
    name: str
    identity: tuple[Action, ...]
    """Gold calls that identify the customer (find their id, read their profile)."""
    known: Mapping[str, str]
    """Identity facts the customer states in the first message (e.g. the email)."""
    bindings: Mapping[str, Any]
    """Argument values identification makes known (e.g. `user_id`)."""


@dataclass(frozen=True)
class Grounded:
    """One intent made concrete for one customer: what they want, what it touches, how they say it."""

    request: str
    """How the customer asks for it, first person."""
    situation: str
    """The customer's circumstances, second person, for the instruction ("Your order … arrived")."""
    bindings: Mapping[str, Any]
    """Argument values the workflow's reads can use (`order_id`, `product_id`, …)."""
    write: Action | None = None
    """The write that does it; for a policy challenge, the write the customer asks for (refused)."""
    entities: frozenset[str] = frozenset()
    """The ids this intent touches: intents of one task touch disjoint entities."""
    kind: GoalKind = "action"
    known: Mapping[str, str] = field(default_factory=dict)
    """Facts the customer can state when asked."""
    discoverable: Mapping[str, str] = field(default_factory=dict)
    """Facts the agent's tools can find."""
    evidence: tuple[str, ...] = ()
    """What a report of it names (action) or what the agent must say (information)."""
    reason: str = ""
    """Why the customer wants it, first person, in the customer's own words ("I ordered it by
    mistake"); the first goal's reason is the scenario's reason_for_call and opens the conversation."""
    preference: str = ""
    """What the customer prefers or will not accept, first person ("I'd like the refund on the same
    card"); a policy challenge's preference is how the customer takes the refusal."""
    personas: tuple[str, ...] = ()
    """Personas who would bring this need (drawn for the task's customer when it is the first)."""
    decided: frozenset[str] = frozenset()
    """Arguments of `write` the policy leaves to the agent (a ticket's priority, a compensation
    amount): never in the customer's texts, so exempt from the derivability check."""


@dataclass(frozen=True)
class Wording:
    """One draw from a `Bank`, slots filled: the four texts a grounder puts into its `Grounded`."""

    request: str
    situation: str
    reason: str
    preference: str
    personas: tuple[str, ...]

    def fields(self) -> dict[str, Any]:
        """Keyword arguments for `Grounded(**wording.fields(), ...)`."""
        return {
            "request": self.request,
            "situation": self.situation,
            "reason": self.reason,
            "preference": self.preference,
            "personas": self.personas,
        }


@dataclass(frozen=True)
class Bank:
    """How customers put one intent into words (docs/tracer.md, "Phrase banks"): at least eight
    variants of each part, `{slot}` names filled by the grounder from the records.

    `requests` are first person, what the customer says to the agent ("Could you cancel {order}?");
    `wants` are second-person clauses for the instruction, without a final stop ("you want {order}
    cancelled"); `reasons` map a key the grounder picks from the records (a cancel reason, a later or
    earlier flight; "" for any) to first-person reasons without a final stop ("I ordered it by
    mistake"); `preferences` are first-person wishes ("I'd like the refund on the same card");
    `personas` are who would bring this need ("a nurse who shops between shifts")."""

    requests: tuple[str, ...]
    wants: tuple[str, ...]
    reasons: Mapping[str, tuple[str, ...]]
    preferences: tuple[str, ...]
    personas: tuple[str, ...] = ()

    def word(self, rng: random.Random, slots: Mapping[str, Any], reason: str = "") -> Wording:
        """One variant of each part, slots filled; `reason` picks the reasons that fit the records."""
        values = {name: str(value) for name, value in slots.items()}
        reasons = self.reasons.get(reason) or self.reasons[""]
        return Wording(
            request=_sentence(rng.choice(self.requests).format(**values)),
            situation=rng.choice(self.wants).format(**values),
            reason=rng.choice(reasons).format(**values),
            preference=rng.choice(self.preferences).format(**values) if self.preferences else "",
            personas=self.personas,
        )


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


@dataclass(frozen=True)
class Lookups:
    """Several values of one parameter in the order a careful agent tries them; the last is the one
    the intent is about (e.g. the customer's orders read until the right one is found). A workflow
    that calls the same read n times in a row uses the last n values."""

    values: tuple[Any, ...]


Ground = Callable[[Any, Customer, random.Random], Grounded | None]
"""(seed view, customer, rng) -> the intent grounded for this customer, or None if it does not fit."""


Offer = Callable[[Any, Customer, Grounded, random.Random], Grounded | None]
"""(seed view, customer, the challenge grounded, rng) -> the allowed write the policy lets the agent
offer instead of the refused one, worded as a fallback the customer accepts; None if none fits."""


@dataclass(frozen=True)
class Alternative:
    """What the policy lets the agent offer when it refuses a challenge (airline: a change of flights
    for a trip that cannot be cancelled). In the challenge's accept branch the customer takes it: the
    gold makes its write after the challenge's reads (docs/tracer.md, "Policy challenges").

    Its grounder's `request` is the fallback as the customer asks for it after the refusal ("If that
    can't be done, could you move it to May 14 instead?") and its `preference` the same wish for the
    instruction ("if that can't be done, moving it to May 14 would work"): it replaces the challenge's
    preference, which turns every alternative down."""

    name: str
    """The goal id of the alternative ("change_flight_instead")."""
    terminal: str
    """The allowed write."""
    ground: Offer
    reads: tuple[str, ...] = ()
    """Reads the alternative's workflow may pass through after the challenge's."""
    required: tuple[str, ...] = ()
    """Reads the gold must include before the write (in the challenge's workflow or the alternative's)."""

    def intent(self, topic: str) -> Intent:
        """The alternative as an ordinary intent, so that its workflow is walked like any other."""
        return Intent(self.name, self.terminal, _never, topic, self.reads, self.required)


def _never(view: Any, customer: Customer, rng: random.Random) -> Grounded | None:
    return None  # an alternative is grounded on its challenge (`Alternative.ground`), never alone


@dataclass(frozen=True)
class Intent:
    """A workflow a customer can ask for: it ends in `terminal` and passes through some `reads`."""

    name: str
    terminal: str
    """The tool the workflow ends in: a write, or a read for an information intent."""
    ground: Ground
    topic: str
    """What the customer calls about, in a few words and no database values ("cancelling an order");
    the feeling of the task is written from the topics."""
    reads: tuple[str, ...] = ()
    """Reads the workflow may pass through on its way to the terminal."""
    required: tuple[str, ...] = ()
    """Reads the workflow must include (the policy says to check first)."""
    challenge: bool = False
    """A policy challenge: the customer asks for a write the policy forbids; the gold leaves it undone."""
    weight: float = 1.0
    """How often the intent is drawn relative to the others of its kind (ordinary or challenge)."""
    alternative: Alternative | None = None
    """A policy challenge: what the policy lets the agent offer instead, which the customer accepts
    in the challenge's accept branch (`tracer/build.py`, `accepts_alternative`)."""


@dataclass(frozen=True)
class Rule:
    """A hard rule of the domain's policy, as code checks it."""

    id: str
    text: str
    reasons: tuple[str, ...]
    """Phrases a refusal on this ground would use (the scripted user accepts a refusal naming one)."""


PolicyCheck = Callable[[Any, Action], list[Rule]]
"""(seed view, write) -> the rules the write breaks; empty when the policy allows it."""


@dataclass(frozen=True)
class TracerSpec:
    load: Callable[[int], Any]
    """Seed -> the seed view (indexed seed records) the grounders and the policy check read."""
    customers: Callable[[Any], Sequence[Customer]]
    """The seed view's customers, in a stable order."""
    intents: tuple[Intent, ...]
    check_policy: PolicyCheck
    personas: tuple[str, ...]
    """Short descriptions a customer's persona is drawn from ("a nurse who shops between shifts")."""
    walk_lengths: Mapping[int, float] = field(default_factory=lambda: {2: 0.5, 3: 0.3, 4: 0.2})
    """Distribution of an intent's workflow length (tool calls, terminal included)."""
    intent_counts: Mapping[int, float] = field(default_factory=lambda: {1: 0.6, 2: 0.3, 3: 0.1})
    """Distribution of the number of intents one task composes."""
