"""Feeling and condition (stage 5): which of the 594 conditions a task is played under.

The conditions of the evaluation sets follow one balanced design over all domains. Global slot g
(domain block * 58 + position) gets emotion `EMOTION_ORDER[g % 22]` and the politeness, urgency and
trust combination `COMBINATION_ORDER[g % 27]`; since 22 and 27 share no factor this visits all 594
conditions once before any repeats (Chinese remainder theorem), so no condition repeats within or
across domains, every block of 58 holds every emotion two or three times and every combination of
the three dimensions two or three times (the dimensions are independent by construction). The
emotion order interleaves the families, so each family holds at least 15 % of any block.

For every task a feeling is then written from the user's context only (the persona and the topics of
the intents, never database values) in the words of the condition's phrase bank; the feeling
classifier must map it back to the design's condition, and an anchor instruction of that condition
is sampled for the emotional user.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import product

from taue.contracts.domain import DESIGN_DOMAINS
from taue.contracts.emotions import BY_ID, FAMILIES, POLITENESS, TRUST, URGENCY, Condition, condition_id
from taue.contracts.tasks import Emotion

BLOCK = 58
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


def block_conditions(domain: str, seed: int, count: int, challenge: Callable[[int], bool]) -> list[Condition]:
    """The designed conditions of a domain's evaluation set, with enjoyment kept off the policy
    challenges: a challenge position holding an enjoyment condition trades it with the nearest
    ordinary position that holds another family (the set's multiset of conditions is unchanged)."""
    conditions = [designed_condition(design_slot(domain, position), seed) for position in range(count)]
    for position in range(count):
        if not challenge(position) or conditions[position].family != "enjoyment":
            continue
        nearest = sorted(range(count), key=lambda other: (abs(other - position), other))
        other = next((q for q in nearest if not challenge(q) and conditions[q].family != "enjoyment"), None)
        if other is not None:
            conditions[position], conditions[other] = conditions[other], conditions[position]
    return conditions


HISTORY = re.compile(
    r"\b(again|third time|once more|burned|grievances?|every time|keeps? happening|as usual|"
    r"last time|before|for weeks|repeatedly|since the first|yet another|previous(ly)?|still not)\b",
    re.IGNORECASE,
)
"""Words that give the situation a history: no Tracer scenario has one."""
CALM = re.compile(
    r"\b(no rush|not in a hurry|in no hurry|whenever|low-priority|take your time)\b", re.IGNORECASE
)
HURRIED = re.compile(
    r"\b(quickly|immediately|right now|urgent|asap|hurry|over with|every minute)\b", re.IGNORECASE
)


def fits_situation(text: str) -> bool:
    """A feeling or anchor a Tracer task can carry: no history it lacks, no clash about time."""
    return not HISTORY.search(text) and not (CALM.search(text) and HURRIED.search(text))


def feeling_text(condition: Condition, topics: Sequence[str], rng: random.Random) -> str:
    """A feeling from the user's context (their topics) in the words of the condition's phrase bank."""
    from taue.simulator.anchors.phrases import FEELINGS, POLITENESS_PHRASES, TRUST_PHRASES, URGENCY_PHRASES

    about = " and ".join(topics)
    feelings = [f for f in FEELINGS[condition.emotion] if fits_situation(f)] or FEELINGS[condition.emotion]
    parts = [
        f"You are contacting support about {about}",
        rng.choice(feelings),
        rng.choice(POLITENESS_PHRASES[condition.politeness]),
        rng.choice(URGENCY_PHRASES[condition.urgency]),
        rng.choice(TRUST_PHRASES[condition.trust]),
    ]
    return ". ".join(parts) + "."


def classified(text: str) -> str:
    from taue.simulator.classifier import classify

    return classify(text, route=CLASSIFIER_ROUTE).condition


def emotion_for(condition: Condition, rng: random.Random) -> Emotion:
    """The task's emotion: the condition with one of its anchor instructions, sampled."""
    from taue.simulator.anchors import anchors_for

    anchors = anchors_for(condition.id)
    instruction = rng.choice([a for a in anchors if fits_situation(a)] or anchors)
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
