"""Words of the same and of the opposite meaning, from WordNet, for reading a rule said in other words.

A refusal states the policy's rule in its own words: "the biggest table" for "the largest table",
"the visit was finished" for "completed", "the pass is inactive" for "not active". Hand lists of
synonyms per task would only learn the phrasings someone thought of; WordNet (Princeton's lexical
database) says which words share a sense. `synonyms.json` holds, for every word the rules are written
in (the content words of every domain's policy and of every task's refusal reasons), the words of its
commonest senses (`SENSES` per part of speech: a rare sense of a word is not what a rule means by it):

- `same`: the other words of those senses, and for an adjective the words of the senses WordNet calls
  similar ("old" ~ "aged", "enough" ~ "sufficient");
- `opposite`: the antonyms of those senses' words ("active" -> "inactive", "enough" -> "insufficient"),
  which state the word negated: "inactive" says "not active".

A verb's form reads only its verb's senses ("completed" is "finished", never the adjective "complete"
that is also "full"), and stop words, light verbs, particles and the verbs a refusal frames its rule
with ("our rules say") are no synonyms: each says nothing alone.

The table is built offline, so the scripted user reads the same way on every machine and needs no
download at run time: install Debian's `wordnet-base` (or any WordNet 3.0 `dict` folder) and run
`python -m taue.simulator.synonyms /usr/share/wordnet` from the repository root after changing a
policy or a task's refusal reasons (`tests/simulator/test_refusals_meaning.py` checks the table covers
them). WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved; used under the
WordNet 3.0 license (`WORDNET_LICENSE`, also written into the table).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from taue.simulator.facts import STOP_WORDS
from taue.simulator.lexicon import LIGHT_VERBS, is_past_form, lemma

TABLE = Path(__file__).with_name("synonyms.json")
SENSES = 2
"""Senses read per part of speech, commonest first (WordNet orders a word's senses by frequency)."""
PARTS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
_WORD = re.compile(r"[a-z]+")
WORDNET_LICENSE = (
    "WordNet Release 3.0. This software and database is being provided to you, the LICENSEE, by "
    "Princeton University under the following license. By obtaining, using and/or copying this software "
    "and database, you agree that you have read, understood, and will comply with these terms and "
    "conditions.: Permission to use, copy, modify and distribute this software and database and its "
    "documentation for any purpose and without fee or royalty is hereby granted, provided that you agree "
    "to comply with the following copyright notice and statements, including the disclaimer, and that "
    "the same appear on ALL copies of the software, database and documentation, including modifications "
    "that you make for internal use or for distribution. WordNet 3.0 Copyright 2006 by Princeton "
    'University. All rights reserved. THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON '
    "UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT "
    "LIMITATION, PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANT- ABILITY OR "
    "FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE LICENSED SOFTWARE, DATABASE OR "
    "DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS. "
    "The name of Princeton University or Princeton may not be used in advertising or publicity "
    "pertaining to distribution of the software and/or database. Title to copyright in this software, "
    "database and any associated documentation shall at all times remain with Princeton University and "
    "LICENSEE agrees to preserve same."
)
"""WordNet's license, written into the table it is derived from (the license asks it on every copy)."""


@dataclass(frozen=True)
class Meanings:
    """What a word of a rule may be said as: words of the same meaning, and of the opposite one."""

    same: frozenset[str]
    opposite: frozenset[str]


NOTHING = Meanings(frozenset(), frozenset())


@lru_cache(maxsize=1)
def stored() -> dict[str, Any]:
    """The table as written: its source, the words it checked (`checked`) and its `words`."""
    if not TABLE.is_file():
        return {"checked": [], "words": {}}
    table: dict[str, Any] = json.loads(TABLE.read_text())
    return table


@lru_cache(maxsize=65536)
def meanings(word: str) -> Meanings:
    """The words that say `word` (a lemma) in other words, and those that say it negated; nothing for
    a word the table does not hold (it is then read by its forms only)."""
    entry = stored()["words"].get(word.lower())
    if entry is None:
        return NOTHING
    return Meanings(frozenset(entry.get("same", ())), frozenset(entry.get("opposite", ())))


# ----------------------------------------------------------------- building the table from WordNet


@dataclass(frozen=True)
class Synset:
    """One WordNet sense: its words, and its pointers as (symbol, part, offset, source, target)."""

    words: tuple[str, ...]
    pointers: tuple[tuple[str, str, str, int, int], ...]


class WordNet:
    """The few parts of a WordNet 3.0 `dict` folder the table needs, read from its plain-text files."""

    def __init__(self, folder: Path, senses: int = SENSES) -> None:
        self.limit = senses
        self.synsets: dict[tuple[str, str], Synset] = {}
        self.senses: dict[tuple[str, str], list[str]] = {}
        for name, part in PARTS.items():
            self._read_data(folder / f"data.{name}", part)
            self._read_index(folder / f"index.{name}", part)

    def _read_data(self, path: Path, part: str) -> None:
        for line in path.read_text(encoding="latin-1").splitlines():
            if line and not line.startswith(" "):
                offset, synset = _parse_synset(line)
                self.synsets[(part, offset)] = synset

    def _read_index(self, path: Path, part: str) -> None:
        for line in path.read_text(encoding="latin-1").splitlines():
            if not line or line.startswith(" "):
                continue
            fields = line.split()
            pointer_count = int(fields[3])
            self.senses[(fields[0], part)] = fields[6 + pointer_count :]

    def commonest(self, word: str, parts: Iterable[str] = PARTS.values()) -> Iterator[tuple[str, Synset]]:
        """The word's commonest senses (`SENSES` of them) of each part of speech (of `parts`)."""
        for part in parts:
            for offset in self.senses.get((word, part), [])[: self.limit]:
                yield part, self.synsets[(part, offset)]

    def meanings(self, word: str, parts: Iterable[str] = PARTS.values()) -> Meanings:
        """The words of the word's commonest senses (and of an adjective's similar senses), and the
        antonyms of any of them ("enough" shares a sense with "sufficient": "insufficient")."""
        same: set[str] = set()
        opposite: set[str] = set()
        for part, synset in self.commonest(word, parts):
            same.update(synset.words)
            for symbol, target_part, offset, _source, target in synset.pointers:
                words = self.synsets[(target_part, offset)].words
                if symbol == "&" and part == "a":
                    same.update(words)  # an adjective's similar senses: "old" ~ "aged"
                elif symbol == "!":
                    opposite.add(words[target - 1])
        return Meanings(_telling(same - {word}), _telling(opposite))


FRAMING = frozenset(("say", "tell", "but"))
"""Verbs a refusal frames its rule with ("our rules say: …"); WordNet has them in a sense of "order"."""
PARTICLES = frozenset(
    ("off", "on", "up", "out", "in", "down", "over", "by", "away", "back", "about", "along")
)
"""Particles WordNet lists as words of a sense ("off" for "kill"): alone they say nothing."""


def _telling(words: Iterable[str]) -> frozenset[str]:
    """Words that can say a rule's word alone: single words, none of them a stop word, a particle or
    a light verb ("make" is in a sense of "prepare" and of "hold", and says neither)."""
    return frozenset(
        w
        for w in words
        if w.isalpha() and w not in STOP_WORDS | LIGHT_VERBS | PARTICLES | FRAMING and len(w) > 2
    )


def _parse_synset(line: str) -> tuple[str, Synset]:
    fields = line.split(" | ")[0].split()
    count = int(fields[3], 16)
    words = tuple(re.sub(r"\(.*\)$", "", fields[4 + 2 * i]).lower() for i in range(count))
    at = 4 + 2 * count
    pointers = []
    for _ in range(int(fields[at])):
        symbol, offset, part, ends = fields[at + 1 : at + 5]
        pointers.append((symbol, "a" if part == "s" else part, offset, int(ends[:2], 16), int(ends[2:], 16)))
        at += 4
    return fields[0], Synset(words, tuple(pointers))


def rule_vocabulary(root: Path) -> set[str]:
    """The words the rules are written in: every domain's and task set's policy, and every task's
    refusal reasons (read as plain JSON: the simulator imports no environment)."""
    policies = ("envs/*/policy.md", "task-sets/*/policy.md")
    texts = [path.read_text() for pattern in policies for path in root.glob(pattern)]
    for pattern in ("envs/*/tasks.json", "envs/*/train.json", "task-sets/*/tasks.json"):
        for path in root.glob(pattern):
            texts.extend(reasons_in(json.loads(path.read_text())))
    return {word for text in texts for word in _WORD.findall(text.lower()) if len(word) > 1}


def reasons_in(data: object) -> Iterator[str]:
    """Every `refusal_reason` phrase in a task file's JSON, however deep."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "refusal_reason" and isinstance(value, list):
                yield from (str(v) for v in value)
            else:
                yield from reasons_in(value)
    elif isinstance(data, list):
        for item in data:
            yield from reasons_in(item)


def build(wordnet: WordNet, vocabulary: Iterable[str]) -> dict[str, dict[str, list[str]]]:
    """The table: each word of the vocabulary, and its lemma, with the words that say it."""
    table: dict[str, dict[str, list[str]]] = {}
    for word in sorted({form for w in vocabulary for form in (w, lemma(w))}):
        found = _as_written(wordnet, word)
        if found.same or found.opposite:
            table[word] = {"same": sorted(found.same), "opposite": sorted(found.opposite)}
    return table


def _as_written(wordnet: WordNet, word: str) -> Meanings:
    """A word's own senses and its lemma's; a verb's form takes only the verb's senses of its lemma
    ("completed" is "finished", never the adjective "complete" that is also "full")."""
    base = lemma(word)
    if base == word:
        return wordnet.meanings(word)
    verb_form = is_past_form(word) or word.endswith("ing")
    own, of_base = wordnet.meanings(word), wordnet.meanings(base, ("v",) if verb_form else PARTS.values())
    return Meanings(own.same | of_base.same, own.opposite | of_base.opposite)


def main(argv: list[str]) -> None:
    """`python -m taue.simulator.synonyms WORDNET_DICT [REPO_ROOT]`: writes `synonyms.json`."""
    folder = Path(argv[0]) if argv else Path("/usr/share/wordnet")
    root = Path(argv[1]) if len(argv) > 1 else Path.cwd()
    vocabulary = rule_vocabulary(root)
    table = build(WordNet(folder), vocabulary)
    source = {
        "source": "WordNet 3.0 (Princeton University), commonest senses",
        "license": WORDNET_LICENSE,
        "senses": SENSES,
    }
    written = {**source, "checked": sorted(vocabulary), "words": table}
    TABLE.write_text(json.dumps(written, indent=0, sort_keys=True) + "\n")
    print(f"{len(table)} of {len(vocabulary)} words -> {TABLE}")


if __name__ == "__main__":
    main(sys.argv[1:])
