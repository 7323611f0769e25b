"""What an imported task's instruction says the customer knows, and what it says the customer does not.

The scripted user can only give a fact it holds. Ground-truth arguments the instruction states are
known facts (`scenario.py`); this module finds the rest of what a customer of the instruction would
say when asked, and how it says it:

- **values in other spellings** (`stated_value`): `one_way` as "one-way", `2024-05-20` as "May 20",
  a bag count as "2 checked bags" (a small number before a word of the argument's name), an enum
  answer whose argument the instruction names ("no travel insurance" for `insurance: no`), and a
  reason argument (the customer always knows why it asks);
- **facts no gold argument holds** (`stated_facts`): its name (`full_name`, "You are Nora
  Quinn"), another e-mail address, record ids named with a word for their kind
  (`requests.record_ids`: "reservation KX7Q2P"), how it pays or wants its refund (`pay_with`,
  `refund_to`: "your debit card ending in 1188", "refund … to your gift card"), its reasons
  ("because your flat flooded" -> `reason`: "my flat flooded"), a route ("from SEA to DEN" ->
  `origin`, `destination`), passengers and how many, dates, its budget and its preferences ("You
  prefer an aisle seat near the front" -> `preference`);
- **facts it lacks** (`unknown_facts`): "you don't remember your reservation id" makes
  `reservation_id` unknown — the user says it does not know, never the value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import date

from taue.envs.task_sets.requests import record_ids, sentences
from taue.envs.task_sets.wording import stem, stems, words

MAX_CLAUSE_WORDS = 16
NUMBER_WORDS = {w: n for n, w in enumerate(["zero", "one", "two", "three", "four", "five", "six", "seven"])}
_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september"]
_MONTHS += ["october", "november", "december"]
_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_WRITTEN_DATE = re.compile(
    r"\b(?:(?:" + "|".join(_MONTHS) + r")\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?|\d{4}-\d{2}-\d{2})\b",
    re.IGNORECASE,
)
_NAME = re.compile(
    r"\b(?:You are|you are|Your name is|your name is|You're|I am)\s+(?:assisting\s+|helping\s+)?"
    r"((?:[A-Z][a-z]+)(?:\s+[A-Z][a-z]+){1,2})\b(?!@)"
)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_CARD = (
    r"(?:(?:visa|mastercard|master card|amex|american express|discover)(?:\s+(?:credit|debit))?(?:\s+card)?"
    r"|(?:credit|debit|gift)\s+cards?|paypal(?:\s+account)?|(?:travel\s+)?certificates?"
    r"|\d{4}\s+(?:credit\s+|debit\s+)?card|original\s+(?:form\s+of\s+)?payment(?:\s+method)?)"
    r"(?:\s+(?:ending|that ends)\s+(?:in|with)\s+\d{4})?"
)
_PAYMENT = re.compile(
    r"\b(?:(?:my|your|his|her|their|the|a|an)\s+)?(?P<what>" + _CARD + r")\b", re.IGNORECASE
)
_PAY_WORDS = re.compile(
    r"\b(?:pay|paid|paying|payment|use|using|charge|charged|with|via|by|prefer)\b", re.IGNORECASE
)
_REFUND_WORDS = re.compile(r"\b(?:refund\w*|reimburse\w*|money back|back to)\b", re.IGNORECASE)
_REASON = re.compile(r"\b(?:because(?: of)?|due to)\s+(?P<what>[^.;:()]+)", re.IGNORECASE)
_PREFERENCE = re.compile(
    r"\b(?:prefer(?:s|red|ring)?|preference is(?: for)?|would rather)\s+(?:to\s+)?(?P<what>[^.;:()]+)"
    r"|\b(?P<cheap>the\s+(?:cheapest|fastest|earliest|latest|shortest)\s+[^.;:(),]+)",
    re.IGNORECASE,
)
_BUDGET = re.compile(r"\bbudget(?:\s+(?:of|is))?\s+(?P<what>\$\s?\d[\d,.]*)", re.IGNORECASE)
_ROUTE = re.compile(
    r"\b(?P<origin>[A-Z]{3})(?:\s+to\s+|\s*-\s*|\s*→\s*)(?P<destination>[A-Z]{3})\b(?:\s+via\s+(?P<via>[A-Z]{3})\b)?"
)
_NAMES = re.compile(
    r"\b(?:passengers?|companions?|travel(?:l)?ing with|accompanied by|along with|for)\s+"
    r"(?:(?:your|his|her|their)\s+(?:[a-z]+\s+)?)?(?P<first>[A-Z][a-z]+ [A-Z][a-z]+)"
    r"(?:(?:,\s*|\s+and\s+|,\s+and\s+)(?P<second>[A-Z][a-z]+ [A-Z][a-z]+))?"
)
_NOT_NAMES = re.compile(
    r"^(?:New|Los|San|Las|Basic|Business|Economy|Gold|Silver|Regular|"
    + "|".join(m.capitalize() for m in _MONTHS)
    + r")\b"
)
_COUNT = re.compile(
    r"\b(?P<number>\d+|"
    + "|".join(NUMBER_WORDS)
    + r")\s+(?:[a-z]+\s+)?(?:passengers|travell?ers|people|adults)\b",
    re.IGNORECASE,
)
_CLAUSE_STOP = re.compile(
    r"\s+(?:but|so|and you|and then|which|while|although|however|if|because)\b|,\s+(?:and|so|but)\s+",
    re.IGNORECASE,
)
_LACKS = re.compile(
    r"\b(?:do not|don't|does not|doesn't|cannot|can't|can not|did not|didn't|no longer)\s+"
    r"(?:remember|recall|know|have|recollect)\s+(?:the|your|his|her|their|its|any|which)?\s*"
    r"(?P<what>[a-z ]{2,40}?)(?=[,.;:]|\s+(?:but|and|so|because|or)\b|$)"
    r"|\b(?:forgot(?:ten)?|lost)\s+(?:the|your|his|her|their)\s+"
    r"(?P<lost>[a-z ]{2,40}?)(?=[,.;:]|\s+(?:but|and|so)\b|$)",
    re.IGNORECASE,
)
_NEGATION = re.compile(r"(?:\bnot|n't|\bnever)\s+$", re.IGNORECASE)
_PERSON = {"your": "my", "yours": "mine", "yourself": "myself", "you": "I", "you're": "I'm", "you've": "I've"}
_SECOND_PERSON = re.compile(r"\b(?:your|yours|yourself|you're|you've|you)\b", re.IGNORECASE)
_RECORD_WORDS = {"confirmation": "reservation", "booking": "reservation"}


def first_person(text: str) -> str:
    """The instruction's second person as the customer says it: "your wife" -> "my wife"."""
    return _SECOND_PERSON.sub(lambda m: _PERSON[m.group().lower()], text)


