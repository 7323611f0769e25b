"""The instruction writer (stage 4): a grounded draft as a customer brief, the way published τ-bench
instructions read — who the customer is, how they identify, each need with its reason and
preference, and what they know.

Every sentence takes a frame from a bank of at least eight; a frame whose sentence would open like
an earlier sentence of the same instruction is passed over, so no two sentences open alike.
Reasons and preferences come from the domain's phrase banks in the first person and are turned to
the second person here (`second_person`).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from taue.contracts.tasks import UserScenario
from taue.tracer.compose import Draft, Part
from taue.tracer.frames import (
    CHALLENGE_ACCEPTS,
    CHALLENGE_ENDINGS,
    FEES_ACCEPTED,
    FIRST_NEEDS,
    IDENTITIES,
    INTROS,
    LATER_NEEDS,
    NO_IDS,
    REASONS,
    SOME_IDS,
    WANT_TAILS,
    preference_frames,
)
from taue.tracer.ids import ID_FACT, known_flights, mentions, not_an_id, stated_ids

_SWAPS = {
    "i": "you",
    "i'm": "you're",
    "i've": "you've",
    "i'd": "you'd",
    "i'll": "you'll",
    "me": "you",
    "my": "your",
    "mine": "yours",
    "myself": "yourself",
    "we": "you",
    "we're": "you're",
    "we've": "you've",
    "we'd": "you'd",
    "we'll": "you'll",
    "us": "you",
    "our": "your",
    "ours": "yours",
    "ourselves": "yourselves",
    # In the customer's words "you" is the agent.
    "you": "the agent",
    "your": "the agent's",
    "yours": "the agent's",
    "you're": "the agent is",
    "you've": "the agent has",
    "you'd": "the agent would",
    "you'll": "the agent will",
    "yourself": "the agent",
}
_IMPERATIVES = (
    (re.compile(r"^(please,? )?(don't|do not) ", re.IGNORECASE), "the agent should not "),
    (re.compile(r"^please,? ", re.IGNORECASE), "I'd like the agent to "),
)
_WORD = re.compile(
    r"\b(?:[Ii]'(?:m|ve|d|ll)|[Ww]e'(?:re|ve|d|ll)|[Yy]ou'(?:re|ve|d|ll)|(?:are|have|were)n't|[A-Za-z]+)\b"
)
_AFTER_SUBJECT = {"am": "are", "was": "were", "wasn't": "weren't"}
_AFTER_AGENT = {"are": "is", "were": "was", "have": "has", "aren't": "isn't", "haven't": "hasn't"}
"""Verbs after the agent, whom the customer calls "you" ("if you are able" -> "if the agent is able")."""
_CLAUSE_OPENERS = frozenset(
    ("before", "after", "if", "when", "once", "unless", "until", "while", "as", "that", "so", "because")
)
"""Words after which "you" is the subject of a clause in the present tense ("before you book it")."""
_MODALS = frozenset(("can", "could", "will", "would", "shall", "should", "may", "might", "must"))


def second_person(text: str) -> str:
    """A first-person phrase in the second person ("I moved and my card changed" -> "you moved and
    your card changed"); the agent the customer calls "you" becomes "the agent", a request to it
    ("Please read it back") a wish ("you'd like the agent to read it back")."""
    for pattern, replacement in _IMPERATIVES:
        text, found = pattern.subn(replacement, text)
        if found:
            break
    out: list[str] = []
    last, previous, before = 0, "", ""
    for match in _WORD.finditer(text):
        word, lower = match.group(0), match.group(0).lower()
        replacement = _SWAPS.get(lower, word)
        if previous == "you" and before in _CLAUSE_OPENERS:
            replacement = _third_person(word, replacement)
        if lower in _AFTER_SUBJECT and previous in ("i", "we"):
            replacement = _AFTER_SUBJECT[lower]
        if lower in _AFTER_AGENT and previous == "you":
            replacement = _AFTER_AGENT[lower]
        if replacement != word and word[:1].isupper() and not lower.startswith("i"):
            replacement = _capital(replacement)  # "My" -> "Your"; "I" is upper case anywhere
        out.append(text[last : match.start()] + replacement)
        last, previous, before = match.end(), lower, previous
    return "".join(out) + text[last:]


def _third_person(word: str, replacement: str) -> str:
    """A present-tense verb after "the agent" in a clause ("before you book" -> "before the agent books")."""
    from lemminflect import getAllLemmas, getInflection

    lower = word.lower()
    if replacement != word or lower in _MODALS or getAllLemmas(lower, upos="VERB").get("VERB") != (lower,):
        return replacement
    return getInflection(lower, "VBZ")[0]


def instruction_text(
    draft: Draft,
    scenario: UserScenario,
    rng: random.Random,
    fees: Sequence[Sequence[str]] = (),
    quota: FrameQuota | None = None,
) -> str:
    """The instruction of a drafted task, in the second person. `fees`, per need, names the fees its
    gold writes pay ("late-drop fee"): the customer accepts each once, after the first need paying it.
    With `quota`, each sentence takes the least used fitting frame of the split."""
    if quota is not None:
        quota.drafted = []
    writer = _Writer(rng, quota)
    customer = draft.customer
    persona = scenario.persona.removeprefix(f"{customer.name}, ").rstrip(".")
    writer.add(INTROS, name=customer.name, persona=persona)
    facts = _listed([f"{_fact_name(n)} {customer.known[n]}" for n in customer.known])
    writer.add(IDENTITIES, facts=facts)
    accepted: set[str] = set()
    following = [*draft.parts[1:], None]
    for number, (part, after) in enumerate(zip(draft.parts, following, strict=True)):
        if not part.offered:
            _need(writer, part, first=number == 0, accepts=after is not None and after.offered)
        for fee in fees[number] if number < len(fees) else ():
            if fee not in accepted:
                accepted.add(fee)
                writer.add(FEES_ACCEPTED, fee=_with_article(fee))
    said = [*writer.sentences, *(goal.request for goal in scenario.goals)]
    if any(mentions(" ".join(said), flight) for flight in known_flights(scenario, draft.actions)):
        # A quoted flight number is no id, and the customer states it: no "no other ids" sentence
        # could list it (`not-an-id`) or leave it out (`id-stated-then-denied`).
        return " ".join(writer.sentences)
    ids = known_ids(scenario)
    ids += stated_ids(said, scenario, draft.actions, ids)
    if ids:
        writer.add(SOME_IDS, ids=_listed(ids))
    else:
        writer.add(NO_IDS)
    return " ".join(writer.sentences)


def _need(writer: _Writer, part: Part, first: bool, accepts: bool) -> None:
    """A need's sentences: the want, its reason and preference, and for a challenge how the customer
    takes the refusal. In the accept branch the preference is the alternative the customer takes
    (`Alternative`), and the ending says so instead of letting the matter go."""
    writer.add(FIRST_NEEDS if first else LATER_NEEDS, want=writer.ending(_clause(part.grounded.situation)))
    if part.grounded.reason:
        writer.add(REASONS, reason=second_person(_clause(part.grounded.reason)))
    if part.grounded.preference:
        preference = second_person(_clause(part.grounded.preference))
        writer.add(preference_frames(preference), preference=preference)
    if part.intent.challenge:
        writer.add(CHALLENGE_ACCEPTS if accepts else CHALLENGE_ENDINGS)


def known_ids(scenario: UserScenario) -> list[str]:
    """The ids the customer knows: known facts named like ids, or holding a value the agent's tools
    would otherwise find, that are ids (a date or a zip code the tools also find is not)."""
    discoverable = set(scenario.discoverable.values())
    return list(
        dict.fromkeys(
            value
            for name, value in scenario.known_info.items()
            if (ID_FACT.search(name) or value in discoverable) and not not_an_id(value)
        )
    )


def _with_article(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


CONDITIONAL = re.compile(r"(?:if|when|where|should|in case|unless)\b", re.IGNORECASE)
"""A frame or a clause opening with a condition: the two never go together ("If it comes up, if it
doesn't work out, …")."""


@dataclass
class FrameQuota:
    """How often each frame was used by the accepted tasks of one split: the writer takes the least
    used frame (ties in random order), so no frame stands in more than about 1/n of the instructions
    for a bank of n frames used once per task (`tracer/frames.py`)."""

    used: Counter[str] = field(default_factory=Counter)
    drafted: list[str] = field(default_factory=list)
    """The frames of the candidate being written; `commit` counts them once it is accepted."""

    def commit(self) -> None:
        self.used.update(self.drafted)
        self.drafted = []


class _Writer:
    """Sentences in order, each from a frame whose opening no earlier sentence shares."""

    def __init__(self, rng: random.Random, quota: FrameQuota | None = None) -> None:
        self.rng, self.quota = rng, quota
        self.sentences: list[str] = []
        self.openings: set[str] = set()

    def add(self, frames: Sequence[str], **slots: str) -> None:
        capital = {k[:1].upper() + k[1:]: _capital(v) for k, v in slots.items()}
        options = list(frames)
        self.rng.shuffle(options)
        if self.quota is not None:
            options.sort(key=self.quota.used.__getitem__)  # stable: ties keep the random order
        written = [
            (frame, frame.format(**slots, **capital))
            for frame in options
            if not (CONDITIONAL.match(frame) and any(CONDITIONAL.match(v) for v in slots.values()))
        ] or [(frame, frame.format(**slots, **capital)) for frame in options]
        fresh = [(frame, text) for frame, text in written if opening(text) not in self.openings]
        frame, text = (fresh or written)[0]
        self.openings.add(opening(text))
        self.sentences.append(text)
        if self.quota is not None:
            self.quota.drafted.append(frame)

    def ending(self, want: str) -> str:
        """A gerund want with the least used ending of `WANT_TAILS` (its own when no quota)."""
        tail = next((t for t in WANT_TAILS if re.search(rf"\b{t}\b", want)), None)
        quota = self.quota
        if tail is None or quota is None:
            return want
        options = list(WANT_TAILS)
        self.rng.shuffle(options)
        options.sort(key=lambda t: quota.used[f"… {t}"] + quota.drafted.count(f"… {t}"))
        quota.drafted.append(f"… {options[0]}")
        return want.replace(tail, options[0], 1)


def opening(sentence: str) -> str:
    """A sentence's first two words, lower-cased: what makes sentences "open alike"."""
    return " ".join(re.findall(r"[a-z']+", sentence.lower())[:2])


def _clause(text: str) -> str:
    return text.strip().rstrip(".!").strip()


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _fact_name(name: str) -> str:
    return {"zip": "zip code", "dob": "date of birth"}.get(name, name.replace("_", " "))


def _listed(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"
