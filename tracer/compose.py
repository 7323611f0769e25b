"""Sampling and grounding: one candidate task = a customer, one to three intents grounded on their
seed records, and a legal workflow per intent (docs/tracer.md, stages 2 and 3).

A draw that cannot be completed is not an error: it returns the reason, and the builder counts it.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from typing import Any

from taue.contracts.tasks import Action
from taue.envs.runtime.authoring import Customer, Grounded, Intent, Lookups, Rule, TracerSpec
from taue.envs.runtime.domain import Domain
from taue.simulator.anchors.fit import emotion_fits, intent_fit, weight
from taue.tracer.graph import ToolGraph, parameters
from taue.tracer.mixes import Shape
from taue.tracer.semantic_words import HIDDEN_NAME
from taue.tracer.walks import walks_into

CUSTOMER_TRIES = 200


@dataclass
class Part:
    """One intent of a candidate: grounded, with its workflow and gold calls."""

    intent: Intent
    grounded: Grounded
    walk: tuple[str, ...]
    calls: list[Action]
    """The gold calls of the workflow; a policy challenge's refused write is not among them."""
    broken: list[Rule] = field(default_factory=list)
    """A policy challenge: the rules the write the customer asks for would break."""
    offered: bool = False
    """The allowed alternative of the challenge just before it, which the customer accepts: its own
    goal and gold write, no intent of the task's planned mix (no need of its own in the prose)."""


@dataclass
class Draft:
    customer: Customer
    parts: list[Part]
    draws: dict[str, Any]

    @property
    def actions(self) -> list[Action]:
        return [*self.customer.identity, *(call for part in self.parts for call in part.calls)]

    @property
    def needs(self) -> list[Part]:
        """The parts the customer brings as needs: every part but an accepted alternative."""
        return [part for part in self.parts if not part.offered]

    @property
    def branch(self) -> str | None:
        """A policy challenge's branch: "accept" (the customer takes the allowed alternative) or
        "decline" (the gold writes nothing for it); None without a challenge."""
        if not any(part.intent.challenge for part in self.parts):
            return None
        return "accept" if any(part.offered for part in self.parts) else "decline"

    @property
    def entities(self) -> frozenset[str]:
        return frozenset({self.customer.id}).union(*(p.grounded.entities for p in self.parts))


class Rejected(Exception):
    """A draw that does not make a task; `reason` is what the builder counts."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class NeedFit:
    """Which needs fit the task's emotion (`taue.simulator.anchors.fit`): the lead need's situation is
    one the emotion fits, and every other need either is no weightier than the lead's or fits the
    emotion itself, so the task's situation (the weightiest) is one the emotion fits."""

    domain: str
    emotion: str

    def situation(self, intent: Intent) -> str:
        return intent_fit(self.domain, intent.name).situation

    def fits(self, intent: Intent) -> bool:
        return emotion_fits(self.emotion, self.situation(intent))

    def may_join(self, intent: Intent, lead: Intent) -> bool:
        return weight(self.situation(intent)) >= weight(self.situation(lead)) or self.fits(intent)


def _by_weight(rng: random.Random, intents: list[Intent], k: int) -> list[Intent]:
    if not intents:
        raise Rejected("no need fits the emotion")
    return rng.choices(intents, weights=[i.weight for i in intents], k=k)


def choose_intents(
    spec: TracerSpec,
    rng: random.Random,
    challenge: bool,
    count: int,
    fit: NeedFit | None = None,
    accept: bool = False,
) -> list[Intent]:
    """`count` intents (by weight); with `challenge`, one of them is a policy challenge (with
    `accept`, one that has an alternative the customer can take). With `fit`, the lead need (the
    challenge, else one drawn first) fits the emotion and the others are drawn among the needs that
    may join it (`NeedFit.may_join`)."""
    ordinary = [intent for intent in spec.intents if not intent.challenge]
    challenges = [i for i in spec.intents if i.challenge and (i.alternative is not None or not accept)]
    if fit is None:
        chosen = rng.choices(ordinary, weights=[i.weight for i in ordinary], k=count)
        if challenge and challenges:
            chosen[rng.randrange(len(chosen))] = rng.choices(challenges, [i.weight for i in challenges])[0]
        return chosen
    leads = challenges if challenge and challenges else ordinary
    [lead] = _by_weight(rng, [i for i in leads if fit.fits(i)], 1)
    joining = [i for i in ordinary if fit.may_join(i, lead)]
    others = _by_weight(rng, joining, count - 1) if count > 1 else []
    others.insert(rng.randrange(count), lead)
    return others


