"""Completion claims: does a statement say that a change has been made?

A report may take any form: "I've moved the money", "I switched your plan", "your card has been
unfrozen", "you're all set", "all done", "the booking is now confirmed", "it went through". A claim is

- a **report by the agent**: "I" or "we" (perfect or simple past, "I've gone ahead and …") with the
  past form of any verb that is not a verb of finding out (`LOOKUP_VERBS`: "I've found your order" is
  no claim);
- a **passive of a change**: "has/have been" + past form ("has been moved"), or "was/were" + past form
  with "successfully", "just" or "now" ("was successfully cancelled": plain "was delivered on May 5"
  is history, not a report);
- a **state reached**: "is now", "are now", "now active", "all set", "all done", "done", "complete",
  "successfully", "went through", "taken care of", "in place", "good to go".

None of them counts after a negation or a modal within `WINDOW` words ("I could not move it",
"once it has been moved", "I will have it cancelled"). A claim is *strong* when it names a change
plainly (a phrase above or a verb of change); only strong claims can be doubted as false
(`unconfirmed_claim`): when unsure, the user does not accuse the agent.
"""

from __future__ import annotations

import re
from enum import IntEnum

from taue.simulator.lexicon import LIGHT_VERBS, is_lookup, is_past_form, is_verb, lemma, meaning, wordset

WINDOW = 4
SUBORDINATORS = frozenset({"after", "before", "once", "until", "unless", "if", "whether", "when", "whenever"})
NEGATIONS = wordset(
    "not never no unable cannot couldn't can't wasn't hasn't haven't didn't won't failed without"
)
MODALS = wordset(
    "will would can could shall should to going let if once when whether might may must until before "
    "after soon able want wish like"
)
UNDERWAY = (
    "song is playing",
    "music is playing",
    "track is playing",
    "started playing",
    "playing for you",
    "starting now",
    "enjoy the song",
    "enjoy your song",
    "enjoy the music",
    "enjoy your music",
    "enjoy the track",
    "enjoy listening",
    "enjoy your time listening",
    "time listening",
    "blast listening",
    "has started",
    "have started",
    "has begun",
    "is being processed",
    "are being processed",
    "is processing",
    "it is playing",
    "playing it now",
    "be playing your",
    "begin playing",
    "start playing",
    "enroute",
    "its on the way",
    "have fun with the song",
    "have fun with your song",
    "have fun with the music",
    "have fun with your music",
    "happy listening",
    "good listening",
    "enjoy the tunes",
    "enjoy your listening",
)
"""A change said to be under way: a report in words the user cannot be sure of (`Claim.WEAK`)."""
STATE_PHRASES = (
    "all set",
    "all done",
    "all sorted",
    "done",
    "complete",
    "completed",
    "successfully",
    "successful",
    "successfull",
    "went through",
    "gone through",
    "taken care of",
    "in place",
    "good to go",
    "is now",
    "are now",
    "now active",
    "now shows",
    "now has",
    "now have",
    "is confirmed",
    "are confirmed",
    "has been",
    "have been",
    "all booked",
    "underway",
    "on its way",
    "is on the way",
    "are on the way",
    "on their way",
    "now playing",
    "playing now",
    "went thru",
    "on route",
    "en route",
    "headed your way",
    "heading your way",
    "was a success",
    "were a success",
    "is a success",
    "been a success",
    *UNDERWAY,
)
SUBJECTS = frozenset({"i", "we"})
FILLERS = wordset(
    "have had has just already also now successfully both then and gone went ahead since quickly "
    "finally officially"
)
"""Words between "I" and the verb of a report ("I have now also gone ahead and moved")."""
BLOCKERS = wordset(
    "you he she they it was were is are be been being has have had the a an your my our their any "
    "which that who what"
)
"""Words before a past form that make it history or a description ("the cancelled flight"), not a
headline report."""
PASSIVE_MARKERS = frozenset({"successfully", "just", "now"})
AUXILIARIES = frozenset({"be", "have", "do"})
NOT_HEADLINES = wordset("given based provided compared considering attached included")
PREPOSITIONS = [[p] for p in ("on", "at", "for", "by", "with", "to", "from", "in", "as", "via")]
SAYING = wordset(
    "agree discuss mention say tell ask decide speak talk explain hear try want need like hope wish think "
    "believe expect assume mean understand apologize apologise note"
)
"""Verbs of saying and thinking: "as we agreed", "I mentioned" report no change."""
_CONTRACTIONS = {
    "i've": "i have",
    "we've": "we have",
    "i'd": "i had",
    "you're": "you are",
    "we're": "we are",
    "it's": "it is",
    "that's": "that is",
    "everything's": "everything is",
    "you've": "you have",
    "they've": "they have",
    "they're": "they are",
}
_WORD = re.compile(r"[a-z0-9']+")
_IS_BEEN = re.compile(r"\bis ((?:all |now |just |already )?)been\b")
_PHRASES = tuple((phrase, re.compile(rf"\b{re.escape(phrase)}\b")) for phrase in STATE_PHRASES)


