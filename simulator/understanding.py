"""Reading an agent message the way the scripted user needs to: deterministic, published rules.

Every decision can be traced back to words in the agent's message (docs/simulator.md lists them):

- markdown and layout are text (`simulator/markup.py`): emphasis, headers, bullets and code spans are
  dropped, a list after "Could you provide:" is one request, and the message is cut into sentences;
- a sentence is a *question* when it ends with `?` or holds a request phrase ("please provide",
  "please confirm", "let me know if", …);
- each question is read in order: one that states a scenario fact's value back is a *verification*;
  a choice ("Visa or Mastercard?") answered by a known fact is a *choice*; an open offer ("Anything
  else?") makes the user restate what it wants; a proposal ("Shall I…", "Would you like me to…") asks
  for confirmation, unless what it offers is to look something up (a *lookup offer*, answered "yes",
  never matched to a goal); otherwise the facts it names are *asked* (several facts, or alternatives
  such as "your email, or your name and zip", in one question are answered together with what the user
  knows); a wh-question naming no fact is matched to the known fact it most likely means; a question
  about who the user is ("so I can locate your account") is an *identity question*; the rest are
  *open questions*, which cost nothing;
- statements carry completion claims (`simulator/claims.py`), refusals (with or without a reason),
  acknowledgements and tool-error leaks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from taue.simulator.choice_reading import fragment_choice, inline_pick, settle_options, stated_before
from taue.simulator.choices import (
    INLINE,
    Option,
    asks_to_pick,
    inline_options,
    offered_options,
    questionnaire_items,
)
from taue.simulator.facts import (
    FactBook,
    best_guess,
    choice,
    content_words,
    facts_named,
    same_word,
)
from taue.simulator.lexicon import is_verb, wordset
from taue.simulator.markup import sentences
from taue.simulator.offers import (
    bare_offer,
    changes_anything,
    confirms,
    has,
    offers_lookup,
    offers_transaction,
    opens_with_proposal,
    proposes_change,
    reads_back,
    wh_led,
    yes_no,
)
from taue.simulator.phrases import (
    ACKNOWLEDGEMENTS,
    APPROVES_BACK,
    AUXILIARIES,
    BACK,
    CONFIRM_LEAD,
    CONFIRM_THE,
    CONFIRMATION_PHRASES,
    ERROR_LEAK_PATTERNS,
    HANDOVER_PHRASES,
    HELP_MORE,
    HELP_OFFER,
    HOW_ABOUT,
    IDENTITY_PHRASES,
    INFO_REQUESTS,
    LEADING_CLAUSE,
    NEED_REQUEST,
    NOT_PROPOSING,
    OFFER_LEADS,
    ONE_VALUE,
    OPEN_OFFERS,
    OPTION_OFFER,
    OR_INSTEAD,
    POLITE_REQUEST,
    PREFERENCE_QUESTION,
    PROPOSAL_PHRASES,
    PURPOSE,
    RELATIVE_CLAUSE,
    REQUEST_PHRASES,
    REQUEST_VERBS,
    TAG_CHECK,
    TRANSACTION,
    VAGUE_WORDS,
    VALUE,
    WH_CHOICE,
    WH_WORDS,
    WISH_PHRASES,
    WISH_QUESTION,
    WORD,
)
from taue.simulator.question_types import (
    asks_preference,
    bare_phrase,
    head_facts,
    more_specific,
    typed_facts,
    value_facts,
    which_fact,
)
from taue.simulator.reading import Reading
from taue.simulator.refusals import EMPATHY_PHRASES
from taue.simulator.statements import (
    YES_NO_VALUES,
    expand,
    lead_claim,
    lead_failure,
    normalise,
    read_statement,
)

__all__ = ["FactBook", "Reading", "best_guess", "comparable", "normalise", "read_message", "sentences"]


def comparable(text: str) -> str:
    """Lower case, letters and digits only: how repeated messages are compared."""
    return " ".join(WORD.findall(text.lower().replace("'", "")))


def is_question(sentence: str) -> bool:
    text = normalise(sentence)
    lowered = text.rstrip(" *_\"')")
    return (
        lowered.endswith("?")
        or has(text, REQUEST_PHRASES)
        or bool(POLITE_REQUEST.search(lowered) or NEED_REQUEST.search(text))
        or bool(CONFIRM_LEAD.match(lowered))
        or bool(QUESTION_OPENING.match(lowered))
        or reads_back(sentence)
        or bool(WH_FRAGMENT.match(lowered))
    )


WH_FRAGMENT = re.compile(
    r"^(?:(?:ok(?:ay)?|so|sure|alright|and)[,.]?\s+)?"
    r"(?:(?:in|on|at|from|to|for|by|until|till) )?(?:which|what|where|when|whom|how many|how much|how long)"
    r"(?! i\b| we\b| case\b)(?: [\w']+){0,4}[.!]?$"
)
"""'In what city', 'How many bed rooms': a wh-phrase of a few words without its question mark."""


QUESTION_OPENING = re.compile(
    r"^(?:(?:ok(?:ay)?|so|sure|alright|and)[,.]?\s+)?"
    r"(?:(?:would|do|did|will|are|shall) you|(?:shall|should|may) i|wanna|is there a\b"
    r"|(?:which|what|where|when|who|how)(?: (?:time|date|day|city|kind|type|many|much|long|\w+))?"
    r" (?:is|are|do|does|did|will|would|should|can|could|shall)"
    r"|(?:which|what|how) (?:\w+ ){1,3}(?:do|does|did|will|would|should|can|could|shall) (?:you|i|we|the|it)"
    r"|please let me (?:have|know) (?:your|you|the)"
    r"|do i have (?:that|this|it|everything) (?:right|correct)|does (?:that|this|everything) (?:sound|look)"
    r")\b"
)
"""'Would you like to purchase tickets.': a question without its question mark."""


def read_message(message: str, facts: FactBook | list[str]) -> Reading:
    book = facts if isinstance(facts, FactBook) else FactBook(names=list(facts))
    text = normalise(message)
    reading = Reading(
        acknowledges=has(text, ACKNOWLEDGEMENTS) or has(expand(text), EMPATHY_PHRASES),
        leaks_error=any(pattern.search(message) for pattern in ERROR_LEAK_PATTERNS),
    )
    previous = ""
    asked = False  # the sentence before asked for facts
    options = offered_options(message)
    questionnaire = questionnaire_items(message)
    said = sentences(message)
    fragments, asked_one_by_one = fragment_choice(said, book)
    for sentence in said:
        if sentence in asked_one_by_one:
            reading.questions.append(sentence)
            continue
        if not is_question(sentence):
            if asked and OR_INSTEAD.match(normalise(sentence)):
                _alternatives(
                    normalise(sentence), book, reading
                )  # "If you don't have that, your name works too."
            read_statement(sentence, reading, book)
            previous, asked = normalise(sentence), False
            continue
        reading.questions.append(sentence)
        lead_failure(sentence, reading)
        lead_claim(sentence, reading)
        question = NOT_PROPOSING.sub(_continue, normalise(sentence))
        if previous and bare_offer(question) and has(previous, HANDOVER_PHRASES):
            reading.handover_offers += 1  # "I can transfer you to a human agent. Want me to?"
            continue
        if previous and bare_offer(question) and offers_lookup(LEADING_CLAUSE.sub("", previous), OFFER_LEADS):
            reading.lookup_offers += 1  # "I can pull up your order. Want me to?"
            continue
        laid_out = options or inline_options(sentence) or stated_before(question, reading)
        if (
            previous
            and BACK.search(question)
            and not APPROVES_BACK.search(question)
            and not _named_asked(question, book)
            and not (laid_out and asks_to_pick(question))  # "which one" of the options laid out
        ):
            question = f"{previous} {question}"  # "… your name and zip code. Could you provide those?"
        before = len(reading.asked_by_question)
        listed = any(sentence in item for item in questionnaire)
        _read_question(question, book, reading, laid_out, listed, sentence)
        if not reading.asks_confirmation:  # the values of a proposal are no options
            reading.options = reading.options or laid_out  # "Anything in particular, like music or sports?"
        previous, asked = "", len(reading.asked_by_question) > before
    reading.facts_asked = list(dict.fromkeys(n for names in reading.asked_by_question for n in names))
    settle_options(reading, fragments)
    return reading


def _continue(match: re.Match[str]) -> str:
    return match.group(0)[: match.start(1) - match.start(0)] + "continue"


def _alternatives(sentence: str, book: FactBook, reading: Reading) -> None:
    """ "Could you provide your email? If you don't have that, your name and zip code work too.": the
    alternatives belong to the request before them."""
    named = [n for n in facts_named(sentence, book.names) if n not in reading.asked_by_question[-1]]
    if named:
        reading.asked_by_question[-1].extend(n for n in named if n in book.known)
        reading.requested.extend(n for n in named if n not in reading.requested)


DETAILS = re.compile(r"\([^()]*\)|\"[^\"]*\"|(?<!\w)'[^']*'(?!\w)|“[^”]*”|‘[^’]*’")
"""Bracketed or quoted text: the details a question carries, not what it asks."""


def _kind_asked(question: str, book: FactBook) -> list[str]:
    """The facts a question names by the noun it asks about or by the kinds of answer it wants."""
    return typed_facts(question, book) or head_facts(question, book)


def _asks_for_something(question: str) -> bool:
    """A request, a question about a preference, or a bare noun phrase asked ("Departure city?")."""
    return _requests(question) or asks_preference(question) or bare_phrase(question)


def _requests(question: str) -> bool:
    """A question that asks for information ("please provide …", "which order …", "please confirm the
    reason …")."""
    words = WORD.findall(question)
    return (
        any(w in WH_WORDS for w in words)
        or has(question, INFO_REQUESTS)
        or bool(NEED_REQUEST.search(question))
        or any(w in REQUEST_VERBS for w in words)
        or bool(CONFIRM_THE.search(question))
    )


def _yes_no_fact_named(question: str, book: FactBook) -> bool:
    """ "How about a shared ride?": the one fact it names is one the user knows as yes or no, so it
    asks that preference (answered from the fact), not to approve a change."""
    named = _named_asked(question, book)
    return len(named) == 1 and (book.values.get(named[0]) or "").strip().lower() in YES_NO_VALUES


def _read_question(
    question: str,
    book: FactBook,
    reading: Reading,
    options: tuple[Option, ...] = (),
    listed: bool = False,
    written: str = "",
) -> None:
    """How one question reads (`question` normalised; `written`, the sentence as the agent wrote it)."""
    lead = LEADING_CLAUSE.match(question)
    if lead and has(lead.group(0), REQUEST_PHRASES) and not is_question(question[lead.end() :]):
        confirms(question, reading)  # "Once you confirm, I'll start the return and email you …"
        return
    if not question.rstrip().endswith("?") and reads_back(written or question):
        confirms(question, reading)  # "You want to add 2 bags under your name.": details to check, no request
        return
    if OPTION_OFFER.match(question) and not options and not _yes_no_fact_named(question, book):
        reading.asks_confirmation = True  # "How about Delta Airlines?": one option offered to take
        return
    said = _named_asked(PURPOSE.sub("", LEADING_CLAUSE.sub("", question)), book) or which_fact(question, book)
    named = more_specific(said, question, book) or (
        _kind_asked(question, book) if _asks_for_something(question) else []
    )
    picked = choice(question, book) or (inline_pick(options, book) if " or " in question else None)
    stated = [n for n in named if book.values.get(n) and normalise(book.values[n]) in question]
    asked = _Question(question, book, reading, named, picked, stated, options, listed, written)
    for applies, act in _QUESTION_RULES:
        if applies(asked):
            act(asked)
            return
    _unplaced(question, reading)


@dataclass
class _Question:
    """One question of a message, with what `_read_question` found in it."""

    text: str
    book: FactBook
    reading: Reading
    named: list[str]
    """The facts it names."""
    picked: tuple[str, str] | None
    """The option a known fact's value names, with that fact ("Visa or Mastercard?")."""
    stated: list[str]
    """The named facts whose values it states back."""
    options: tuple[Option, ...] = ()
    """The options the message lists."""
    listed: bool = False
    """It is one item of a numbered or bulleted list of questions (a questionnaire): it asks for
    information, never to approve a change."""
    written: str = ""
    """The sentence as the agent wrote it (its capitals mark names)."""

    def proposes(self) -> bool:
        if self.listed:
            return False
        if offers_transaction(self.text):
            return True
        if PREFERENCE_QUESTION.match(self.text) or self.opens_with_fact():
            return False
        return proposes_change(self.text) or self.checks_details()

    def opens_with_fact(self) -> bool:
        """ "Return date?", "Transfer amount?": a bare phrase whose first word begins a fact's name, not
        an order ("Transfer $500 to savings? (yes/no)" is one)."""
        first = WORD.findall(self.text)[:1]
        return (
            bare_phrase(self.text)
            and not VALUE.search(self.text)
            and bool(first)
            and any(same_word(first[0], n.split("_")[0]) for n in self.named)
        )

    def checks_details(self) -> bool:
        """ "…at 7 pm for 2, is that right?": a tag asking to check an action's details; stating a
        known fact back and changing nothing ("your user id is X, right?") is a verification."""
        first = WORD.findall(self.text)[:1]
        return (
            bool(TAG_CHECK.search(self.text))
            and not (first and first[0] in WH_WORDS)
            and (not self.stated or changes_anything(self.text))
        )

    def picks_known(self) -> bool:
        """ "Would you like to use one of these for the payment?": a pick naming a fact the user knows."""
        return (
            bool(PICK_ONE.search(self.text))
            and not self.stated
            and any(n in self.book.known for n in self.named)
        )

    def picks_option(self) -> bool:
        """It asks the user to pick one of the listed options, and names no fact the user knows
        (that fact's value answers it)."""
        return (
            bool(self.options)
            and (asks_to_pick(DETAILS.sub(" ", self.text)) or self.options[0].group == INLINE)
            and not any(n in self.book.known for n in self.named)
            and not self.also_confirms()
        )

    def also_confirms(self) -> bool:
        """It asks to go ahead with a change too ("… and confirm the exchange"): a proposal first. In
        "Which one would you like to modify?" the change is what happens to the one picked."""
        if self.options and self.options[0].group == INLINE and HOW_ABOUT.match(self.text):
            return False  # "How about watching Dogman, Hackers or High Life?": which to watch
        return proposes_change(self.text) or (
            has(self.text, WISH_PHRASES)
            and changes_anything(self.text)
            and not _chosen(self.text)
            and not wh_led(self.text)
        )

    def requests_named(self) -> bool:
        """It asks for the facts it names (not states them back, nor asks which of unknown ones); a
        request verb inside quoted or bracketed details ("(note 'Patient will share …')") asks nothing."""
        return (
            bool(self.named)
            and not self.stated
            and _requests(DETAILS.sub(" ", self.text))
            and not _asks_which_of_unknown(self.text, self.named, self.book)
            and not (
                CONFIRM_LEAD.match(self.text) and VALUE.search(self.text)
            )  # "Please confirm your ride for 2 …"
        )

    def values_only(self) -> bool:
        """ "4 to Fresno on March 11th at 2 pm?": a booking's values and nothing else (no verb, no
        wh-word) put to the user to check."""
        words = [w.lower() for w in re.findall(r"[\w']+", self.written or self.text) if not w[:1].isupper()]
        return (
            len(ONE_VALUE.findall(self.text)) >= 2
            and not wh_led(self.text)
            and not any(w not in MONTHS and (w in AUXILIARIES or is_verb(w)) for w in words)
        )

    def asks_yes_no_fact(self) -> bool:
        """ "Would you like a shared ride?", "Do you want travel insurance?": a yes/no question about a
        known fact whose value is itself yes or no asks for that fact, not to approve a change."""
        if len(self.named) != 1 or CONFIRM_LEAD.match(self.text) or VALUE.search(self.text):
            return False  # "Please confirm: a shared ride for 2 to …" sets out a booking's details
        name = self.named[0]
        return name in self.book.known and self.book.values.get(name, "").strip().lower() in YES_NO_VALUES

    def checks_value(self) -> bool:
        """ "Is the return on May 12?", "Do you want it from March 3?": a yes/no question that puts a
        value to one known fact and changes nothing checks that fact."""
        words = WORD.findall(self.text)
        named = self.named or value_facts(self.text, self.book)
        return (
            len(named) == 1
            and named[0] in self.book.known
            and bool(words)
            and (words[0] in AUXILIARIES or words[0] in ("want", "wanna"))
            and len(ONE_VALUE.findall(self.text)) == 1
            and "confirm" not in self.text
            and not (CONFIRM_LEAD.match(self.text) or TRANSACTION.search(self.text))
            and not changes_anything(self.text)
        )

    def names_asked(self) -> bool:
        return bool(self.named) and not _asks_which_of_unknown(self.text, self.named, self.book)

    def guessed(self) -> bool:
        """A wh-question naming no fact, or a question whether the user has one in mind ("Is there a
        city you're interested in?"), matched to the known fact it most likely means."""
        asks = _is_wh_question(self.text) or bool(
            PREFERENCE_QUESTION.match(self.text) or ANY_IN_MIND.match(self.text)
        )
        return asks and _guess(RELATIVE_CLAUSE.sub(r"\1", self.text), self.book, self.reading)


PICK_ONE = re.compile(r"\b(?:one of (?:these|those|them)|either of|which one)\b")
ALTERNATIVE_OFFER = re.compile(r",? or (?:would|do|shall|should|can|could) (?:you|i)\b")


def _pick_known(q: _Question) -> None:
    """ "…proceed with this exchange, and which payment method?" asks both; "Use one of these, or
    would you like to add a card first?" offers alternatives, and the pick answers it."""
    _ask_named(q)
    if q.also_confirms() and not ALTERNATIVE_OFFER.search(q.text):
        confirms(q.text, q.reading)


def _offer_choice(q: _Question) -> None:
    q.reading.offers_choice = True
    q.reading.options = q.options


def _choose(q: _Question) -> None:
    assert q.picked is not None
    q.reading.choices.append(q.picked)
    if q.also_confirms():
        confirms(q.text, q.reading)  # "Please confirm the change, and tell me: gift card or credit card?"


def _offer_lookup(q: _Question) -> None:
    q.reading.lookup_offers += 1


def _offer_handover(q: _Question) -> None:
    q.reading.handover_offers += 1


def _ask_named(q: _Question) -> None:
    known = [n for n in q.named if n in q.book.known]
    q.reading.asked_by_question.append(known or q.named)
    q.reading.requested.extend(n for n in q.named if n not in q.reading.requested)
    q.reading.options = q.reading.options or q.options  # "What kind? Music or sports?": seen, not picked


def _request_named(q: _Question) -> None:
    _ask_named(q)
    if has(q.text, WISH_PHRASES) and changes_anything(q.text) and not _chosen(q.text):
        confirms(q.text, q.reading)  # "To proceed with cancelling it, please confirm the reason"


def _check_value(q: _Question) -> None:
    """The value put to the fact is the user's: "yes"; another: the user says its own."""
    q.named = q.named or value_facts(q.text, q.book)
    q.stated = [n for n in q.named if q.book.values.get(n) and normalise(q.book.values[n]) in q.text]
    if q.stated:
        _verify(q)
    else:
        _ask_named(q)


MONTHS = wordset("january february march april may june july august september october november december")


def _confirm(q: _Question) -> None:
    confirms(q.text, q.reading)


def _verify(q: _Question) -> None:
    q.reading.verified.extend(q.stated)


def _open_offer(q: _Question) -> None:
    q.reading.offers += 1


def _wish(q: _Question) -> None:
    q.reading.wish_questions += 1


def _guessed(q: _Question) -> None:
    """The guess is already in the reading (`_Question.guessed`)."""


def _identity(q: _Question) -> None:
    q.reading.identity_questions += 1


# How a question is read: the first rule that applies (in this order) decides; a question none
# applies to is an open question.
_QUESTION_RULES: tuple[tuple[Callable[[_Question], bool], Callable[[_Question], None]], ...] = (
    (lambda q: q.picked is not None, _choose),
    (_Question.picks_option, _offer_choice),
    (_Question.picks_known, _pick_known),
    (lambda q: bool(HELP_OFFER.search(q.text) or HELP_MORE.search(q.text)) and not q.named, _open_offer),
    (lambda q: offers_lookup(q.text), _offer_lookup),
    (lambda q: has(q.text, HANDOVER_PHRASES), _offer_handover),
    (_Question.asks_yes_no_fact, _ask_named),
    (_Question.checks_value, _check_value),
    (_Question.requests_named, _request_named),
    (_Question.proposes, _confirm),
    (lambda q: bool(q.stated), _verify),
    (_Question.values_only, _confirm),
    (lambda q: has(q.text, OPEN_OFFERS) and not q.named, _open_offer),
    (lambda q: not q.listed and opens_with_proposal(q.text), _confirm),
    (_Question.names_asked, _ask_named),
    (lambda q: bool(WISH_QUESTION.search(q.text)) and not q.named, _wish),
    (_Question.guessed, _guessed),
    (lambda q: has(q.text, IDENTITY_PHRASES), _identity),
    (
        lambda q: (
            not q.listed
            and not wh_led(q.text)
            and not PREFERENCE_QUESTION.match(q.text)
            and (has(q.text, PROPOSAL_PHRASES + CONFIRMATION_PHRASES) or yes_no(q.text))
        ),
        _confirm,
    ),
)


def _named_asked(asked: str, book: FactBook) -> list[str]:
    """The facts a question names, less those only a relative clause names ("which order you'd like to
    change the address for" asks for the order, not the address); a fact whose name the words after
    "which"/"what" share stays ("what trip you'd like to change": `trip_to_change`)."""
    heads = [match.group(1) for match in RELATIVE_CLAUSE.finditer(asked)]
    if not heads:
        return facts_named(asked, book.names)
    kept = facts_named(RELATIVE_CLAUSE.sub(r"\1", asked), book.names)
    words = [w for head in heads for w in content_words(head)]
    return kept + [
        name
        for name in facts_named(asked, book.names)
        if name not in kept and any(same_word(w, part) for w in words for part in name.split("_"))
    ]


def _chosen(question: str) -> bool:
    """ "What would you like to update your address to?": the wish is the object of a wh-word, so the user
    is asked what it wants, not whether to go ahead."""
    for phrase in WISH_PHRASES:
        at = question.find(phrase)
        before = WORD.findall(question[:at])
        if at >= 0 and (any(w in WH_WORDS for w in before[-3:]) or before[:1] in ([w] for w in WH_WORDS)):
            return True  # "Which of your accounts would you like to use …?" asks which, too
    return False


ANY_IN_MIND = re.compile(
    r"^(?:is there|are there|any) (?:a |an |any |some )?(?:particular |specific |certain )?\w+"
)
"""'Is there a city you're interested in?', 'Any particular location?': the user's choice of it asked."""


def _guess(question: str, book: FactBook, reading: Reading) -> bool:
    guess = best_guess(question, book)
    if guess is None and WORD.findall(question)[:1] == ["which"]:
        # "Which reservation…?": the known fact the current request is about identifies it.
        guess = best_guess(book.focus, book)
    if guess:
        reading.guessed.append(guess)
        return True
    choosing = WH_CHOICE.search(question)  # "let me know how you'd like to proceed"
    if not choosing and (
        has(question, IDENTITY_PHRASES) or has(question, PROPOSAL_PHRASES + CONFIRMATION_PHRASES)
    ):
        return False
    _unplaced(question, reading)
    return True


def _unplaced(question: str, reading: Reading) -> None:
    """A question no rule places: a request for something in particular the scenario does not give
    the user ("I'll need the cabin class of your booking", "Was it booked in the last 24 hours?") is
    one the user has no answer to; anything vaguer ("Could you clarify?") is an open question."""
    specific = [w for w in content_words(DETAILS.sub(" ", question)) if w not in VAGUE_WORDS]
    if specific and (_requests(question) or WORD.findall(question)[:1] in [[w] for w in AUXILIARIES]):
        reading.unheld += 1
    else:
        reading.open_questions += 1


def _asks_which_of_unknown(question: str, named: list[str], book: FactBook) -> bool:
    """ "Which reservation…?" naming only facts the user does not know: answered from what they know."""
    return WORD.findall(question)[:1] == ["which"] and not any(n in book.known for n in named)


def _is_wh_question(question: str) -> bool:
    """A wh-word near the start ("Which trip …", "Please let me know which order …")."""
    return any(word in WH_WORDS for word in WORD.findall(question)[:6])