def stated_value(name: str, value: str, instruction: str, enum: Iterable[str] = ()) -> bool:
    """Whether the instruction states the ground-truth value `value` of argument `name` in other
    words (see the module docstring); `instruction` lower-cased, `enum` the argument's allowed values."""
    if "reason" in name:
        return True
    spelled = {value.replace("_", " "), value.replace("_", "-")} - {value}
    if any(_whole(s.lower(), instruction) for s in spelled if len(s) >= 3):
        return True
    if (day := _iso(value)) is not None:
        return any(_whole(f, instruction) for f in _date_forms(day))
    if value.isdigit() and len(value) <= 2:
        return _counted(int(value), name, instruction)
    named = [w for w in words(name.replace("_", " ")) if len(w) >= 4]
    return value in enum and any(_whole(w, instruction) for w in named)


def _whole(needle: str, text: str) -> bool:
    return re.search(rf"(?<![a-z0-9]){re.escape(needle)}(?![a-z0-9])", text) is not None


def _iso(value: str) -> date | None:
    match = _ISO_DATE.match(value)
    if match is None:
        return None
    try:
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None


def _date_forms(day: date) -> list[str]:
    month = _MONTHS[day.month - 1]
    return [f"{month} {day.day}", f"{day.day} {month}", f"{day.month}/{day.day}"]


def _counted(number: int, name: str, instruction: str) -> bool:
    """`number` (a digit or its word) stands within three words before a word of the argument's name."""
    own = {stem(w) for w in words(name.replace("_", " ")) if len(w) >= 3}
    said = words(instruction)
    return any(
        (word == str(number) or NUMBER_WORDS.get(word) == number)
        and bool(own & {stem(w) for w in said[index + 1 : index + 4]})
        for index, word in enumerate(said)
    )


def stated_facts(
    instruction: str, heads: Mapping[str, set[str]], taken: Iterable[str]
) -> list[tuple[str, str]]:
    """(fact name, value) for what the instruction states beyond the ground truth's arguments, in
    the order of the module docstring; values already held (`taken`) are left out. `heads`: each id
    argument of the domain's tools -> its own words ("reservation_id" -> {"reservation"})."""
    held = {value.lower() for value in taken}
    found: list[tuple[str, str]] = []
    for extract in (_who, _records, _payments, _trip, _wishes):
        for name, raw in extract(instruction, heads, held):  # each reads `held` as it grows
            value = " ".join(raw.split()).strip(" ,")
            if value and value.lower() not in held:
                held.add(value.lower())
                found.append((name, value))
    return found


Found = Iterator[tuple[str, str]]