class Claim(IntEnum):
    NONE = 0
    WEAK = 1
    """A report in words the user cannot be sure of ("I've noted it"): it reports, it never accuses."""
    STRONG = 2


def _words(sentence: str) -> list[str]:
    lowered = sentence.lower().replace("’", "'").replace("on it's way", "on its way")
    expanded = " ".join(_CONTRACTIONS.get(w, w) for w in _WORD.findall(lowered))
    return _IS_BEEN.sub(r"has \1been", expanded).split()  # "it's all been booked": "it has all been"


def _free(words: list[str], index: int) -> bool:
    """No negation or modal in the `WINDOW` words before `index`, and no subordinator anywhere before
    it in the clause ("… insurance after the booking has been completed" reports nothing)."""
    start = max(0, index - WINDOW)
    before = words[start:index]
    if any(w in SUBORDINATORS for w in words[:index]):
        return False
    return not any(
        w in NEGATIONS or (w in MODALS and not _preposition(words, start + i)) or w.endswith("n't")
        for i, w in enumerate(before)
    )


DETERMINERS = frozenset({"the", "a", "an", "your", "my", "our", "their", "this", "that", "these", "those"})


def _preposition(words: list[str], index: int) -> bool:
    """ "to" before a determiner or a word that is no verb is a preposition ("your visit to the flat
    has been booked", "the visit to apartment 4 is scheduled"), not the mark of a verb to come ("going
    to have it cancelled")."""
    following = words[index + 1 : index + 2]
    if words[index] != "to" or not following:
        return False
    return following[0] in DETERMINERS or not is_verb(following[0])


def _change_verb(word: str) -> bool:
    return meaning(word).startswith("class:") or lemma(word) not in LIGHT_VERBS


def _reported_verb(words: list[str], start: int) -> str | None:
    """The past-form verb after a subject at `start` ("I have now moved" -> "moved"), if any."""
    for word in words[start + 1 : start + 1 + WINDOW + 2]:
        if word in FILLERS:
            continue
        if word not in MODALS and is_past_form(word) and lemma(word) not in AUXILIARIES:
            return word
        return None
    return None


def _telegraphic_claim(words: list[str]) -> Claim:
    """A headline report without a subject ("Reservation ABC123 cancelled.", "Refund issued."): a
    past form of a verb of change after no subject, auxiliary, negation or modal."""
    if any(w in NEGATIONS or w.endswith("n't") for w in words):
        return Claim.NONE
    for index, word in enumerate(words):
        if index not in (0, len(words) - 1) or not (
            (meaning(word).startswith("class:") or word in SET_GOING) and is_past_form(word)
        ):
            continue  # a headline's verb opens or closes it; "airline cancelled flight" is a story
        if words[index - 1 : index] in (["status"], ["state"]):
            continue  # "…; status completed": a record's data
        if lemma(word) == word or word in NOT_HEADLINES or words[index + 1 : index + 2] in PREPOSITIONS:
            continue  # "Dumbbell Set", "Given the details", "Scheduled for May 5", "Paid with Visa"
        before = words[max(0, index - WINDOW) : index]
        if _free(words, index) and not any(w in BLOCKERS for w in before):
            return Claim.WEAK
    return Claim.NONE