def draft_task(
    spec: TracerSpec,
    view: Any,
    domain: Domain,
    graph: ToolGraph,
    customers: list[Customer],
    rng: random.Random,
    shape: Shape,
    challenge: bool = False,
    fit: NeedFit | None = None,
    accept: bool = False,
) -> Draft:
    """One candidate of the planned `shape`; raises `Rejected` with the reason when the draw does not
    make a task. The planned workflow lengths may go to the intents in any order; an intent that has
    no workflow of any planned length takes another declared length (the records decide how many
    reads lead to them: the third order of a profile is three reads away). With `accept`, the
    challenge is followed by its alternative, which the customer accepts (`Part.offered`)."""
    intents = choose_intents(spec, rng, challenge, shape.intents, fit, accept)
    customer, grounded, offers = _ground(spec, view, customers, intents, rng, accept)
    if all(concrete.kind == "information" for concrete in grounded):
        # Every task changes the database or protects it (a refusal): an answer alone could be
        # given by an agent that never looked anything up, and the end state would prove nothing.
        raise Rejected("information only")
    parts: list[Part] = []
    last = customer.identity[-1].name
    taken = list(customer.identity)
    lengths: list[int] = []
    unused = list(shape.lengths)
    rng.shuffle(unused)
    for number, (intent, concrete) in enumerate(zip(intents, grounded, strict=True)):
        # Planned lengths first, then the other declared ones, longest first (the records more often
        # allow a short workflow than a long one, so a fallback should not add to the short ones).
        tries = [*unused, *sorted(spec.walk_lengths, reverse=True)]
        part = _first_workflow(domain, graph, intent, concrete, customer, last, tries, taken, rng)
        lengths.append(len(part.walk))
        if len(part.walk) in unused:
            unused.remove(len(part.walk))
        part.broken = spec.check_policy(view, concrete.write) if concrete.write is not None else []
        if intent.challenge and not part.broken:
            raise Rejected(f"challenge allowed by the policy ({intent.name})")
        if not intent.challenge and part.broken:
            raise Rejected(f"gold write breaks the policy ({part.broken[0].id})")
        parts.append(part)
        taken += part.calls
        last = part.calls[-1].name if part.calls else last
        if number in offers:
            offer = _offered(spec, view, domain, graph, part, offers[number], customer, last, taken, rng)
            parts.append(offer)
            taken += offer.calls
            last = offer.calls[-1].name
    return Draft(customer, parts, {"intents": [i.name for i in intents], "walk_lengths": lengths})


def _offered(
    spec: TracerSpec,
    view: Any,
    domain: Domain,
    graph: ToolGraph,
    challenge: Part,
    concrete: Grounded,
    customer: Customer,
    start: str,
    taken: list[Action],
    rng: random.Random,
) -> Part:
    """The accepted alternative of a challenge: the shortest workflow from the challenge's reads into
    its write, taking the reads it requires that the challenge's workflow did not."""
    alternative = challenge.intent.alternative
    assert alternative is not None
    intent = alternative.intent(challenge.intent.topic)
    intent = replace(intent, required=tuple(r for r in intent.required if r not in challenge.walk))
    part = _first_workflow(domain, graph, intent, concrete, customer, start, [1, 2, 3, 4], taken, rng)
    assert concrete.write is not None
    broken = spec.check_policy(view, concrete.write)
    if broken:
        raise Rejected(f"alternative breaks the policy ({broken[0].id})")
    part.offered = True
    return part


