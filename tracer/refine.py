"""Reverse refinement: from the grounded workflow back to what the user knows and wants (stage 4).

The template renderer is the default and deterministic: the structured scenario the scripted user
needs (goals with their key arguments, known and discoverable facts) and one instruction for an LLM
user, in the words the domain's grounders give. `LlmRefiner` optionally rewrites the instruction
with any OpenAI-compatible endpoint; a rewrite that loses a fact is discarded.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any, cast

from taue.contracts.tasks import Action, Evaluation, Goal, Target, UserScenario
from taue.envs.runtime.authoring import TracerSpec
from taue.envs.runtime.goal_targets import attach_targets
from taue.tracer.compose import Draft
from taue.tracer.ids import is_id_fact
from taue.tracer.semantic_words import EMAIL_OR_URL, RETIRED, SNAKE_CASE, WORK_REASON


def scenario_of(
    draft: Draft, spec: TracerSpec, write_tools: frozenset[str], rng: random.Random
) -> UserScenario:
    customer = draft.customer
    known = dict(customer.known)
    discoverable = {name: str(value) for name, value in customer.bindings.items()}
    for part in draft.parts:
        _merge(known, part.grounded.known, separate=True)
        _merge(discoverable, part.grounded.discoverable, separate=False)
    known = {name: customer_words(name, value) for name, value in known.items()}
    goals = goals_of(draft, write_tools)
    return UserScenario(
        persona=f"{customer.name}, {persona_of(draft, spec, rng)}.",
        reason_for_call=spoken_reason(draft.parts[0].grounded.reason),
        known_info=known,
        volunteered=list(customer.known),
        unknown_info=[name.replace("_", " ") for name in discoverable],
        discoverable=discoverable,
        goals=goals,
        preferences=[sentence(p.grounded.preference) for p in draft.parts if p.grounded.preference],
    )


SPOKEN = {"follow_up": "follow-up", "one_way": "one-way"}
"""Tool values a customer says otherwise than with spaces for the underscores."""


def customer_words(name: str, value: str) -> str:
    """A known fact as the customer says it: a tool value in words ("issue: no_service" -> "no
    service", "payment_method: credit_card" -> "credit card"); ids (a user id is snake_case) and
    emails stay as they are."""
    if is_id_fact(name) or EMAIL_OR_URL.search(value):
        return value
    return SNAKE_CASE.sub(
        lambda m: m[0] if re.search(r"\d", m[0]) else SPOKEN.get(m[0], m[0].replace("_", " ")), value
    )


def persona_of(draft: Draft, spec: TracerSpec, rng: random.Random) -> str:
    """A persona who would bring the first need (the domain's personas when its bank names none), and
    who has a job when a need's reason is about work (no retired customer wants "less time off work")."""
    personas = list(draft.parts[0].grounded.personas or spec.personas)
    said = " ".join(
        f"{g.situation} {g.reason} {g.preference} {g.request}" for g in (p.grounded for p in draft.parts)
    )
    if WORK_REASON.search(said):
        personas = [p for p in personas if not RETIRED.search(p)] or personas
    return rng.choice(personas)


FIRST_PERSON = re.compile(r"\b(I|I'm|I've|I'd|I'll|my|me|we|our|us)\b")


def spoken_reason(reason: str) -> str:
    """The first need's reason as the customer says it after the request ("I ordered it by
    mistake."); a reason without a first-person word is said as the reason for asking."""
    if not reason:
        return ""
    # Bank reasons start in lower case unless they start with a name, so they are used as written.
    if FIRST_PERSON.search(reason):
        return sentence(reason)
    return f"I'm asking because {reason.strip().rstrip('.')}."


def sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def decided_arguments(draft: Draft) -> list[str]:
    """`tool.argument` names of gold writes that the policy decides (exempt from derivability)."""
    return sorted(
        f"{part.grounded.write.name}.{name}"
        for part in draft.parts
        if part.grounded.write is not None
        for name in part.grounded.decided
    )


def _merge(facts: dict[str, str], more: Mapping[str, str], separate: bool) -> None:
    """Add `more` to `facts`; a name already holding another value gets a numbered name (`separate`,
    for what the user says about each request: a value already known under a numbered name of the
    same fact is not stored twice) or both values ("#W1 and #W2", for ids)."""
    for name, value in more.items():
        if facts.get(name, value) == value:
            facts[name] = value
        elif separate and _numbered_holding(facts, name, value):
            continue
        elif separate:
            number = 2
            while f"{name}_{number}" in facts:
                number += 1
            facts[f"{name}_{number}"] = value
        else:
            facts[name] = f"{facts[name]} and {value}"


def _numbered_holding(facts: dict[str, str], name: str, value: str) -> bool:
    return any(facts.get(f"{name}_{number}") == value for number in range(2, len(facts) + 2))


def goal_ids(draft: Draft) -> list[str]:
    """One id per part: the intent's name, numbered when an intent occurs twice."""
    counts = Counter(part.intent.name for part in draft.parts)
    seen: Counter[str] = Counter()
    ids = []
    for part in draft.parts:
        seen[part.intent.name] += 1
        name = part.intent.name
        ids.append(f"{name}-{seen[name]}" if counts[name] > 1 else name)
    return ids


def goals_of(draft: Draft, write_tools: frozenset[str]) -> list[Goal]:
    drafts: list[Goal] = []
    pinned: dict[str, Action] = {}
    following = [*draft.parts[1:], None]
    for goal_id, part, after in zip(goal_ids(draft), draft.parts, following, strict=True):
        concrete = part.grounded
        write = cast(Action, concrete.write)  # challenges and action intents have their write
        fields: dict[str, Any] = {
            "id": goal_id,
            "kind": concrete.kind,
            "request": concrete.request,
            "evidence": list(concrete.evidence),
        }
        if part.intent.challenge:
            reasons = list(dict.fromkeys(r for rule in part.broken for r in rule.reasons))
            instead = after.grounded.write if after is not None and after.offered else None
            target = Target(tool=write.name, arguments=_key_arguments(write, unlike=instead))
            drafts.append(Goal(**fields, targets=[target], refusal_expected=True, refusal_reason=reasons))
            continue
        if concrete.kind == "action":
            pinned[goal_id] = write
        drafts.append(Goal.model_construct(**fields, targets=[], refusal_expected=False, refusal_reason=[]))
    return attach_targets(drafts, [], write_tools, pinned=pinned)


def _key_arguments(write: Action, unlike: Action | None = None) -> dict:
    """A refused write's key arguments: its ids; and, when the accepted alternative is a call of the
    same tool (the same appointment at another time), every argument whose value differs from the
    alternative's, so that the alternative's confirmation never matches the refused target."""
    ids = {
        k: v for k, v in write.arguments.items() if isinstance(v, str) and (k == "id" or k.endswith("_id"))
    }
    if unlike is not None and unlike.name == write.name:
        ids |= {k: v for k, v in write.arguments.items() if unlike.arguments.get(k) != v}
    return ids or dict(list(write.arguments.items())[:1])


def evaluation_of(draft: Draft) -> Evaluation:
    outputs = [
        e for part in draft.parts if part.grounded.kind == "information" for e in part.grounded.evidence
    ]
    return Evaluation(actions=draft.actions, outputs=list(dict.fromkeys(outputs)))


class LlmRefiner:
    """Rewrites an instruction with an OpenAI-compatible chat model, keeping every fact verbatim."""

    PROMPT = (
        "Rewrite this instruction for a person playing a customer so that it reads naturally. Keep it in "
        "the second person, keep every name, number, id, address and amount exactly as written, add no "
        "new facts and answer with the rewritten instruction only.\n\n{instruction}"
    )

    def __init__(self, model: str, base_url: str, api_key: str = "EMPTY", seed: int = 0) -> None:
        from openai import AsyncOpenAI

        self.model, self.seed = model, seed
        self.client = AsyncOpenAI(base_url=base_url, api_key=api_key, timeout=60, max_retries=2)

    async def refine(self, instruction: str, facts: list[str]) -> str | None:
        """The rewritten instruction, or None when the model dropped or changed a fact."""
        response = await self.client.chat.completions.create(
            model=self.model,
            messages=[{"role": "user", "content": self.PROMPT.format(instruction=instruction)}],
            temperature=0,
            seed=self.seed,
            max_tokens=400,
        )
        text = (response.choices[0].message.content or "").strip()
        return text if text and all(fact in text for fact in facts) else None
