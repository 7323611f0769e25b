"""Offers and yes/no checks: whether a question proposes a change, offers to look something up, or
only asks yes or no.

A *proposal* asks to carry out a change: a proposal phrase near its start ("Shall I…"), an imperative
verb of change ("Cancel reservation ABC123?"), an offer of a transaction ("Want me to book it?",
"Were you thinking of making a transfer?"), bare details asked back ("2 tickets for Friday?"), or a
yes/no check holding a verb of change. A *lookup offer* offers to find something out ("Can I check
your order?"). A question led by a wh-word is neither ("What city should I search in?" asks for the
city).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from taue.simulator.claims import claim
from taue.simulator.facts import content_words
from taue.simulator.lexicon import is_lookup, is_verb, meaning, phrase_meanings, wordset
from taue.simulator.phrases import (
    ASKS_USER,
    AUXILIARIES,
    CONFIRM_LEAD,
    CONFIRMATION_PHRASES,
    DECLARATIVE_CHECK,
    HOW_ABOUT,
    INTENT_OFFER,
    LOOKUP_LEAD,
    MONTH_DAY,
    OFFER_LEADS,
    ONE_VALUE,
    PROPOSAL_LEAD,
    PROPOSAL_PHRASES,
    READBACK,
    REQUEST_VERBS,
    SUBORDINATORS,
    TRANSACTION,
    VAGUE,
    VALUE,
    WH_CHOICE,
    WH_WORDS,
    WORD,
    YES_NO_WORDS,
)
from taue.simulator.reading import Reading


def has(text: str, phrases: Iterable[str]) -> bool:
    return any(phrase in text for phrase in phrases)


def proposed_verb(question: str, phrases: Iterable[str] = PROPOSAL_PHRASES) -> str | None:
    """The first content word after a proposal phrase ("would you like me to *look* up …")."""
    skipped = ("to", "me", "you", "go", "ahead", "and", "also", "quickly", "just", "first", "now")
    for phrase in phrases:
        at = re.search(rf"\b{re.escape(phrase)}\b", question)
        if at:
            words = [w for w in WORD.findall(question[at.end() :]) if w not in skipped]
            if words:
                return words[0]
    return None


def _subordinate(question: str, lead: str) -> bool:
    """ "Before I can look into this, …", "so I can check": the lead is not an offer."""
    before = WORD.findall(question[: question.find(lead)])[-2:]
    return any(word in SUBORDINATORS for word in before)


def bare_offer(question: str) -> bool:
    """A proposal or yes/no question that names nothing ("Want me to?", "Shall I?", "Would you like
    that?"): it is about the sentence before."""
    return (opens_with_proposal(question) or yes_no(question)) and len(content_words(question)) <= 1


def offers_lookup(question: str, leads: tuple[str, ...] = (*PROPOSAL_PHRASES, *OFFER_LEADS)) -> bool:
    """ "Can I check your order?", "Would you like me to look up …": an offer to find something out,
    made at the start of the question ("…so that I can look it up" asks for something else)."""
    if wh_led(question) or _asks_wh(question) or PLACE_ASKED.search(question):
        return False  # "What city should I search in?", "Is there a certain city I should search?" ask for it
    early = [p for p in leads if 0 <= question.find(p) < LOOKUP_LEAD and not _subordinate(question, p)]
    verb = proposed_verb(question, early)
    return verb is not None and is_lookup(verb) and verb not in ("confirm", "have", "know")


LEAD_FILLERS = frozenset(
    {"ok", "okay", "sure", "alright", "great", "so", "and", "then", "certainly", "perfect", "well", "fine"}
)


PLACE_ASKED = re.compile(
    r"\b(?:is there|are there|do you have|any) (?:a |an |any )?(?:particular|specific|certain|preferred) "
    r"(?:city|place|area|location|town|region|date|day|time)\b"
)
"""'Is there a particular city you'd like me to search?': the lookup's place is asked for."""


def wh_led(question: str) -> bool:
    """A wh-word opens the question, alone or after a preposition ("In which city …?")."""
    words = WORD.findall(question)
    while words[:1] and words[0] in LEAD_FILLERS:
        words = words[1:]  # "Okay, what city should I search in?"
    words = words[:2]
    return bool(words) and (
        words[0] in WH_WORDS or (words[0] in PREPOSITIONS and words[1:] in (["which"], ["what"]))
    )


PREPOSITIONS = frozenset({"in", "at", "on", "for", "from", "to", "by", "with", "around", "until", "till"})


def opens_with_proposal(question: str) -> bool:
    """ "Shall I…?" near the start; a wh-question ("Which one would you like me to cancel?") never is."""
    if wh_led(question):
        return False
    return any(0 <= question.find(phrase) < PROPOSAL_LEAD for phrase in PROPOSAL_PHRASES)


def confirms(question: str, reading: Reading) -> None:
    """A proposal or yes/no check: a lookup offer when what it offers is to find something out, an
    open question when it offers nothing in particular ("any other changes, such as …?")."""
    verb = proposed_verb(question)
    starts = [
        at for phrase in (*PROPOSAL_PHRASES, *CONFIRMATION_PHRASES) if (at := question.find(phrase)) >= 0
    ]
    offered = question[min(starts, default=0) :]  # "…any other option, and confirm if you want to proceed"
    if verb is not None and is_lookup(verb) and verb not in ("confirm", "verify"):
        reading.lookup_offers += 1
    elif VAGUE.search(re.split(r",? or (?:is there|do you|would you)\b", offered)[0]):
        reading.wish_questions += 1  # "…any specific action, such as a return?" (not "…, or anything else?")
    else:
        reading.asks_confirmation = True


def changes_anything(question: str) -> bool:
    words = WORD.findall(question)
    return any(changes(w) for w in words) or bool(_phrasal_change(words))


def proposes_change(question: str) -> bool:
    """A question that offers to change something: a proposal phrase near its start ("Shall I…"),
    an imperative verb of change ("Cancel reservation ABC123?"), or a yes/no check ("(yes/no)", "is
    that okay", "do you want to…") holding a verb of change."""
    words = WORD.findall(question)
    if offers_transaction(question):
        return True
    if CONFIRM_LEAD.match(question) or HOW_ABOUT.match(question) or reads_back(question):
        return True  # "Confirming a table for 2 at 7 pm.", "How about renting it?"
    if question.rstrip().endswith("?") and DECLARATIVE_CHECK.match(question) and not _asks_wh(question):
        return True  # "You'd like to rent it?", "So a table for 4 at 7 pm?"
    if not words or words[0] in WH_WORDS or WH_CHOICE.search(question):
        return False
    if opens_with_proposal(question) or (changes(words[0]) and is_verb(words[0])):
        return True
    checks = has(question, PROPOSAL_PHRASES) or has(question, CONFIRMATION_PHRASES)
    return checks and (any(changes(w) for w in words) or bool(_phrasal_change(words)))


def _asks_wh(question: str) -> bool:
    """A wh-word opens one of its clauses ("…, which day?"); one after a noun opens a relative clause or
    a title ("the film The Man Who Knew Too Much?") and asks nothing."""
    return any(
        (found := WORD.findall(clause)) and found[0] in WH_WORDS for clause in re.split(r"[,;:—–]", question)
    )


def reads_back(sentence: str) -> bool:
    """ "You want a table for 2 at 7 pm.": an action's details read back for the user to check (a
    report of the change, "Booking confirmed for 2", is no check)."""
    lowered = " ".join(sentence.lower().replace("’", "'").split())
    named = NAMED_READBACK.match(lowered) and PROPER_NAME.search(sentence)
    detailed = VALUE.search(lowered) or AGENT_ACTION.search(lowered) or named
    playing = PLAYING.match(sentence)
    return bool((READBACK.match(lowered) and detailed) or playing or bare_details(lowered)) and not claim(
        sentence
    )


def bare_details(lowered: str) -> bool:
    """ "mets vs braves march 13th new york 2 tickets": a booking's details and nothing else, with the
    party it is for and when. A search result reads the same but prices or rates what it found ("$463",
    "4.3 rating"), and a sentence with a subject or a verb's auxiliary says more than details."""
    words = WORD.findall(lowered)
    return (
        PARTY.search(lowered) is not None
        and WHEN.search(lowered) is not None
        and len(ONE_VALUE.findall(lowered)) >= 2
        and "$" not in lowered
        and not ({"rating", "rated", "stars"} & set(words))
        and not (SAYS_MORE & set(words))
    )


PARTY = re.compile(
    r"\b\d+ (?:people|persons?|tickets?|rooms?|seats?|days?|nights?|riders?|passengers?|adults?|guests?)\b"
    r"|\bfor \d{1,2}\b(?! ?(?:[ap]m|[-:./]))"
)
"""Whom or how much a booking is for: "2 people", "3 rooms", "for 4"."""
WHEN = re.compile(MONTH_DAY + r"|\b(?:today|tomorrow|tonight)\b|\d ?[ap]m\b|\d:\d\d")
"""When the booking is for: bare details always say it ("8 seats; maximum of 8" is a rule's numbers)."""
SAYS_MORE = wordset(
    "i i'm i've i'll you you're you'd you've you'll we we're we'll they it it's he she is are was were am "
    "be been will would can could shall should may might must have has had do does did there there's "
    "that's this"
)
"""Subjects and auxiliaries: a sentence with one of them is a statement, not bare details."""


NAMED_READBACK = re.compile(
    r"^(?:\w+[,.!]?\s+){0,3}?(?:you(?:'d| would) like to \w+ |(?:booking|reserving|renting|scheduling) )"
)
PLAYING = re.compile(
    r"^(?:(?:[Ss]ure|O[Kk](?:ay)?|[Ff]ine|[Aa]lright|[Gg]reat)[,.!]?\s+)*[Pp]laying (?:the song )?[A-Z]"
)
"""'Playing Knee Deep on the kitchen speaker.': the song about to be played, read back."""
PROPER_NAME = re.compile(r"(?<=\s)(?!I\b)[A-Z][a-z]+")
"""'You would like to rent The Last Dragon.': the wish read back names what it is about."""


AGENT_ACTION = re.compile(r"\byou (?:want|need|would like|'d like) me to\b")
""""You want me to cancel it.": the action read back is the agent's own, details or none."""


def offers_transaction(question: str) -> bool:
    """ "Want to book this car?", "Were you thinking of making a transfer?", "1 seat at the game on
    March 9th?": an offer to carry out a change, or its bare details asked back."""
    if INTENT_OFFER.match(question) and (TRANSACTION.search(question) or changes_anything(question)):
        return True
    return bool(BARE_DETAILS.match(question)) and question.rstrip().endswith("?")


BARE_DETAILS = re.compile(r"^(?:so,? )?\d+ [a-z]+ (?:at|for|to|on|in|from)\b")


def changes(word: str) -> bool:
    return meaning(word).startswith("class:") and not is_lookup(word)


def _phrasal_change(words: list[str]) -> set[str]:
    return {m for m in phrase_meanings(words) if m.startswith("class:")} - {meaning(w) for w in words}


def yes_no(question: str) -> bool:
    """A yes/no question ("Would that be alright?", "Okay?"): it opens with an auxiliary verb and asks
    for no information ("Could you provide these?" is a request, not a check)."""
    words = WORD.findall(question)
    if not words or any(w in REQUEST_VERBS for w in words) or ASKS_USER.match(question):
        return False
    return words[0] in AUXILIARIES or (len(words) <= 2 and words[0] in YES_NO_WORDS)