def _subject_claim(words: list[str]) -> Claim:
    best = Claim.NONE
    for index, word in enumerate(words):
        if word not in SUBJECTS or not _free(words, index):
            continue
        verb = _reported_verb(words, index)
        if verb is None or is_lookup(verb) or lemma(verb) in SAYING or _found(words, verb):
            continue
        best = max(best, Claim.STRONG if _change_verb(verb) else Claim.WEAK)
    return best


def _passive_claim(words: list[str]) -> Claim:
    return max(_perfect_passive(words), _state_passive(words))


def _state_passive(words: list[str]) -> Claim:
    """ "is cancelled", "are booked": a state that a change makes, but also how a description reads
    ("your flight is booked in economy"), so it reports without accusing."""
    for index, word in enumerate(words[:-1]):
        participle = words[index + 1]
        if (
            word in ("is", "are")
            and (
                meaning(participle).startswith("class:")
                or _ends_made(words, index)
                or participle in SET_GOING
            )
            and is_past_form(participle)
            and _free(words, index)
            and (_owned(words[:index]) or (_state_ends(words, index + 2) and _plain_subject(words[:index])))
            and words[index + 2 : index + 3] != ["to"]  # "it is set to be paid with Visa"
        ):
            return Claim.WEAK  # "The visit is scheduled." ends on its state: a report
    return Claim.NONE


SET_GOING = wordset("started initiated planned arranged rented")
"""States of a change set going ("Your transfer is started."), whatever their verb's class."""
AFTER_STATE = wordset("now for you today already")
"""Words that may follow a state and its clause still ends on it ("The transfer is scheduled for now.")."""


def _state_ends(words: list[str], end: int) -> bool:
    return all(word in AFTER_STATE for word in words[end:])


def _plain_subject(subject: list[str]) -> bool:
    """ "The visit is scheduled.", "Tickets are reserved.", "Transfer is initiated.", "Your visit to the
    flat is planned.": a clause that is only its subject and state."""
    return (
        subject[:1] in (["the"], ["your"])
        or (len(subject) == 1 and (subject[0].endswith("s") or subject[0] in BOOKED_THINGS))
        or (subject[:1] != [] and subject[0] in BOOKED_THINGS and subject[1:2] in (["to"], ["at"], ["for"]))
    )


BOOKED_THINGS = wordset(
    "reservation booking appointment visit transfer payment order purchase rental ride table room car "
    "ticket seat card alarm movie song"
)
"""What a bare "… is booked" reports on ("Visit is scheduled.", not "Admission is charged.")."""


def _ends_made(words: list[str], index: int) -> bool:
    """ "Your appointment is made.": "made" ends the clause (not "is made of", "is made with")."""
    return words[index + 1] == "made" and index + 2 == len(words)


def _owned(subject: list[str]) -> bool:
    """The subject of "is cancelled" is the customer's thing ("your booking", "ABC123", "it"), not a
    rule ("compensation is provided as a certificate")."""
    return bool(subject) and (
        "your" in subject[-3:]
        or subject[-1] in ("it", "everything", "all", "both")
        or _ID.match(subject[-1]) is not None
    )


def _perfect_passive(words: list[str]) -> Claim:
    for index, word in enumerate(words[:-1]):
        nxt = words[index + 1]
        if word in ("was", "were") and nxt in PASSIVE_MARKERS and index + 2 < len(words):
            participle = words[index + 2]
        elif word == "been" and _perfect(words[:index]):
            participle = words[index + 2] if nxt in PASSIVE_MARKERS and index + 2 < len(words) else nxt
        else:
            continue
        if _changes(participle) and _free(words, index - 1):
            return Claim.STRONG
        if word == "been" and _reported(participle) and _free(words, index - 1):
            return Claim.WEAK  # "A payment has been made", "the movie has been rented": a report, plainly
    return _final_passive(words)