def _who(instruction: str, heads: Mapping[str, set[str]], held: set[str]) -> Found:
    """The customer's name and e-mail addresses, and the names of its passengers."""
    if (name := _NAME.search(instruction)) is not None and not _names_held(name[1], held):
        yield "full_name", name[1]
    for email in _EMAIL.findall(instruction):
        yield "email", email
    for match in _NAMES.finditer(instruction):
        for passenger in (match["first"], match["second"]):
            if passenger and not _NOT_NAMES.match(passenger) and not _names_held(passenger, held):
                yield "passenger_name", passenger
    for match in _COUNT.finditer(instruction):
        number = match["number"].lower()
        yield "passenger_count", str(NUMBER_WORDS.get(number, number))


def _records(instruction: str, heads: Mapping[str, set[str]], held: set[str]) -> Found:
    """Record ids named with a word for their kind (payment ids are never written so)."""
    record_heads = {a: h | {w for w, kind in _RECORD_WORDS.items() if kind in h} for a, h in heads.items()}
    for argument, value, _, _ in record_ids(instruction, record_heads, {}):
        if any(c.isalpha() for c in value) and "payment" not in argument:
            yield argument, value


def _trip(instruction: str, heads: Mapping[str, set[str]], held: set[str]) -> Found:
    """Routes and dates (a date the ground truth holds in ISO form is not said twice)."""
    for match in _ROUTE.finditer(instruction):
        yield "origin", match["origin"]
        yield "destination", match["destination"]
        yield "connection", match["via"] or ""
    days = {(d.month, d.day) for value in held if (d := _iso(value)) is not None}
    for match in _WRITTEN_DATE.finditer(instruction):
        if _month_day(match.group()) not in days:
            yield "date", match.group()


def _wishes(instruction: str, heads: Mapping[str, set[str]], held: set[str]) -> Found:
    """Reasons, budget and preferences, in the customer's words."""
    for match in _REASON.finditer(instruction):
        yield "reason", first_person(_clause(match["what"]))
    for match in _BUDGET.finditer(instruction):
        yield "budget", match["what"]
    for text in preferences(instruction):
        yield "preference", text


def _month_day(text: str) -> tuple[int, int] | None:
    if (day := _iso(text)) is not None:
        return day.month, day.day
    parts = words(text)
    if len(parts) >= 2 and parts[0] in _MONTHS and parts[1][:2].rstrip("stndrh").isdigit():
        return _MONTHS.index(parts[0]) + 1, int(parts[1][:2].rstrip("stndrh"))
    return None


def _names_held(name: str, held: set[str]) -> bool:
    return all(any(part.lower() == value for value in held) for part in name.split())


def _clause(text: str) -> str:
    stop = _CLAUSE_STOP.search(text)
    cut = text[: stop.start()] if stop else text
    return " ".join(cut.split()[:MAX_CLAUSE_WORDS]).rstrip(" ,")


def _payments(instruction: str, heads: Mapping[str, set[str]], held: set[str]) -> Found:
    """(pay_with or refund_to, the method as worded) for each payment method the instruction names
    in a sentence about paying or a refund; a method it changes from ("from PayPal to …") is the
    `current_payment_method`, not one it pays with."""
    for sentence in sentences(instruction):
        for match in _PAYMENT.finditer(sentence):
            before = sentence[: match.start()]
            if re.search(r"\bfrom\s+(?:\w+\s+)?$", before, re.IGNORECASE):
                yield "current_payment_method", match["what"]
            elif _REFUND_WORDS.search(before[-80:]):
                yield "refund_to", match["what"]
            elif _PAY_WORDS.search(sentence) or "ending" in match["what"].lower():
                yield "pay_with", match["what"]


def preferences(instruction: str) -> list[str]:
    """The customer's preferences, in its words ("an aisle seat near the front")."""
    found = []
    for match in _PREFERENCE.finditer(instruction):
        if _NEGATION.search(instruction[: match.start()]):
            continue
        text = _clause(match["what"] or match["cheap"])
        if len(text.split()) >= 2:
            found.append(first_person(text))
    return list(dict.fromkeys(found))


def unknown_facts(instruction: str, names: Iterable[str]) -> list[str]:
    """The fact names among `names` that the instruction says the customer does not know ("you don't
    remember your reservation id" -> reservation_id); a name ending in `_id` is meant by its own
    words ("reservation") or a word for a record of its kind ("confirmation number")."""
    lacking = [(m["what"] or m["lost"]).strip() for m in _LACKS.finditer(instruction)]
    found = []
    for phrase in lacking:
        said = stems(phrase) | {stem(kind) for w, kind in _RECORD_WORDS.items() if w in phrase.lower()}
        for name in names:
            own = {stem(w) for w in words(name.replace("_", " ")) if w not in ("id", "ids")}
            if own and own <= said and name not in found:
                found.append(name)
    return found
