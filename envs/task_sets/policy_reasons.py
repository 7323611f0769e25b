"""Refusal reasons from a policy document: the rule that forbids a requested change, in short phrases.

The policy is cut into **rules**: one per sentence of each bullet, numbered item or paragraph, with
its context (the section heading, the item's label such as "Change flights:", and the sentence a
numbered list hangs from, "… only when at least one of these holds:"). A rule restricts when it
says so ("cannot", "only", "never", "not possible", "at most", …). For a request (`requests.py`) the
rules are scored by what they share with it: its kind of change (a rule or its context about
cancelling, for a cancellation), its words ("insurance", "flight") and the write tool's words; the
best restricting rules (within `WINDOW` points of the best, at most `MAX_RULES`) give the phrases.

A rule's **phrases** are its runs of content words between function words and punctuation, with
the tool's own words and action words trimmed from their ends ("Basic economy flights cannot be
modified" gives "basic economy"): two or three words, or one word the customer's request uses
("insurance"). Phrases the instruction also uses come first, then those with a number ("24
hours"); `MAX_REASONS` are kept. A refusal naming one of them is one the scripted user accepts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import lemminflect

from taue.envs.task_sets.wording import actions, stem, stems, words, wordset

MAX_RULES = 3
WINDOW = 3
RARE = 4
"""A word fewer than one rule in `RARE` uses weighs more."""
"""Rules scoring within this many points of the best one give phrases too."""
MAX_REASONS = 4
STRONG = re.compile(
    r"\b(?:cannot|can't|can not|never|only|must not|may not|no longer|not (?:possible|allowed|permitted|"
    r"refundable|eligible)|forbid\w*|prohibit\w*|strict\w*|at most|at least)\b",
    re.IGNORECASE,
)
WEAK = re.compile(r"\b(?:not|no|unless|otherwise|if|except|without)\b", re.IGNORECASE)
_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
_LABEL = re.compile(r"^([A-Za-z][\w /-]{0,40}):\s+")
_FUNCTION_WORDS = wordset(
    """a an the this that these those it its they them their there he she his her you your we our i my
    me us user users agent agents customer customers can cannot can't could may might must should shall
    will would be is are was were been being am do does did has have had not no nor never only also just
    even still already always all any each every some other others such same whole both either neither
    and or but if unless otherwise then so than as because since while when where which who whom whose
    what how why to of in on at for with within without by from into onto out up down over under about
    after before between per via through until upon e.g i.e etc regardless based given make sure need
    needs needed more less most least very much many few once first one s api tool tools call calls
    case following above below times"""
)
"""Words a phrase never starts, ends or runs across (ours, not the policy's)."""
_RUN = re.compile(r"[A-Za-z0-9$%][A-Za-z0-9$%'’-]*|[^\sA-Za-z0-9]")


@dataclass(frozen=True)
class Rule:
    text: str
    context: frozenset[str]
    """Stems of the heading, the item's label and the sentence a list hangs from."""
    context_kinds: frozenset[str]
    """The kinds of change that context names."""
    strong: bool
    """It restricts: it says, or the sentence its list hangs from says, "cannot", "only", …"""
    lead_kinds: frozenset[str] = frozenset()
    """The kinds of change the sentence its list hangs from names: the item's own subject."""


def rules(policy: str) -> list[Rule]:
    """The policy's restricting sentences with their context (see the module docstring)."""
    found: list[Rule] = []
    for heading, intro, item in _items(policy):
        label = _LABEL.match(item)
        context_text = " ".join([heading, intro, label.group(1) if label else ""])
        body = item[label.end() :] if label else item
        inherited = bool(STRONG.search(intro))
        context, kinds = frozenset(_content(context_text)), frozenset(actions(context_text))
        for sentence in _SENTENCE_END.split(body):
            strong = inherited or bool(STRONG.search(sentence))
            if sentence.strip() and (strong or WEAK.search(sentence)):
                found.append(Rule(sentence.strip(), context, kinds, strong, frozenset(actions(intro))))
    return found


def _items(policy: str) -> list[tuple[str, str, str]]:
    """(heading, the sentence its list hangs from, text) for each bullet, numbered item or paragraph:
    an item ending with ":" is what the list items after it (indented no less) hang from."""
    items: list[tuple[str, str, str]] = []
    intro, intro_at, intro_heading = "", 0, ""
    for heading, indent, listed, text in _blocks(policy):
        if heading != intro_heading or not listed or indent < intro_at:
            intro = ""
        items.append((heading, intro, text))
        if text.endswith(":"):
            intro, intro_at, intro_heading = text, indent + listed, heading
    return items


def _blocks(policy: str) -> list[tuple[str, int, bool, str]]:
    """(heading, indentation, is a list item, text) for each list item or paragraph."""
    blocks: list[tuple[str, int, bool, str]] = []
    heading, indent, listed = "", 0, False
    lines: list[str] = []
    for line in [*policy.splitlines(), ""]:
        text = line.strip()
        marker = _ITEM.match(text)
        if (text.startswith("#") or not text or marker) and lines:
            blocks.append((heading, indent, listed, " ".join(lines).replace("**", "").replace("`", "")))
            lines = []
        if text.startswith("#"):
            heading = text.lstrip("#").strip()
        elif text:
            if not lines:
                indent, listed = len(line) - len(line.lstrip()), marker is not None
            lines.append(text[marker.end() :] if marker else text)
    return blocks


def reasons(
    policy_rules: list[Rule],
    kind: str,
    objects: frozenset[str],
    tool_words: set[str],
    vocabulary: set[str],
    instruction: str,
) -> list[str]:
    """Phrases of the rules that most likely forbid a request of `kind` about `objects` done by a
    tool named by `tool_words` (stems; `vocabulary`: the stems of all the domain's tool names, too
    general to stand alone); empty when no rule is about it."""
    weights = _weights(policy_rules, objects - vocabulary)
    scored = [(_score(rule, kind, weights, tool_words), n, rule) for n, rule in enumerate(policy_rules)]
    scored = [item for item in scored if item[0] > 0]
    if not scored:
        return []
    best = max(score for score, _, _ in scored)
    close = (item for item in scored if item[0] >= best - WINDOW)
    chosen = sorted(close, key=lambda item: (-item[0], not item[2].strong, item[1]))
    said = stems(instruction) - vocabulary
    generic = tool_words | {stem(w) for w in ("policy", "reservation", "order", "account", "request")}
    ranked: list[tuple[bool, int, int, int, str]] = []
    found = [(score, _phrases(rule.text, generic, objects - vocabulary)) for score, _, rule in chosen]
    for order, (score, phrases) in enumerate([item for item in found if item[1]][:MAX_RULES]):
        top = score >= best - 1  # the best rules' phrases first, the instruction's own words among them
        for position, phrase in enumerate(phrases):
            ranked.append((not top, -bool(stems(phrase) & said), position, order, phrase))
    # then each rule's first phrase, its second, …
    kept: list[str] = []
    for *_, phrase in sorted(ranked):
        if not any(stems(phrase) & stems(other) - vocabulary for other in kept):
            kept.append(phrase)
    if not kept:  # a rule of single words ("only if their status is …"): its plainest word
        plain = [w for w in words(chosen[0][2].text) if w not in _FUNCTION_WORDS and len(w) >= 4]
        kept = [w for w in plain if not _generic(w, generic | vocabulary) and not _verb(w)][:1]
    return kept[:MAX_REASONS]


def _weights(policy_rules: list[Rule], objects: frozenset[str]) -> dict[str, int]:
    """A word of the request counts 3 when few rules use it ("insurance"), else 1 ("flight")."""
    uses = {word: sum(word in stems(r.text) or word in r.context for r in policy_rules) for word in objects}
    return {word: 1 + 2 * (count * RARE <= len(policy_rules)) for word, count in uses.items()}


def _score(rule: Rule, kind: str, weights: dict[str, int], tool_words: set[str]) -> int:
    own = stems(rule.text)
    about = 3 * (kind in actions(rule.text) | rule.lead_kinds) + 2 * (kind in rule.context_kinds)
    if not about:
        return 0
    shared = sum(weight * ((word in own) + (word in rule.context)) for word, weight in weights.items())
    shared += len(tool_words & own) + len(tool_words & rule.context)
    return about + shared + 3 * rule.strong


def _phrases(sentence: str, generic: set[str], wanted: frozenset[str]) -> list[str]:
    """The sentence's runs of content words, trimmed of generic words at their ends."""
    runs: list[list[str]] = [[]]
    for token in _RUN.findall(sentence):
        word = token.lower().strip("'’")
        if not word or (not word[0].isalnum() and word[0] not in "$%") or word in _FUNCTION_WORDS:
            runs.append([])
        else:
            runs[-1].append(word)
    found = []
    for run in runs:
        while run and (_generic(run[0], generic) or (_verb(run[0]) and not run[0].endswith("ed"))):
            run = run[1:]
        while run and (_generic(run[-1], generic) or _verb(run[-1])):
            run = run[:-1]
        if any(c.isdigit() for c in " ".join(run)) and not _measure(run):
            continue
        if 2 <= len(run) <= 3 or (len(run) == 1 and stem(run[0]) in wanted):
            found.append(" ".join(run))
    return found


def _content(text: str) -> set[str]:
    return {stem(w) for w in words(text) if w not in _FUNCTION_WORDS}


def _generic(word: str, generic: set[str]) -> bool:
    return stem(word) in generic or bool(actions(word))


def _verb(word: str) -> bool:
    """A word that can only be a verb ("enables", "taken"): no phrase starts or ends with one."""
    return set(lemminflect.getAllLemmas(word)) == {"VERB"}


def _measure(run: list[str]) -> bool:
    """A number and what it counts ("24 hours", "50 dollars"): nothing else holds a digit."""
    return (
        len(run) >= 2
        and any(c.isdigit() for c in run[0])
        and not any(c.isdigit() for w in run[1:] for c in w)
        and all({"NOUN"} <= set(lemminflect.getAllLemmas(w)) <= {"NOUN", "VERB"} for w in run[1:])
    )