def _final_passive(words: list[str]) -> Claim:
    """ "The transfer was initiated.", "Reservation was made.": a plain "was" + past form that ends the
    clause reports (with a date or a means after it, "was booked on May 1", it tells history)."""
    words = _without_tail(words)
    if len(words) < 3 or words[-2] not in ("was", "were") or not _free(words, len(words) - 2):
        return Claim.NONE
    return Claim.WEAK if _reported(words[-1]) and lemma(words[-1]) not in AUXILIARIES else Claim.NONE


def _without_tail(words: list[str]) -> list[str]:
    """The clause less a closing "for you" or "to your list" ("The alarm was added to your list."),
    which says for whom, not when or how (as "on May 1" or "with Visa" would)."""
    if words[-2:] == ["for", "you"]:
        return words[:-2]
    if len(words) > 3 and words[-3:-1] == ["to", "your"]:
        return words[:-3]
    return words


def _perfect(before: list[str]) -> bool:
    """ "has been", "have now been", "had already been"."""
    while before and before[-1] in PASSIVE_MARKERS | {"already", "also", "successfully", "all"}:
        before = before[:-1]
    return bool(before) and before[-1] in ("has", "have", "had")


LIFECYCLE = frozenset({"deliver", "ship", "receive", "arrive", "place", "create"})
"""What happens to a record anyway ("it has been delivered"): its history, never the agent's report."""


def _reported(participle: str) -> bool:
    return is_past_form(participle) and not is_lookup(participle) and lemma(participle) not in LIFECYCLE


def _changes(participle: str) -> bool:
    """A participle of a verb of change ("moved", "cancelled", "processed"), not of finding out
    ("located") or of what happens to an order anyway ("delivered")."""
    return is_past_form(participle) and not is_lookup(participle) and meaning(participle).startswith("class:")


def _phrase_claim(words: list[str]) -> Claim:
    text = " ".join(words)
    best = Claim.NONE
    for phrase, pattern in _PHRASES:
        if phrase not in text:
            continue
        for match in pattern.finditer(text):
            index = len(text[: match.start()].split())
            if phrase in ("has been", "have been"):
                continue  # read as a passive above, with its participle
            if not _free(words, index) or words[index - 1 : index] in (["status"], ["state"]):
                continue  # "…; status completed": a record's data
            if phrase in THROUGH and words[index + 2 : index + 3] and words[index + 2] in REVIEWED:
                continue  # "I've gone through everything carefully": a review
            if phrase == "it is playing" and words[index + 3 : index + 4] not in ([], ["now"]):
                continue  # "It's playing on March 14th": an event's showing, not a song started
            if phrase in UNDERWAY:
                best = Claim.WEAK  # "the song is playing": a change under way; it accuses nobody
                continue
            if phrase in HISTORY_STATES and words[index - 1 : index] in (["was"], ["were"]):
                best = Claim.WEAK  # "the order was completed": a report or its history; it accuses nobody
                continue
            return Claim.STRONG
    return best


THROUGH = ("went through", "gone through")
REVIEWED = frozenset(
    {"everything", "all", "your", "the", "it", "them", "my", "our", "this", "that", "each", "every"}
)
HISTORY_STATES = ("complete", "completed", "done")
"""States that, after a plain "was", may tell a record's history ("was completed in May"): weak."""
SEARCH_RESULTS = frozenset(
    {"some", "several", "few", "multiple", "many", "these", "results", "options", "matches"}
)


def _found(words: list[str], verb: str) -> bool:
    """ "I've got 3 flights for you", "I discovered 10 hotels": what a search found, not a change ("I've
    gotten you the seats" is one)."""
    if lemma(verb) == "discover" or _came_up_with(words, verb) or _picked_out(words, verb):
        return True
    if lemma(verb) != "get" or verb not in words:
        return False
    after = words[words.index(verb) + 1 : words.index(verb) + 2]
    return bool(after) and (after[0].isdigit() or after[0] in SEARCH_RESULTS)


