"""Reading an agent message the way the scripted user needs to: deterministic, published rules.

The rules are deliberately simple (docs/simulator.md lists every phrase), so every decision the
scripted user makes can be traced back to words in the agent's message:

- the message is cut into sentences; a sentence is a *question* when it ends with `?` or contains a
  request phrase ("please provide", "I'll need your", …);
- each question is read in order: one that states a scenario fact's value back is a *verification*
  (answered "yes"); one that opens with a *proposal* ("Shall I…", "Would you like me to…") asks for
  confirmation; otherwise the scenario facts it names are *asked*; a question naming no fact asks for
  confirmation when it holds a proposal or a yes/no check ("…proceed…", "Is that correct?") unless
  it is a wh-question; a wh-question naming no fact ("Which trip?") is matched to the known fact it
  most likely means (`best_guess`), and is otherwise an *open question* (the user restates what
  they want), as is an open offer ("Anything else?", "How can I help?");
- a fact is named when the question's content words contain the fact's name (underscores as spaces,
  in order, light stemming) or one of its aliases; of overlapping matches the longest wins, and a
  fact the user knows beats one the tools could find;
- completion claims, acknowledgements and tool-error leaks are phrase lists, completion claims only
  in statements and not negated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

REQUEST_PHRASES = (
    "please provide",
    "please tell",
    "please share",
    "please confirm your",
    "please give",
    "please send",
    "please specify",
    "please let me know",
    "provide your",
    "provide the",
    "share your",
    "let me know your",
    "let me know which",
    "let me know the",
    "i need your",
    "i'll need your",
    "i will need your",
    "i need the",
    "i'll need the",
    "i will need the",
    "i would need",
    "i'd need",
    "may i have",
    "kindly provide",
)
PROPOSAL_PHRASES = (
    "shall i",
    "should i",
    "do you want me",
    "would you like me",
    "may i proceed",
    "may i go ahead",
    "can i proceed",
    "can i go ahead",
    "shall we",
    "is it ok if i",
    "is it okay if i",
    "ok to proceed",
    "okay to proceed",
    "proceed",
    "go ahead",
)
PROPOSAL_LEAD = 25
"""A proposal phrase this close to the start of a question makes it a proposal even if it names facts."""
CONFIRMATION_PHRASES = (
    "is that correct",
    "is this correct",
    "is that right",
    "is this right",
    "correct?",
    "(yes/no)",
    "yes or no",
    "do you confirm",
    "confirm that",
    "please confirm",
    "do you want to",
    "would you like to",
    "is it ok",
    "is it okay",
)
OPEN_OFFERS = (
    "anything else",
    "something else",
    "how can i help",
    "how may i help",
    "how can i assist",
    "how may i assist",
    "what can i do for you",
)
COMPLETION_WORDS = (
    "done",
    "completed",
    "complete",
    "cancelled",
    "canceled",
    "booked",
    "updated",
    "changed",
    "modified",
    "processed",
    "submitted",
    "refunded",
    "issued",
    "sent",
    "exchanged",
    "returned",
    "added",
    "transferred",
    "successfully",
    "has been",
    "have been",
    "is now",
    "are now",
)
NEGATIONS = ("not", "never", "unable", "cannot", "couldn't", "can't", "wasn't", "hasn't", "haven't", "failed")
"""A completion word preceded (within `NEGATION_WINDOW` words) by one of these is not a claim."""
NEGATION_WINDOW = 4
ACKNOWLEDGEMENTS = (
    "sorry",
    "apologi",
    "i understand",
    "understandable",
    "i hear you",
    "i can see",
    "i can imagine",
    "frustrating",
    "stressful",
    "that must be",
    "i know this",
    "thank you for your patience",
    "that sounds",
    "i appreciate",
    "don't worry",
    "no need to worry",
    "rest assured",
    "i'm here to help",
    "i am here to help",
)
MODALS = frozenset(
    {"will", "would", "can", "could", "shall", "should", "to", "going", "let", "if", "once", "when"}
    | {"whether", "might", "may", "must"}
)
"""A completion word preceded (within `NEGATION_WINDOW` words) by one of these is a plan, not a claim."""
REFUSALS = (
    "cannot",
    "can't",
    "can not",
    "unable to",
    "not able to",
    "not allowed",
    "not permitted",
    "not eligible",
    "not possible",
    "won't be able",
    "will not be able",
    "i'm afraid",
    "against our policy",
    "against the policy",
    "policy does not allow",
    "policy doesn't allow",
)
ERROR_LEAK_PATTERNS = (
    re.compile(r"traceback \(most recent call last\)", re.IGNORECASE),
    re.compile(r"error executing tool", re.IGNORECASE),
    re.compile(r"validation errors? for \w+", re.IGNORECASE),
    re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception):"),
    re.compile(r"(?:^|[\n`\"'>])\s*Error:"),
    re.compile(r"\{\s*\"(?:error|detail|errors)\"\s*:"),
)
"""Raw tool errors quoted at the user: tracebacks, exception names, `Error:` lines, JSON error bodies.
Plain-language refusals ("I cannot make an exception") are never leaks."""
_STOP_WORDS_TEXT = (
    "a an the to of for my your you i me we us our in on at with and or is are was be been do does did "
    "what which how that this it its please would could can like want wish provide tell share give "
    "know let need have has may might will shall should there any some also just so from by as "
    "kindly confirm send specify i'll i'd you'd you're it's what's"
)
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())
"""Words that never name a fact; dropped before fact names are matched."""

FACT_ALIASES: dict[str, tuple[str, ...]] = {
    "user_id": ("user id", "userid", "username", "user name", "account id"),
    "email": ("email", "e-mail", "email address", "e-mail address"),
    "zip": ("zip", "zip code", "postal code", "postcode"),
    "reservation_id": (
        "reservation id",
        "reservation number",
        "confirmation number",
        "booking reference",
        "booking number",
        "booking code",
        "confirmation code",
    ),
    "order_id": ("order id", "order number"),
    "payment_id": ("payment id", "payment method", "which card"),
    "payment_method_id": ("payment method", "payment id", "which card"),
    "flight_number": ("flight number",),
    "item_ids": ("item id", "item ids"),
    "new_item_ids": ("new item id", "new item ids"),
    "product_id": ("product id",),
    "dob": ("date of birth", "birth date", "birthday"),
    "total_baggages": ("how many bags", "number of bags", "total bags", "total baggage", "checked bags"),
    "nonfree_baggages": ("non-free bags", "nonfree bags", "paid bags", "bags to pay for"),
    "cancel_reason": ("reason for cancel", "why you want to cancel", "why do you want to cancel"),
    "reason": ("reason for", "why you want", "why do you want"),
    "first_name": ("first name",),
    "last_name": ("last name", "surname"),
    "passenger_name": ("passenger name", "passenger's name", "name of the passenger"),
}

WH_WORDS = frozenset({"which", "what", "when", "where", "who", "whom", "whose", "how", "why"})
GENERIC_WORDS = frozenset({"id", "ids", "name", "number", "other", "new", "wanted", "preferred", "info"})

_SENTENCE_BREAK = re.compile(r"(?<=[.?!])\s+|\n+")
_WORD = re.compile(r"[a-z0-9']+")


def normalise(text: str) -> str:
    return " ".join(text.lower().split())


def comparable(text: str) -> str:
    """Lower case, letters and digits only: how repeated messages are compared."""
    return " ".join(_WORD.findall(text.lower().replace("'", "")))


def sentences(message: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_BREAK.split(message) if s and s.strip()]


def content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]


def _same_word(a: str, b: str) -> bool:
    a, b = a.rstrip("s") or a, b.rstrip("s") or b
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 5 and long_.startswith(short)


def fact_phrases(name: str) -> list[list[str]]:
    """The content-word sequences that name fact `name`: its own name and its aliases."""
    phrases = [content_words(name.replace("_", " "))]
    phrases.extend(content_words(alias) for alias in FACT_ALIASES.get(name, ()))
    unique: list[list[str]] = []
    for phrase in phrases:
        if phrase and phrase not in unique:
            unique.append(phrase)
    return unique


def _spans(words: list[str], phrase: list[str]) -> Iterable[tuple[int, int]]:
    for start in range(len(words) - len(phrase) + 1):
        if all(_same_word(words[start + i], part) for i, part in enumerate(phrase)):
            yield start, start + len(phrase)


def facts_named(text: str, fact_names: Iterable[str]) -> list[str]:
    """The facts a piece of text names; a match inside a longer match of another fact is dropped."""
    words = content_words(text)
    matches = [
        (name, span) for name in fact_names for phrase in fact_phrases(name) for span in _spans(words, phrase)
    ]
    kept = [
        name
        for name, (start, end) in matches
        if not any(
            other != name and s <= start and end <= e and (e - s) > (end - start) for other, (s, e) in matches
        )
    ]
    return list(dict.fromkeys(kept))


def _is_question(sentence: str) -> bool:
    lowered = sentence.lower().rstrip(" *_\"')")
    return lowered.endswith("?") or any(phrase in lowered for phrase in REQUEST_PHRASES)


def _has(text: str, phrases: Iterable[str]) -> bool:
    return any(phrase in text for phrase in phrases)


_COMPLETION_PATTERNS = tuple((phrase, re.compile(rf"\b{re.escape(phrase)}\b")) for phrase in COMPLETION_WORDS)


def _claims(sentence: str) -> bool:
    words = _WORD.findall(sentence.lower())
    text = " ".join(words)
    for phrase, pattern in _COMPLETION_PATTERNS:
        if phrase not in text:  # a cheap test first: most sentences hold few of the phrases
            continue
        for match in pattern.finditer(text):
            before = text[: match.start()].split()[-NEGATION_WINDOW:]
            if not any(word in NEGATIONS or word in MODALS or word.endswith("n't") for word in before):
                return True
    return False


@dataclass
class Reading:
    """What the scripted user took from one agent message."""

    questions: list[str] = field(default_factory=list)
    facts_asked: list[str] = field(default_factory=list)
    """Facts the agent asks the user for, in the order asked, one list entry per fact."""
    asked_by_question: list[list[str]] = field(default_factory=list)
    """The facts each fact-asking question names (one inner list per question)."""
    asks_confirmation: bool = False
    verified: list[str] = field(default_factory=list)
    """Facts whose value a question states back to the user (a check, not a request)."""
    open_questions: int = 0
    """Questions the user cannot map to a fact or a confirmation."""
    offers: int = 0
    """Open offers of help ("Anything else?", "How can I help?")."""
    guessed: list[str] = field(default_factory=list)
    """Known facts a vague wh-question most likely means (answered, never charged)."""
    choices: list[tuple[str, str]] = field(default_factory=list)
    """Choice questions ("Mastercard or Visa?") answered from a known fact: (option, fact name)."""
    statements: list[str] = field(default_factory=list)
    """The sentences that are not questions: where completion claims, information and refusals count."""
    claims_completion: bool = False
    refuses: bool = False
    acknowledges: bool = False
    leaks_error: bool = False

    @property
    def verifies(self) -> bool:
        return bool(self.verified)

    @property
    def asks_anything(self) -> bool:
        """Any question other than an open offer of further help."""
        return len(self.questions) > self.offers


@dataclass
class FactBook:
    """The facts the scenario lets the user talk about: names, and the values the user could check."""

    names: list[str]
    values: dict[str, str] = field(default_factory=dict)
    known: frozenset[str] = frozenset()
    focus: str = ""
    """What the user is asking for right now (the current goal's request), to resolve vague questions."""


def read_message(message: str, facts: FactBook | list[str]) -> Reading:
    book = facts if isinstance(facts, FactBook) else FactBook(names=list(facts))
    text = normalise(message)
    reading = Reading(
        acknowledges=_has(text, ACKNOWLEDGEMENTS),
        leaks_error=any(pattern.search(message) for pattern in ERROR_LEAK_PATTERNS),
    )
    for sentence in sentences(message):
        if not _is_question(sentence):
            reading.statements.append(sentence)
            reading.claims_completion = reading.claims_completion or _claims(sentence)
            reading.refuses = reading.refuses or _has(normalise(sentence), REFUSALS)
            continue
        reading.questions.append(sentence)
        _read_question(normalise(sentence), book, reading)
    reading.facts_asked = list(dict.fromkeys(n for names in reading.asked_by_question for n in names))
    return reading


def _opens_with_proposal(question: str) -> bool:
    """ "Shall I…?" near the start; a wh-question ("Which one would you like me to cancel?") never is."""
    if _WORD.findall(question)[:1] and _WORD.findall(question)[0] in WH_WORDS:
        return False
    return any(0 <= question.find(phrase) < PROPOSAL_LEAD for phrase in PROPOSAL_PHRASES)


def _read_question(question: str, book: FactBook, reading: Reading) -> None:
    named = facts_named(question, book.names)
    choice = _choice(question, book)
    stated = [n for n in named if book.values.get(n) and normalise(book.values[n]) in question]
    if choice is not None:
        reading.choices.append(choice)
    elif stated:
        reading.verified.extend(stated)
    elif _has(question, OPEN_OFFERS) and not named:
        reading.offers += 1
    elif _opens_with_proposal(question):
        reading.asks_confirmation = True
    elif named and not _asks_which_of_unknown(question, named, book):
        known = [n for n in named if n in book.known]
        reading.asked_by_question.append(known or named)
    elif _is_wh_question(question):
        guess = best_guess(question, book)
        if guess is None and _WORD.findall(question)[:1] == ["which"]:
            # "Which reservation…?": the known fact the current request is about identifies it.
            guess = best_guess(book.focus, book)
        if guess:
            reading.guessed.append(guess)
        else:
            reading.open_questions += 1
    elif _has(question, PROPOSAL_PHRASES) or _has(question, CONFIRMATION_PHRASES):
        reading.asks_confirmation = True
    else:
        reading.open_questions += 1


def _asks_which_of_unknown(question: str, named: list[str], book: FactBook) -> bool:
    """ "Which reservation…?" naming only facts the user does not know: answered from what they know."""
    return _WORD.findall(question)[:1] == ["which"] and not any(n in book.known for n in named)


def _choice(question: str, book: FactBook) -> tuple[str, str] | None:
    """For "…, A or B?": the option a known fact's value names, with that fact; None when no single
    option fits (or the question offers no options)."""
    if " or " not in question:
        return None
    options = [o.strip(" ?.!") for o in re.split(r",|\bor\b|:", question)]
    scores: list[tuple[int, int, str]] = []
    for index, option in enumerate(options[1:], start=1):
        words = set(content_words(option)) - GENERIC_WORDS
        for name in sorted(book.known):
            value = set(content_words(book.values.get(name, ""))) - GENERIC_WORDS
            shared = sum(1 for w in words if any(_same_word(w, v) for v in value))
            if shared:
                scores.append((shared, index, name))
    if not scores:
        return None
    best = max(score for score, _, _ in scores)
    winners = {(index, name) for score, index, name in scores if score == best}
    if len({index for index, _ in winners}) != 1:
        return None
    index, name = min(winners)
    return options[index], name


def _is_wh_question(question: str) -> bool:
    return any(word in WH_WORDS for word in _WORD.findall(question)[:2])


def best_guess(question: str, book: FactBook) -> str | None:
    """For a wh-question that names no fact ("Which trip?"): the known fact it most likely means.

    Candidates are known facts sharing a content word with the question (generic words aside);
    each scores the words it shares with the question plus those it shares with the user's current
    request (`book.focus`). The single best candidate wins; a tie means no guess.
    """
    words = set(content_words(question)) - GENERIC_WORDS
    focus = set(content_words(book.focus)) - GENERIC_WORDS
    scores: dict[str, int] = {}
    for name in (n for n in book.names if n in book.known):
        own = set(content_words(name.replace("_", " "))) - GENERIC_WORDS
        shared = sum(1 for w in own if any(_same_word(w, q) for q in words))
        if shared:
            scores[name] = shared + sum(1 for w in own if any(_same_word(w, f) for f in focus))
    if not scores:
        return None
    ranked = sorted(scores.values(), reverse=True)
    if len(ranked) > 1 and ranked[0] == ranked[1]:
        return None
    return max(scores, key=scores.__getitem__)


def contains_all(message: str, evidence: list[str]) -> bool:
    """Every evidence string occurs in the message (case-insensitive, commas ignored)."""
    text = message.lower().replace(",", "")
    return all(item.lower().replace(",", "") in text for item in evidence)
