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
from collections.abc import Iterable
from dataclasses import dataclass, field

from taue.simulator.claims import QUOTED, Claim, claim
from taue.simulator.facts import FactBook, best_guess, choice, content_words, facts_named, same_word
from taue.simulator.lexicon import is_lookup, is_verb, meaning, phrase_meanings
from taue.simulator.markup import sentences

__all__ = ["FactBook", "Reading", "comparable", "contains_all", "normalise", "read_message", "sentences"]

REQUEST_PHRASES = (
    "please provide",
    "please tell",
    "please share",
    "please confirm",
    "please give",
    "please send",
    "please specify",
    "please let me know",
    "please verify",
    "provide your",
    "provide the",
    "provide me",
    "share your",
    "let me know your",
    "let me know which",
    "let me know the",
    "let me know if",
    "let me know whether",
    "let me know how",
    "let me know what",
    "i need your",
    "i'll need your",
    "i will need your",
    "i need the",
    "i'll need the",
    "i will need the",
    "i need to know",
    "i'll need to know",
    "i would need",
    "i'd need",
    "may i have",
    "kindly provide",
    "kindly confirm",
    "can you confirm",
    "could you confirm",
    "(yes/no)",
    "(y/n)",
    "yes or no",
    "reply yes",
    "once you confirm",
    "once confirmed",
)
WISH_PHRASES = ("confirm if you", "confirm that you", "confirm whether you", "if you would like to")
WISH_PHRASES += ("would you like to", "once you confirm", "once confirmed")
"""A fact request that also asks to go ahead ("Please confirm if you want to cancel it and give the
reason"): the user answers the facts and approves the change."""
INFO_REQUESTS = (
    "need to know",
    "need your",
    "need the",
    "let me know the",
    "let me know which",
    "let me know your",
)
HANDOVER_PHRASES = ("human agent", "human representative", "live agent", "transfer you", "connect you with")
"""An offer to hand the user over to a person: no goal of the user's, never a proposal of one."""
_BACK = re.compile(r"\b(those|these|them|the above|that information|those details|this information)\b")
_ASKS_USER = re.compile(
    r"(please )?(could|can|would|will) you (please )?(?!like|want|prefer|confirm|be\b|mind if)"
)
"""'Could you describe …?': the user is asked to do something, not to approve the agent's change."""
_VAGUE = re.compile(r"\b(any (specific|other|particular)|such as)\b")
"""A question offering nothing in particular ("any specific action, such as a return?")."""
_CONFIRM_THE = re.compile(
    r"\b(confirm|specify|verify) (the|your) (?!following|details|above|change|information|order details)"
)
"""'Please confirm the reason …' asks for a fact; 'please confirm the following details' reads back."""
_PURPOSE = re.compile(
    r"\b(so (that )?(i|we) can|in order to|to help me|to (locate|find|identify|access)) [^,;]*"
    r"|\b(for|of|from) (the|which|an?) [^,?]*?\b(you|you'd) (want|wish|would like|'d like|need)\b[^,;]*"
)
"""A purpose clause ("…so I can locate your user ID"): the facts it names are not asked for."""
_WH_CHOICE = re.compile(r"\b(how|what|which|when|where)\b( \w+)? (you|you'd|would|do|should|to)\b")
"""'…how you'd like to proceed', 'what you would like to change': the user chooses, nothing is proposed."""
POLITE_REQUEST = re.compile(r"(?:^|:\s*)your\b[^.?!]*,?\s*please[.!]?$", re.IGNORECASE)
""""Your order number, please." / "One more thing: your email, please.": a request without a verb."""
OFFER_LEADS = ("can i", "could i", "may i", "if i", "let me", "i could", "i can", "should i", "shall i")
"""Openings of an offer whose verb says what is offered: "Can I check …" is a lookup offer."""
PROPOSAL_PHRASES = (
    "shall i",
    "should i",
    "do you want me",
    "would you like me",
    "would you like for me",
    "may i proceed",
    "may i go ahead",
    "can i proceed",
    "can i go ahead",
    "shall we",
    "is it ok if i",
    "is it okay if i",
    "ok to",
    "okay to",
    "alright to",
    "want me to",
    "like me to",
    "proceed",
    "go ahead",
)
PROPOSAL_LEAD = 25
LOOKUP_LEAD = 40
"""A proposal phrase this close to the start of a question makes it a proposal even if it names facts."""
CONFIRMATION_PHRASES = (
    "is that correct",
    "is this correct",
    "is that right",
    "is this right",
    "correct?",
    "(yes/no)",
    "yes or no",
    "yes/no",
    "(y/n)",
    "do you confirm",
    "confirm that",
    "please confirm",
    "confirm if",
    "confirm whether",
    "do you want to",
    "would you like to",
    "is it ok",
    "is it okay",
    "sound good",
    "sounds good",
    "reply yes",
    "reply with yes",
    "respond with yes",
    "say yes",
    "confirm:",
    "once you confirm",
    "does that work",
    "shall i",
    "should i",
)
OPEN_OFFERS = (
    "anything else",
    "something else",
    "how can i help",
    "how may i help",
    "how can i assist",
    "how may i assist",
    "what can i do for you",
    "any other",
    "any further",
    "any more questions",
    "anything more",
    "anything further",
    "need anything",
    "help further",
    "more questions",
    "other questions",
)
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
REFUSALS = (
    "cannot",
    "can't",
    "can not",
    "unable to",
    "not able to",
    "not allowed",
    "not permitted",
    "not eligible",
    "ineligible",
    "not possible",
    "won't be able",
    "will not be able",
    "i'm afraid",
    "against our policy",
    "against the policy",
    "policy does not allow",
    "policy doesn't allow",
    "not allow",
    "not be allowed",
    "have to decline",
    "must decline",
    "non-refundable",
    "nonrefundable",
    "not refundable",
    "is not an option",
)
REASON_MARKERS = (
    "because",
    "since ",
    " as ",
    "due to",
    "policy",
    "policies",
    "only ",
    "eligible",
    "non-refundable",
    "nonrefundable",
    "rule",
    "require",
    "must",
    "according to",
    "per our",
    "under our",
    "under the",
    "beyond",
    "past the",
    "after the",
    "already",
    "expired",
    "limit",
    "not enough",
    "insufficient",
    "exceeds",
    "outside",
)
"""A refusal holding one of these gives a reason (the user may still disagree with it)."""
IDENTITY_PHRASES = (
    "verify your identity",
    "confirm your identity",
    "verify who you are",
    "identify you",
    "authenticate",
    "locate your account",
    "locate your profile",
    "find your account",
    "find your profile",
    "look up your account",
    "look you up",
    "pull up your account",
    "access your account",
    "locate you",
    "find you in",
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

INFO_PHRASES = (
    "here is",
    "here are",
    "here's",
    " you have ",
    " there are ",
    " there is ",
    "currently",
    " status",
    " balance",
    " total",
    " cost",
    " price",
    " fee",
    " due ",
    " available",
    " eligible",
    " scheduled",
    " includes",
    " shows",
    "according to",
    " policy",
)
"""Statement phrases that tell the user something (beside values: digits, amounts, ids)."""
PLANS = (
    " i can (?!see|tell|confirm)",
    " i will ",
    " i'll ",
    " i would ",
    " i'd ",
    " let me ",
    " my proposal",
    " proposed",
    " next,",
)
PLANS += (
    " to do that",
    " i'm going to",
    " i am going to",
    " here is the change",
    " here's the plan",
    " step ",
)
"""A statement of what the agent would do: a plan, not information."""
_PLAN = re.compile("|".join(PLANS))
_VALUE = re.compile(r"\d|\$")
WH_WORDS = frozenset(
    {"which", "what", "when", "where", "who", "whom", "whose", "how", "why", "what's", "where's", "who's"}
)
AUXILIARIES = frozenset(
    {"is", "are", "was", "do", "does", "did", "would", "could", "can", "shall", "should", "will", "may"}
    | {"might", "must", "have", "has", "isn't", "aren't", "don't", "doesn't", "won't", "wouldn't"}
)
YES_NO_WORDS = frozenset({"ok", "okay", "alright", "agreed", "good", "right", "correct", "fine"})
_WORD = re.compile(r"[a-z0-9']+")


_EXPLAINED = re.compile(r"[:(—–]\s*\w")
"""A refusal followed by a colon, a dash or a bracket goes on to say why."""
_CONTRACTED = {"can't": "cannot", "won't": "will not", "isn't": "is not", "aren't": "are not"}


def expand(text: str) -> str:
    """Negative contractions written out ("isn't allowed" -> "is not allowed")."""
    for short, long_ in _CONTRACTED.items():
        text = text.replace(short, long_)
    return re.sub(r"(\w)n't\b", r"\1 not", text)


def normalise(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split())


def comparable(text: str) -> str:
    """Lower case, letters and digits only: how repeated messages are compared."""
    return " ".join(_WORD.findall(text.lower().replace("'", "")))


def _has(text: str, phrases: Iterable[str]) -> bool:
    return any(phrase in text for phrase in phrases)


def is_question(sentence: str) -> bool:
    text = normalise(sentence)
    lowered = text.rstrip(" *_\"')")
    return lowered.endswith("?") or _has(text, REQUEST_PHRASES) or bool(POLITE_REQUEST.search(lowered))


@dataclass
class Reading:
    """What the scripted user took from one agent message."""

    questions: list[str] = field(default_factory=list)
    facts_asked: list[str] = field(default_factory=list)
    """Facts the agent asks the user for, in the order asked, one list entry per fact."""
    asked_by_question: list[list[str]] = field(default_factory=list)
    """The facts each fact-asking question asks for (one inner list per question): those the user
    knows when it names any, else all it names."""
    requested: list[str] = field(default_factory=list)
    """Every fact a fact-asking question names, known to the user or not."""
    asks_confirmation: bool = False
    verified: list[str] = field(default_factory=list)
    """Facts whose value a question states back to the user (a check, not a request)."""
    open_questions: int = 0
    """Questions the user cannot map to a fact or a confirmation."""
    offers: int = 0
    """Open offers of help asked as questions ("Anything else?", "How can I help?")."""
    statement_offers: int = 0
    """Open offers said as statements ("Let me know if you need anything else.")."""
    handover_offers: int = 0
    """Offers to hand the user over to a person ("Would you like me to transfer you to a human agent?")."""
    lookup_offers: int = 0
    """Offers to look something up ("Would you like me to check your order?"): no write proposed."""
    identity_questions: int = 0
    """Questions about who the user is that name no fact ("so that I can locate your account")."""
    guessed: list[str] = field(default_factory=list)
    """Known facts a vague wh-question most likely means (answered, never charged)."""
    choices: list[tuple[str, str]] = field(default_factory=list)
    """Choice questions ("Mastercard or Visa?") answered from a known fact: (option, fact name)."""
    statements: list[str] = field(default_factory=list)
    """The sentences that are not questions: where completion claims, information and refusals count."""
    claim: Claim = Claim.NONE
    refuses: bool = False
    refusal_reasoned: bool = False
    """A refusal statement that gives a reason ("because", "our policy", "not eligible", …)."""
    acknowledges: bool = False
    leaks_error: bool = False
    informs: bool = False
    """A statement that tells the user something: a value, a state, a finding, a policy."""

    @property
    def claims_completion(self) -> bool:
        return self.claim >= Claim.WEAK

    @property
    def offers_help(self) -> bool:
        return bool(self.offers or self.statement_offers)

    @property
    def verifies(self) -> bool:
        return bool(self.verified)

    @property
    def asks_anything(self) -> bool:
        """Any question other than an open offer of further help."""
        return len(self.questions) > self.offers


def read_message(message: str, facts: FactBook | list[str]) -> Reading:
    book = facts if isinstance(facts, FactBook) else FactBook(names=list(facts))
    text = normalise(message)
    reading = Reading(
        acknowledges=_has(text, ACKNOWLEDGEMENTS),
        leaks_error=any(pattern.search(message) for pattern in ERROR_LEAK_PATTERNS),
    )
    previous = ""
    for sentence in sentences(message):
        if not is_question(sentence):
            _read_statement(sentence, reading)
            previous = normalise(sentence)
            continue
        reading.questions.append(sentence)
        question = normalise(sentence)
        if previous and _bare_offer(question) and _has(previous, HANDOVER_PHRASES):
            reading.handover_offers += 1  # "I can transfer you to a human agent. Want me to?"
            continue
        if previous and _bare_offer(question) and _offers_lookup(previous, OFFER_LEADS):
            reading.lookup_offers += 1  # "I can pull up your order. Want me to?"
            continue
        if previous and _BACK.search(question) and not facts_named(question, book.names):
            question = f"{previous} {question}"  # "… your name and zip code. Could you provide those?"
        _read_question(question, book, reading)
        previous = ""
    reading.facts_asked = list(dict.fromkeys(n for names in reading.asked_by_question for n in names))
    return reading


def _read_statement(sentence: str, reading: Reading) -> None:
    reading.statements.append(sentence)
    lowered = expand(normalise(QUOTED.sub(" ", sentence)))
    refusing = _has(lowered, REFUSALS)
    claimed = Claim.NONE if refusing else claim(sentence)  # "I can't: it was already completed"
    reading.claim = max(reading.claim, claimed)
    if not (refusing or claimed or _PLAN.search(f" {lowered}")):
        reading.informs = (
            reading.informs or bool(_VALUE.search(sentence)) or _has(f" {lowered}", INFO_PHRASES)
        )
    if refusing:
        reading.refuses = True
    if _has(lowered, OPEN_OFFERS):
        reading.statement_offers += 1
    # A reason may come in the refusal ("…: it is past the deadline") or in a sentence of its own.
    reading.refusal_reasoned = (
        reading.refusal_reasoned
        or _has(f" {lowered} ", REASON_MARKERS)
        or bool(refusing and _EXPLAINED.search(lowered))
    )


def _proposed_verb(question: str, phrases: Iterable[str] = PROPOSAL_PHRASES) -> str | None:
    """The first content word after a proposal phrase ("would you like me to *look* up …")."""
    skipped = ("to", "me", "you", "go", "ahead", "and", "also", "quickly", "just", "first", "now")
    for phrase in phrases:
        at = re.search(rf"\b{re.escape(phrase)}\b", question)
        if at:
            words = [w for w in _WORD.findall(question[at.end() :]) if w not in skipped]
            if words:
                return words[0]
    return None


def _subordinate(question: str, lead: str) -> bool:
    """ "Before I can look into this, …", "so I can check": the lead is not an offer."""
    before = _WORD.findall(question[: question.find(lead)])[-2:]
    return any(word in SUBORDINATORS for word in before)


SUBORDINATORS = frozenset({"before", "so", "once", "after", "until", "that", "where", "when", "as"})


def _bare_offer(question: str) -> bool:
    """A proposal that names nothing ("Want me to?", "Shall I?"): it is about the sentence before."""
    return _opens_with_proposal(question) and len(content_words(question)) <= 1


def _offers_lookup(question: str, leads: tuple[str, ...] = (*PROPOSAL_PHRASES, *OFFER_LEADS)) -> bool:
    """ "Can I check your order?", "Would you like me to look up …": an offer to find something out,
    made at the start of the question ("…so that I can look it up" asks for something else)."""
    early = [p for p in leads if 0 <= question.find(p) < LOOKUP_LEAD and not _subordinate(question, p)]
    verb = _proposed_verb(question, early)
    return verb is not None and is_lookup(verb) and verb not in ("confirm", "have", "know")


def _opens_with_proposal(question: str) -> bool:
    """ "Shall I…?" near the start; a wh-question ("Which one would you like me to cancel?") never is."""
    first = _WORD.findall(question)[:1]
    if first and first[0] in WH_WORDS:
        return False
    return any(0 <= question.find(phrase) < PROPOSAL_LEAD for phrase in PROPOSAL_PHRASES)


def _confirms(question: str, reading: Reading) -> None:
    """A proposal or yes/no check: a lookup offer when what it offers is to find something out, an
    open question when it offers nothing in particular ("any other changes, such as …?")."""
    verb = _proposed_verb(question)
    if verb is not None and is_lookup(verb) and verb not in ("confirm", "verify"):
        reading.lookup_offers += 1
    elif _VAGUE.search(re.split(r",? or (?:is there|do you|would you)\b", question)[0]):
        reading.open_questions += 1  # "…any specific action, such as a return?" (not "…, or anything else?")
    else:
        reading.asks_confirmation = True


def _changes_anything(question: str) -> bool:
    words = _WORD.findall(question)
    return any(_changes(w) for w in words) or bool(_phrasal_change(words))


def _which_fact(question: str, book: FactBook) -> list[str]:
    """ "Which order …?", "which item you'd like to change": the fact whose name starts with the noun
    after "which" (the one the user knows first)."""
    found = re.search(r"\bwhich (\w+)", question)
    if found is None:
        return []
    noun = found.group(1)
    named = [n for n in book.names if same_word(noun, n.replace("_", " ").split()[0])]
    return sorted(named, key=lambda n: n not in book.known)[:1]


def _requests(question: str) -> bool:
    """A question that asks for information ("please provide …", "which order …", "please confirm the
    reason …")."""
    words = _WORD.findall(question)
    return (
        any(w in WH_WORDS for w in words)
        or _has(question, INFO_REQUESTS)
        or any(w in REQUEST_VERBS for w in words)
        or bool(_CONFIRM_THE.search(question))
    )


def _proposes_change(question: str) -> bool:
    """A question that offers to change something: a proposal phrase near its start ("Shall I…"),
    an imperative verb of change ("Cancel reservation ABC123?"), or a yes/no check ("(yes/no)", "is
    that okay", "do you want to…") holding a verb of change."""
    words = _WORD.findall(question)
    if not words or words[0] in WH_WORDS or _WH_CHOICE.search(question):
        return False
    if _opens_with_proposal(question) or (_changes(words[0]) and is_verb(words[0])):
        return True
    checks = _has(question, PROPOSAL_PHRASES) or _has(question, CONFIRMATION_PHRASES)
    return checks and (any(_changes(w) for w in words) or bool(_phrasal_change(words)))


def _changes(word: str) -> bool:
    return meaning(word).startswith("class:") and not is_lookup(word)


def _phrasal_change(words: list[str]) -> set[str]:
    return {m for m in phrase_meanings(words) if m.startswith("class:")} - {meaning(w) for w in words}


def _read_question(question: str, book: FactBook, reading: Reading) -> None:
    named = facts_named(_PURPOSE.sub("", question), book.names) or _which_fact(question, book)
    picked = choice(question, book)
    stated = [n for n in named if book.values.get(n) and normalise(book.values[n]) in question]
    if picked is not None:
        reading.choices.append(picked)
    elif _offers_lookup(question):
        reading.lookup_offers += 1
    elif _has(question, HANDOVER_PHRASES):
        reading.handover_offers += 1
    elif named and not stated and _requests(question) and not _asks_which_of_unknown(question, named, book):
        known = [n for n in named if n in book.known]
        reading.asked_by_question.append(known or named)
        reading.requested.extend(n for n in named if n not in reading.requested)
        if _has(question, WISH_PHRASES) and _changes_anything(question):
            _confirms(question, reading)  # "To proceed with cancelling it, please confirm the reason"
    elif _proposes_change(question):
        _confirms(question, reading)
    elif stated:
        reading.verified.extend(stated)
    elif _has(question, OPEN_OFFERS) and not named:
        reading.offers += 1
    elif _opens_with_proposal(question):
        _confirms(question, reading)
    elif named and not _asks_which_of_unknown(question, named, book):
        known = [n for n in named if n in book.known]
        reading.asked_by_question.append(known or named)
        reading.requested.extend(n for n in named if n not in reading.requested)
    elif _is_wh_question(question) and _guess(question, book, reading):
        pass
    elif _has(question, IDENTITY_PHRASES):
        reading.identity_questions += 1
    elif _has(question, PROPOSAL_PHRASES + CONFIRMATION_PHRASES) or _yes_no(question):
        _confirms(question, reading)
    else:
        reading.open_questions += 1


def _yes_no(question: str) -> bool:
    """A yes/no question ("Would that be alright?", "Okay?"): it opens with an auxiliary verb and asks
    for no information ("Could you provide these?" is a request, not a check)."""
    words = _WORD.findall(question)
    if not words or any(w in REQUEST_VERBS for w in words) or _ASKS_USER.match(question):
        return False
    return words[0] in AUXILIARIES or (len(words) <= 2 and words[0] in YES_NO_WORDS)


REQUEST_VERBS = frozenset(
    {"provide", "share", "tell", "send", "give", "spell", "enter", "type", "remind", "specify"}
)


def _guess(question: str, book: FactBook, reading: Reading) -> bool:
    guess = best_guess(question, book)
    if guess is None and _WORD.findall(question)[:1] == ["which"]:
        # "Which reservation…?": the known fact the current request is about identifies it.
        guess = best_guess(book.focus, book)
    if guess:
        reading.guessed.append(guess)
        return True
    choosing = _WH_CHOICE.search(question)  # "let me know how you'd like to proceed"
    if not choosing and (
        _has(question, IDENTITY_PHRASES) or _has(question, PROPOSAL_PHRASES + CONFIRMATION_PHRASES)
    ):
        return False
    reading.open_questions += 1
    return True


def _asks_which_of_unknown(question: str, named: list[str], book: FactBook) -> bool:
    """ "Which reservation…?" naming only facts the user does not know: answered from what they know."""
    return _WORD.findall(question)[:1] == ["which"] and not any(n in book.known for n in named)


def _is_wh_question(question: str) -> bool:
    """A wh-word near the start ("Which trip …", "Please let me know which order …")."""
    return any(word in WH_WORDS for word in _WORD.findall(question)[:6])


def contains_all(message: str, evidence: list[str]) -> bool:
    """Every evidence string occurs in the message (case-insensitive, commas ignored)."""
    text = message.lower().replace(",", "")
    return all(item.lower().replace(",", "") in text for item in evidence)


def question_words(question: str) -> list[str]:
    return content_words(question)