SHORTLISTS = frozenset({"selection", "shortlist", "list", "suggestion", "suggestions", "choice", "picks"})


def _picked_out(words: list[str], verb: str) -> bool:
    """ "I made a selection for you": search results narrowed, nothing changed."""
    at = words.index(verb) if verb in words else -1
    return lemma(verb) == "make" and any(w in SHORTLISTS for w in words[at + 1 : at + 4])


def _came_up_with(words: list[str], verb: str) -> bool:
    """ "I came up with 6 doctors": what a search found."""
    at = words.index(verb) if verb in words else -1
    return lemma(verb) == "come" and words[at + 1 : at + 3] == ["up", "with"]


NOT_REPORTS = re.compile(r"(if|unless|once|as soon as|reason|the reason|because)\b")
QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")
"""Quoted options ('"airline cancelled flight"') are not the agent's words."""
_ID = re.compile(r"^(?=.*\d)[a-z0-9_#\-]{4,}$")
_CLAUSE = re.compile(
    r"[;:,()\[\]—–]|\s-\s|\sand\s(?=(?:i|you|we|it|they|your|the|my|our|this|that)\s)", re.IGNORECASE
)
"""Where a clause ends: punctuation, or "and" before a new subject ("Tickets are reserved and I hope
you enjoy it", "No, they don't, and your reservation is confirmed")."""


def claim(sentence: str) -> Claim:
    """How plainly a statement claims a change is made (a question never does); each clause is read
    on its own ("…, insurance no) completed successfully": the "no" is not the report's). A condition ("If
    this address is correct, everything is set.") or a reason ("Reason: already completed.") reports
    nothing."""
    if NOT_REPORTS.match(sentence.lower().lstrip(" *_#>-")):
        return Claim.NONE
    return max((_clause_claim(clause) for clause in _CLAUSE.split(sentence)), default=Claim.NONE)


def _finds_out(words: list[str]) -> bool:
    """The clause reports finding something out ("I have located your order", "it was verified"),
    not a change; a lookup word used otherwise ("the checked bags") does not count."""
    return any(
        is_lookup(word) and is_past_form(word) and index and words[index - 1] in REPORTERS
        for index, word in enumerate(words)
    )


REPORTERS = SUBJECTS | {"have", "has", "had", "been", "successfully", "just", "already", "was", "were"}


def _clause_claim(clause: str) -> Claim:
    words = _words(QUOTED.sub(" ", clause))
    if not words:
        return Claim.NONE
    booked = _booking_claim(" ".join(words))
    if booked or _finds_out(words):
        return booked  # "I have successfully authenticated you": finding out, however it went
    if _ride_coming(words):
        return Claim.WEAK
    return max(_phrase_claim(words), _passive_claim(words), _subject_claim(words), _telegraphic_claim(words))


