"""The word lists and patterns of the semantic lints (`tracer/semantic_lints.py`), in one place.

Each list is what a careful reviewer of task set v2 (issue 37) faulted, widened to the wordings the
phrase banks and anchor texts use. A list is matched case-insensitively on word boundaries unless it
says otherwise. Widening a list changes the lint counts: record them in docs/tracer.md ("Semantic
lints").
"""

from __future__ import annotations

import re

from taue.simulator.anchors.clashes import PATIENT, SUSPICIOUS, TRUSTING, URGENT, words

__all__ = ["PATIENT", "SUSPICIOUS", "TRUSTING", "URGENT", "words"]


# ------------------------------------------------------------------------------------------ ids

ID_DENIAL = re.compile(
    r"\b(?:ids?|reference numbers?)\b.*\b(?:no|not|none|cannot|only|other|rest|every)\b|"
    r"\b(?:no|not|none|cannot|only|apart|besides|aside|beyond|other than)\b.*\b(?:ids?|reference numbers?)\b",
    re.IGNORECASE,
)
"""A sentence saying the customer has no (other) ids: "You know X, but no other ids", "You have no
reference numbers to hand" (the frames of `prose.NO_IDS` and `prose.SOME_IDS`, and their rewrites)."""
ID_TOKEN = re.compile(r"(?<![\w@.-])#?[A-Za-z][A-Za-z_]*\d[\w-]*|(?<![\w@.-])\d{6,}(?![\w@])")
"""A token that names one record: letters then digits ("TICKET00154", "HAT174", "#W1974812",
"N2984265", "esme_jansen_9226") or a long number ("8378402728")."""
ID_ARGUMENT = re.compile(r"(^|_)(id|ids|number)$")
"""Tool arguments holding ids: `reservation_id`, `item_ids`, `flight_number`."""
ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
MONTH_DATE = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}\b", re.IGNORECASE
)
ZIP_CODE = re.compile(r"(?<![\w-])\d{5}(?:-\d{4})?(?![\w-])")
FLIGHT_NUMBER = re.compile(r"\b[A-Z]{2,3}\d{3,4}\b")
"""Matched only on values the scenario itself calls flights (fact or argument names with "flight")."""
FLIGHT_FACT = re.compile(r"flight", re.IGNORECASE)

# ---------------------------------------------------------------------------------------- prose

INSTEAD_CHAIN = re.compile(r"\binstead of\b(?:(?!\band\b|[,;.?!]).)*?\binstead of\b", re.IGNORECASE)
"""Two "instead of" in one clause: "720p instead of 1080p instead of the Webcam"."""
VALUE = r"(?:[A-Z0-9][\w:'/-]*(?: [A-Z0-9][\w:'/-]*)*)"
FROM_TO_TO = re.compile(rf"\bfrom {VALUE} to {VALUE} to {VALUE}")
"""A chained move: "from September 24 to September 22 to September 25" (capitalised or numeric
values, so "from May 25 to May 24 to be there" is no chain)."""
SNAKE_CASE = re.compile(r"(?<![\w@./-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w@/-]|\.\w)")
"""A tool value written as code ("no_service", "credit_card", "one_way"): customers say words."""
EMAIL_OR_URL = re.compile(r"\S+@\S+|https?://\S+")

# ------------------------------------------------------------------------------------- emotions

HISTORY = words(
    r"keeps? (?:going wrong|happening|failing)",
    r"every attempt so far",
    r"attempts? so far",
    r"so far",
    r"finally",
    r"lingering",
    r"bitter(?:ness)? about how",
    r"how you have been treated",
    r"in the past",
    r"(?:yet|once) again",
    r"again and again",
    r"all over again",
    r"burned before",
    r"still (?:not|hasn't|haven't|isn't|waiting)",
    r"no progress",
    r"how little progress",
    r"for weeks",
    r"repeatedly",
    r"given up hope",
    r"ever be resolved",
    r"third time",
    r"as usual",
)
"""History words: they give the situation an earlier contact that a first-contact task lacks."""

# ----------------------------------------------------------------------------------- situations

RETIRED = words(r"retired", r"retiree", r"pensioner")
WORK_REASON = words(
    r"(?:at|off|from|for|to|after|before) work",
    r"work (?:trip|shift|schedule|call|late|meeting|from home|day)",
    r"busy stretch at work",
    r"(?:my|your) (?:job|boss|employer|shift|colleagues?|manager)",
    r"the office",
)
"""A persona with no job (retired) against a reason about work ("less time off work")."""
MOVED_TO = re.compile(
    r"\b(?:you|I|we)(?: have| just| recently)* (?:moved|relocated|are moving|live now|now live) "
    r"(?:to|in) ([A-Z][a-z]+(?: [A-Z][a-z]+)?)"
)
"""A move the reasons state ("you moved to Boise recently"): its city must be the task's address."""
CALENDAR = words(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day",
    r"january|february|march|april|may|june|july|august|september|october|november|december",
)
"""Capitalised words that are no city ("moved to Saturday")."""
ADDRESS_CITY = re.compile(r"\d+ [^,]+, ([A-Z][A-Za-z .'-]+), [A-Z]{2} \d{5}")
"""The city of a street address ("5120 Prairie Wind Drive, Lincoln, NE 68516, USA")."""
HIDDEN_NAME = re.compile(r"\bthe (?:one|restaurant|place|location|venue|hotel) you (?:visited|stayed|went)")
"""A fact that hides a name on purpose ("the one you visited on Sunday, March 30")."""

# ----------------------------------------------------------------------------------------- fees

FEE_ACCEPTED = re.compile(
    r"\b(?:accept|agree to|fine with|okay with|ok with|happy to pay|willing to pay|will pay|"
    r"can pay|don't mind|do not mind|give your okay|approve|say yes)\b[^.]*"
    r"\b(?:fees?|deposits?|penalt(?:y|ies)|charges?)\b",
    re.IGNORECASE,
)
"""A sentence accepting a fee: "you accept a late-drop fee if there is one"."""
AMOUNT = re.compile(r"[$€£]\s?\d|\b\d+(?:\.\d+)? (?:dollars|euros|pounds)\b")
"""A money amount: acceptance must not state it (the agent tells the customer the amount)."""
