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
from collections.abc import Sequence

from taue.contracts.tasks import UserScenario
from taue.tracer.compose import Draft

INTROS = (
    "You are {name}, {persona}.",
    "You play {name}, {persona}.",
    "Your name is {name} and you are {persona}.",
    "Meet your role: {name}, {persona}.",
    "In this call you are {name}, {persona}.",
    "You take the part of {name}, {persona}.",
    "Picture yourself as {name}, {persona}.",
    "This time you are {name}, {persona}.",
)
IDENTITIES = (
    "Your account can be found with your {facts}.",
    "If asked who you are, you share your {facts}.",
    "To be identified you offer your {facts}.",
    "Should the agent ask for your details, you provide your {facts}.",
    "The agent can find you by your {facts}.",
    "When the agent needs to look you up, you give your {facts}.",
    "You can confirm who you are with your {facts}.",
    "For identification you have your {facts} ready.",
)
FIRST_NEEDS = (
    "What brings you here: {want}.",
    "First of all, {want}.",
    "To begin with, {want}.",
    "The first thing on your list: {want}.",
    "Your main reason for calling: {want}.",
    "Above all, {want}.",
    "First, {want}.",
    "Top of your list: {want}.",
)
LATER_NEEDS = (
    "Besides, {want}.",
    "There is one more thing: {want}.",
    "Then, {want}.",
    "On top of that, {want}.",
    "While you are at it, {want}.",
    "Another matter: {want}.",
    "Once that is settled, {want}.",
    "After that, {want}.",
    "Next, {want}.",
    "In addition, {want}.",
    "Also, {want}.",
)
REASONS = (
    "That is because {reason}.",
    "The reason: {reason}.",
    "As you will tell the agent, {reason}.",
    "You explain that {reason}.",
    "The thing is, {reason}.",
    "Your reason is simple: {reason}.",
    "This matters because {reason}.",
    "It comes down to this: {reason}.",
    "{Reason}.",
)
PREFERENCES = (
    "One preference: {preference}.",
    "Keep in mind that {preference}.",
    "As for your preference, {preference}.",
    "If it comes up, {preference}.",
    "Note that {preference}.",
    "Worth saying: {preference}.",
    "On this point, {preference}.",
    "{Preference}.",
)
CHALLENGE_ENDINGS = (
    "If the agent says it cannot be done, you want to hear why, and you accept a clear reason.",
    "Should the agent refuse, you ask for the reason and accept it if it is clear.",
    "A refusal with a clear reason is something you can live with.",
    "You can accept a no, as long as the agent tells you why.",
    "If the rules do not allow it, you want that explained, and then you let it go.",
    "Were the answer no, you would want to know the reason before you let it go.",
    "An honest no with its reason is better to you than a runaround.",
    "If it turns out to be impossible, the reason is all you ask for.",
)
NO_IDS = (
    "You do not know any ids; the agent can look them up.",
    "None of the ids are in front of you; the agent's tools can find them.",
    "You have no reference numbers to hand.",
    "Reference numbers are for the agent to find; you have none.",
    "You know no ids, so the agent will need to look them up.",
    "Any reference number has to come from the agent's side: you have none.",
    "No ids are at hand for you; the agent can find them.",
    "You cannot quote any reference numbers.",
)
SOME_IDS = (
    "Apart from {ids}, you do not know any ids; the agent can look them up.",
    "Besides {ids}, you have no reference numbers to hand.",
    "Of the reference numbers you only have {ids}; anything else the agent must find.",
    "You know {ids}, but no other ids: the agent can find the rest.",
    "Other than {ids}, reference numbers are for the agent to find.",
    "Aside from {ids}, the agent's tools can find every id.",
    "Only {ids} is at hand for you; the agent can look up the rest.",
    "Beyond {ids}, you cannot quote any reference numbers.",
)
ID_FACT = re.compile(r"(^|_)(id|number)$")

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


def instruction_text(draft: Draft, scenario: UserScenario, rng: random.Random) -> str:
    """The instruction of a drafted task, in the second person."""
    writer = _Writer(rng)
    customer = draft.customer
    persona = scenario.persona.removeprefix(f"{customer.name}, ").rstrip(".")
    writer.add(INTROS, name=customer.name, persona=persona)
    facts = _listed([f"{_fact_name(n)} {customer.known[n]}" for n in customer.known])
    writer.add(IDENTITIES, facts=facts)
    for number, part in enumerate(draft.parts):
        writer.add(LATER_NEEDS if number else FIRST_NEEDS, want=_clause(part.grounded.situation))
        if part.grounded.reason:
            writer.add(REASONS, reason=second_person(_clause(part.grounded.reason)))
        if part.grounded.preference:
            writer.add(PREFERENCES, preference=second_person(_clause(part.grounded.preference)))
        if part.intent.challenge:
            writer.add(CHALLENGE_ENDINGS)
    ids = known_ids(scenario)
    if ids:
        writer.add(SOME_IDS, ids=_listed(ids))
    else:
        writer.add(NO_IDS)
    return " ".join(writer.sentences)


def known_ids(scenario: UserScenario) -> list[str]:
    """The ids the customer knows: known facts named like ids, or holding a value the agent's tools
    would otherwise find."""
    discoverable = set(scenario.discoverable.values())
    return list(
        dict.fromkeys(
            value
            for name, value in scenario.known_info.items()
            if ID_FACT.search(name) or value in discoverable
        )
    )


class _Writer:
    """Sentences in order, each from a frame whose opening no earlier sentence shares."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.sentences: list[str] = []
        self.openings: set[str] = set()

    def add(self, frames: Sequence[str], **slots: str) -> None:
        capital = {k[:1].upper() + k[1:]: _capital(v) for k, v in slots.items()}
        options = list(frames)
        self.rng.shuffle(options)
        written = [frame.format(**slots, **capital) for frame in options]
        fresh = [text for text in written if opening(text) not in self.openings]
        text = (fresh or written)[0]
        self.openings.add(opening(text))
        self.sentences.append(text)


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
