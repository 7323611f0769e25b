"""Feeling and condition (stage 5): which of the 594 conditions a task is played under.

The conditions of the evaluation sets follow one balanced design over all domains. Global slot g
(domain block * 58 + position) gets emotion `EMOTION_ORDER[g % 22]` and the politeness, urgency and
trust combination `COMBINATION_ORDER[g % 27]`; since 22 and 27 share no factor this visits all 594
conditions once before any repeats (Chinese remainder theorem), so no condition repeats within or
across domains, every block of 58 holds every emotion two or three times and every combination of
the three dimensions two or three times (the dimensions are independent by construction). The
emotion order interleaves the families, so each family holds at least 15 % of any block. The
training split follows the same design in its own range of slots, block by block.

Each block's conditions are then permuted so that every position holds one its task can carry
(`matched`; a policy challenge needs an emotion that fits a refusal), and the task's needs are drawn
to fit the emotion (`taue.simulator.anchors.fit`). The task's one emotion text is an anchor of the condition
whose every phrase fits the task's situation and contact; the scripted user, the LLM user and the
written feeling all speak from it, and the feeling classifier must map the feeling back to the
condition.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import product

from taue.contracts.domain import DESIGN_DOMAINS
from taue.contracts.emotions import BY_ID, FAMILIES, POLITENESS, TRUST, URGENCY, Condition, condition_id
from taue.contracts.tasks import Emotion
from taue.simulator.anchors.fit import Contact, fitting_anchors

BLOCK = 58
TRAIN_BASE, TRAIN_STRIDE = 10_000, 1_000
CLASSIFIER_ROUTE = "tfidf"  # numpy only and deterministic: the same feeling maps the same way everywhere


def emotion_order(seed: int) -> list[str]:
    """The 22 emotions, families interleaved (round robin), shuffled within each family by `seed`."""
    rng = random.Random(f"tracer-emotions:{seed}")
    families = [list(emotions) for emotions in FAMILIES.values()]
    for emotions in families:
        rng.shuffle(emotions)
    order = []
    for index in range(max(map(len, families))):
        order += [emotions[index] for emotions in families if index < len(emotions)]
    return order


def combination_order(seed: int) -> list[tuple[str, str, str]]:
    combinations = list(product(POLITENESS, URGENCY, TRUST))
    random.Random(f"tracer-combinations:{seed}").shuffle(combinations)
    return combinations


def design_slot(domain: str, position: int) -> int:
    """The global slot of an evaluation task: its domain's block, then its position in the block."""
    block = DESIGN_DOMAINS.index(domain) if domain in DESIGN_DOMAINS else _outside_block(domain)
    return block * BLOCK + position


def _outside_block(domain: str) -> int:
    # A domain outside the ten still gets a block of its own, after theirs, from its name.
    return len(DESIGN_DOMAINS) + sum(map(ord, domain)) % 100


def designed_condition(slot: int, seed: int) -> Condition:
    emotion = emotion_order(seed)[slot % 22]
    politeness, urgency, trust = combination_order(seed)[slot % 27]
    return BY_ID[condition_id(emotion, politeness, urgency, trust)]


Feasible = Callable[[int, Condition], bool]
"""(position, condition) -> whether some task of that position can carry the condition."""


def split_slot(domain: str, split: str, position: int) -> int:
    """The global slot of a position: the evaluation design's, or the training split's own range."""
    if split == "eval":
        return design_slot(domain, position)
    return TRAIN_BASE + design_slot(domain, 0) // BLOCK * TRAIN_STRIDE + position


def split_conditions(domain: str, seed: int, split: str, count: int, feasible: Feasible) -> list[Condition]:
    """The designed conditions of a split, block by block of `BLOCK` positions, each block permuted
    so that every position holds a condition it can carry (`matched`): a full block keeps exactly its
    designed multiset of conditions."""
    conditions: list[Condition] = []
    for start in range(0, count, BLOCK):
        size = min(BLOCK, count - start)
        conditions += _block(domain, seed, split, start, size, feasible)
    return conditions


def _block(domain: str, seed: int, split: str, start: int, size: int, feasible: Feasible) -> list[Condition]:
    """One block's conditions: the first `size` positions of its whole block, matched. A short block
    is never matched on its own, so a shorter build's conditions are a prefix of a longer one's."""
    designed = [designed_condition(split_slot(domain, split, start + p), seed) for p in range(BLOCK)]
    return matched(designed, lambda p, c: feasible(start + p, c))[:size]


def matched(conditions: Sequence[Condition], feasible: Feasible) -> list[Condition]:
    """The conditions permuted so that each position's is feasible there: a position holding one it
    cannot carry trades with the nearest position (then the earlier) whose condition it can carry and
    that can carry its own. Deterministic; `ValueError` when no trade exists."""
    out = list(conditions)
    for position in range(len(out)):
        if feasible(position, out[position]):
            continue
        nearest = sorted(range(len(out)), key=lambda other: (abs(other - position), other))
        other = next((q for q in nearest if feasible(position, out[q]) and feasible(q, out[position])), None)
        if other is None:
            raise ValueError(f"no position can trade condition {out[position].id} with position {position}")
        out[position], out[other] = out[other], out[position]
    return out


def emotion_text(condition: Condition, situation: str, contact: Contact, rng: random.Random) -> str:
    """The task's one emotion text: an anchor of the condition whose every phrase fits."""
    return rng.choice(fitting_anchors(condition, situation, contact))


def feeling_text(topics: Sequence[str], text: str) -> str:
    """The feeling written from the user's context (their topics) and the task's emotion text."""
    return f"You are contacting support about {' and '.join(dict.fromkeys(topics))}. {text}"


def classified(text: str) -> str:
    from taue.simulator.classifier import classify

    return classify(text, route=CLASSIFIER_ROUTE).condition


def emotion_for(condition: Condition, instruction: str) -> Emotion:
    """The task's emotion: the condition with its one emotion text."""
    return Emotion(
        family=condition.family,
        emotion=condition.emotion,
        politeness=condition.politeness,
        urgency=condition.urgency,
        trust=condition.trust,
        instruction=instruction,
    )


def chi_square(pairs: Sequence[tuple[str, str]]) -> tuple[float, float]:
    """Pearson's chi-square of independence of two 3-valued dimensions, and its p-value (df 4)."""
    rows, columns = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    observed, total = Counter(pairs), len(pairs)
    statistic = 0.0
    for a, b in product(rows, columns):
        expected = rows[a] * columns[b] / total
        statistic += (observed[(a, b)] - expected) ** 2 / expected
    degrees = (len(rows) - 1) * (len(columns) - 1)
    return round(statistic, 3), round(_chi_square_survival(statistic, degrees), 4)


def _chi_square_survival(x: float, degrees: int) -> float:
    """P(X >= x) for an even number of degrees of freedom (closed form)."""
    if degrees <= 0:
        return 1.0
    if degrees % 2:
        raise ValueError("only even degrees of freedom are supported")
    term, total = 1.0, 1.0
    for k in range(1, degrees // 2):
        term *= (x / 2) / k
        total += term
    return math.exp(-x / 2) * total