def _ground(
    spec: TracerSpec,
    view: Any,
    customers: list[Customer],
    intents: list[Intent],
    rng: random.Random,
    accept: bool = False,
) -> tuple[Customer, list[Grounded], dict[int, Grounded]]:
    """A customer and the intents grounded for them; with `accept`, the challenge's alternative too
    (keyed by the challenge's position; it touches the challenge's records, no other's).
    An accepted alternative replaces the challenge's preference, which turns alternatives down."""
    for _ in range(CUSTOMER_TRIES):
        customer = rng.choice(customers)
        grounded: list[Grounded] = []
        offers: dict[int, Grounded] = {}
        touched: set[str] = set()
        for intent in intents:
            concrete = intent.ground(view, customer, rng)
            if concrete is None or concrete.entities & touched:
                break
            offer = None
            if accept and intent.alternative is not None:
                offer = intent.alternative.ground(view, customer, concrete, rng)
                if offer is None or (offer.entities - concrete.entities) & touched:
                    break
                concrete = replace(concrete, preference=offer.preference)
                offers[len(grounded)] = replace(offer, preference="")
            grounded.append(concrete)
            touched |= concrete.entities | (offer.entities if offer else frozenset())
        else:
            if not hides_a_named_place([*grounded, *offers.values()]):
                return customer, grounded, offers
    raise Rejected("no customer fits the intents")


def hides_a_named_place(grounded: list[Grounded]) -> bool:
    """Whether one need hides a place ("the restaurant you visited on …") that the texts of the
    needs name (`hidden-name-named`): the customer cannot both not know and say its name."""
    if not any(HIDDEN_NAME.search(v) for g in grounded for v in g.known.values()):
        return False
    said = " ".join(f"{g.request} {g.situation} {g.reason} {g.preference}" for g in grounded)
    places = {
        slug.replace("_", " ").title()
        for g in grounded
        for name, value in g.discoverable.items()
        if name.endswith("location_id")
        for slug in str(value).split(" and ")
    }
    return any(re.search(rf"\b{re.escape(place)}\b", said) for place in places)


def _first_workflow(
    domain: Domain,
    graph: ToolGraph,
    intent: Intent,
    concrete: Grounded,
    customer: Customer,
    start: str,
    lengths: list[int],
    taken: list[Action],
    rng: random.Random,
) -> Part:
    """The intent's workflow of the first of `lengths` that has one."""
    for length in dict.fromkeys(lengths):
        try:
            return _workflow(domain, graph, intent, concrete, customer, start, length, taken, rng)
        except Rejected:
            continue
    raise Rejected(f"no workflow of a declared length ({intent.name})")


def _workflow(
    domain: Domain,
    graph: ToolGraph,
    intent: Intent,
    concrete: Grounded,
    customer: Customer,
    start: str,
    length: int,
    taken: list[Action],
    rng: random.Random,
) -> Part:
    bindings = {**customer.bindings, **concrete.bindings}
    options = []
    for walk in walks_into(graph, start, intent, length):
        calls = _calls(domain, walk, intent, concrete, bindings)
        if calls is not None and not any(call in taken for call in calls):
            options.append((walk, calls))
    if not options:
        raise Rejected(f"no workflow of the drawn length ({intent.name})")
    walk, calls = rng.choice(options)
    return Part(intent, concrete, walk, calls)


def _calls(
    domain: Domain, walk: tuple[str, ...], intent: Intent, concrete: Grounded, bindings: dict[str, Any]
) -> list[Action] | None:
    """The workflow's gold calls, or None when a read's arguments cannot all be bound."""
    calls = []
    steps = walk if concrete.kind == "information" else walk[:-1]  # an information workflow ends in a read
    for position, tool in enumerate(steps):
        repeats, occurrence = steps.count(tool), steps[:position].count(tool)
        call = _bound(domain, tool, bindings, repeats - occurrence)
        if call is None:
            return None
        calls.append(call)
    if intent.challenge or concrete.kind == "information":
        return calls
    if concrete.write is None or concrete.write.name != intent.terminal:
        raise ValueError(f"intent {intent.name}: its grounder must return a {intent.terminal} write")
    return [*calls, concrete.write]


def _bound(domain: Domain, tool: str, bindings: dict[str, Any], from_end: int) -> Action | None:
    """The call of `tool` with bound arguments; a `Lookups` binding gives its `from_end`-th last value."""
    params = parameters(domain, tool)
    if not params and from_end > 1:
        return None  # a read without parameters gives the same answer twice: never repeat it
    arguments = {}
    for name in params:
        value = bindings.get(name)
        if isinstance(value, Lookups):
            if from_end > len(value.values):
                return None
            value = value.values[-from_end]
        elif from_end > 1 or name not in bindings:
            return None
        arguments[name] = value
    return Action(name=tool, arguments=arguments)