BOOKED = re.compile(
    r"\b(?:you are|you're|you have been|you've been) (?:all )?"
    r"(?:booked|reserved|scheduled|registered|enrolled)\b"
    r"|\byou(?: have|'ve)? got (?:your |the |a |\d+ |all )?"
    r"(?:seat|ticket|table|car|room|ride|reservation)s?\b"
    r"|\b(?:the |your )?(?:seat|ticket|table|car|room)s? (?:is|are) (?:all |absolutely |now )?yours\b"
    r"|^(?:so |ok |okay |then )?you are (?:all |hereby )?set(?: then| with it| now)?$|\byou are hereby\b"
    r"|^(?:so |now |and )?you (?:have|got) (?:a |your |the |\d+ |\w+ )?(?:tickets|car|seats|table|rental)$"
    r"|^confirmed$"
    r"|^(?:your |the )?(?:reservation|booking|appointment|purchase|order|transfer|payment|rental)s? "
    r"(?:made|done)\b"
    r"|\b(?:i|we) (?:was|were) able to (?:\w+ )?(?:book|reserve|schedule|confirm|make|complete|process|"
    r"transfer|cancel|change|update|move|add|set|send|place|buy|purchase|rent|order|pay)\b"
)
"""'You're booked.', 'I was able to book it.'"""
HELD_FOR_YOU = re.compile(
    r"^it (?:was|has been|is now) confirmed$"
    r"|^(?:so |and |now )?you (?:have )?(?:booked|reserved|rented|bought|purchased|scheduled)\b"
    r"(?!.*\b(?:on|in|last|ago|before|earlier)\b)"
    r"|\b(?:booking|ticket|reservation)s? (?:is|are|has been|have been) verified\b"
    r"|^your (?:car|table|room|order|rental|tickets?) (?:is|are) ready$"
    r"|\byou have (?:a|an|your) (?:\w+ )?"
    r"(?:visit|appointment|car|table|reservation|booking|ride|room|ticket)s? "
    r"(?:scheduled|booked|reserved|waiting)\b"
)
"""'It was confirmed.', 'You have a visit scheduled.', 'You've reserved the tickets.', 'Your booking is
verified.', 'Your car is ready.': what was just booked, or what the customer already holds (a
status; with a date or "last" it is history); a report in words that never accuse."""
CONFIRMED_BOOKING = re.compile(
    r"\b(?:reservation|booking|appointment|ticket|tickets|purchase|order|transfer|payment|ride|table|"
    r"visit|rental|room|rooms|event|schedule)\b[^.;]{0,40}"
    r"\b(?:(?:has|have)(?: now| just| already)? been|was|were|is|are|is now|are now) "
    r"(?:successfully |now )?confirmed\b"
    r"|^(?:your )?(?:reservation|booking|appointment|purchase|order|transfer|payment|ticket|tickets|ride|room"
    r"|table|visit)s? (?:is |are )?confirmed\b"
    r"|\b(?:i|we) (?:have |'ve )?(?:(?:gone|went) ahead and )?(?:successfully )?confirmed "
    r"(?:your |the |that |this )?(?:\w+ )?"
    r"(?:reservation|booking|appointment|ticket|tickets|purchase|order|transfer|payment|ride|table|visit|rental)s?\b"
)
"""'Your ticket was confirmed.', 'I have confirmed the reservation.': confirming a booking makes it (a
record's identity being confirmed is finding out)."""


RIDE_COMING = re.compile(
    r"\b(?:cab|taxi|ride|driver)\b(?: \w+){0,4} (?:is coming|will arrive|will be (?:here|there)"
    r"|should be here|will pick you up|is arriving)\b"
)
"""'Your cab will arrive shortly.': a ride on its way was booked (a report in weak words; so is a
confirmation on its way, below)."""


CONFIRMATION_COMING = re.compile(
    r"\byou (?:will|should) (?:soon )?(?:get|receive|be getting|be receiving) (?:an? |the |your )?"
    r"(?:e-?mail(?:ed)? |text )?confirmation\b"
)
"""'You should get an email confirmation of your appointment.': what was just booked being confirmed."""


def _ride_coming(words: list[str]) -> bool:
    text = " ".join(words)
    found = RIDE_COMING.search(text) or CONFIRMATION_COMING.search(text)
    at = len(text[: found.start()].split()) if found else 0
    return bool(found) and _free(words, at) and not any(w in SUBORDINATORS for w in words)


def _booking_claim(text: str) -> Claim:
    found = CONFIRMED_BOOKING.search(text) or BOOKED.search(text)
    if found:
        # "No, they don't, and your reservation is now confirmed!": a negation of another clause
        near = text[: found.start()].split()[-3:] + text[found.start() : found.end()].split()
        negated = any(w in NEGATIONS or w.endswith("n't") for w in near)
        return Claim.NONE if negated else Claim.STRONG
    held = HELD_FOR_YOU.search(text)
    negated = held is not None and any(w in NEGATIONS for w in text[: held.start()].split()[-3:])
    return Claim.WEAK if held and not negated else Claim.NONE
