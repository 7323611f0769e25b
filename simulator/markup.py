"""An agent message as plain text: markdown and layout read as a person reads them.

Agents write markdown: emphasis, headers, bullets, numbered lists, code spans. The message is parsed
with markdown-it-py (CommonMark) and each block becomes one line of plain text: a paragraph, a
heading, a list item. A list that follows a line ending in a colon belongs to that line ("Could you
provide: 1. your email 2. your zip code" is one request for two facts; "I made these changes: 1. …"
one report), unless its items are questions of their own ("1. Which order? 2. Which item?"), which
stay separate lines. Sentences are then cut at `.`, `?` or `!` followed by a space or a capital
letter (a bold `**…?**` glued to the next sentence), and at line ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from taue.simulator.phrases import APPROVES_BACK

_PARSER = MarkdownIt("commonmark")
_MARKDOWN_HINT = re.compile(r"[*_`#>|]|^\s*(?:[-+]|\d+[.)])\s", re.MULTILINE)
_LEFTOVER_EMPHASIS = re.compile(r"\*{1,3}|(?<!\w)_{1,3}|_{1,3}(?!\w)")
"""Emphasis markers CommonMark leaves as text (`**Proceed?**Please` is not right-flanking)."""
_SENTENCE_BREAK = re.compile(
    r"(?<=[.?!])(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bSt\.)(?<!\b[A-Z]\.)\s+(?!\()"
    r"(?<!!\s(?=or |and ))"
    r"|(?<=[.?!][\"'”’])\s+(?=[A-Z])|(?<=[?!])(?=[A-Z])|(?<=[a-z]{3}\.)(?=[A-Z][a-z]|\d)|\n+"
)
"""Sentence ends; a bracket after the end stays with its sentence ("Cancel ABC123? (yes/no)"), an
initial ("Adam E. Pollock") ends nothing, nor does a title's "!" before "or" ("Shazam! or Dumbo"),
and a typed-together end does ("was made.Their number", "is booked.555-0100 is their number")."""
LIST_JOIN = "; "


@dataclass(frozen=True)
class Block:
    text: str
    item: bool = False
    """A list item (bullet or number)."""
    depth: int = 0
    """How deep the list item is nested (1: a top-level item)."""


_LAZY_QUESTION = re.compile(
    r"\s*\n(?=(?:please|shall|should|would|could|can|do|does|is|are|let me know|which|what|how|when)\b)",
    re.IGNORECASE,
)
"""A closing line written right under a list ("- … \nShall I go ahead?") is, in CommonMark, a lazy
continuation of the last item; a reader sees the question on its own line."""


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _inline_text(token: Token) -> str:
    parts: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
        elif child.type == "image":
            parts.append(child.content)
    return _LEFTOVER_EMPHASIS.sub("", "".join(parts)).strip()


def _blocks(message: str) -> list[Block]:
    blocks: list[Block] = []
    depth = 0
    for token in _PARSER.parse(message):
        if token.type == "list_item_open":
            depth += 1
        elif token.type == "list_item_close":
            depth -= 1
        elif token.type == "inline":
            text = _inline_text(token)
            if not text:
                continue
            own, *after = _LAZY_QUESTION.split(text, maxsplit=1) if depth > 0 else [text]
            blocks.append(Block(_one_line(own), item=depth > 0, depth=depth))
            blocks.extend(Block(_one_line(rest)) for rest in after if rest.strip())
        elif token.type in ("fence", "code_block") and token.content.strip():
            blocks.append(Block(token.content.strip(), item=depth > 0, depth=depth))
    return blocks


_BACK_REFERENCE = re.compile(r"\b(these|those|them|the above|the following|this information|both)\b", re.I)


def _joined(blocks: list[Block]) -> list[str]:
    """Lines: list items after an introducing line that ends in a colon are joined to it, and so are
    items before a question that points back at them ("1. … 2. … Could you provide these?")."""
    lines: list[str] = []
    index = 0
    blocks = _with_back_references(blocks)
    while index < len(blocks):
        block = blocks[index]
        index += 1
        if not block.text.rstrip().endswith(":"):
            lines.append(block.text)
            continue
        items: list[str] = []
        top: list[str] = []  # the items of the list itself (not of lists nested in them)
        first = blocks[index].depth if index < len(blocks) else 0
        while index < len(blocks) and blocks[index].item:
            items.append(blocks[index].text.rstrip(" ;,"))
            if blocks[index].depth == first:
                top.append(blocks[index].text.strip())
            index += 1
        if items and not all(item.endswith("?") for item in items) and not all(map(_is_data, top)):
            last = re.split(r"(?<=[.?!])\s+", block.text.strip())[-1]
            closing = "?" if _ASKING.search(last) else "."
            lines.append(f"{block.text} {LIST_JOIN.join(i.rstrip('.?') for i in items)}{closing}")
        else:
            lines.extend([block.text, *items])
    return lines


def _is_data(item: str) -> bool:
    """ "Order ID: #W123", "Refund method: PayPal", "Items to be returned:" (over a list of its own): a list
    item that reads data back (a line of its own), not a thing asked for ("Your email")."""
    return bool(_DATA.search(item)) or item.endswith(":")


_DATA = re.compile(r"^[^:]{1,40}:\s*\S|\([^)]*:\s*\S[^)]*\)|\s[-–—]\s")


def _with_back_references(blocks: list[Block]) -> list[Block]:
    merged: list[Block] = []
    for block in blocks:
        items: list[Block] = []
        while (
            merged and merged[-1].item and not merged[-1].text.endswith("?") and not _is_data(merged[-1].text)
        ):
            items.insert(0, merged.pop())
        asks = block.text.endswith("?") or _ASKING.search(block.text)
        approves = APPROVES_BACK.search(
            block.text.lower()
        )  # "Shall I proceed with these?" asks for nothing listed
        if items and not block.item and asks and not approves and _BACK_REFERENCE.search(block.text):
            listed = LIST_JOIN.join(i.text.rstrip(".") for i in items)
            merged.append(Block(f"{block.text.rstrip('.?!')}: {listed}?"))
        else:
            merged.extend([*items, block])
    return merged


_ASKING = re.compile(
    r"\b(could you|can you|would you|will you|may i|please|provide|i need|i'll need|i will need|share|"
    r"send me|tell me|let me know|confirm the following)\b",
    re.IGNORECASE,
)
"""An introducing line that asks: its list is what it asks for."""


@lru_cache(maxsize=4096)
def plain_lines(message: str) -> tuple[str, ...]:
    """The message as plain lines (cached: the same message is read several times per turn)."""
    if not _MARKDOWN_HINT.search(message):
        return tuple(line.strip() for line in message.splitlines() if line.strip())
    return tuple(_joined(_blocks(message)))


@lru_cache(maxsize=1024)
def _cached_blocks(message: str) -> tuple[Block, ...]:
    return tuple(_blocks(message))


def blocks_of(message: str) -> list[Block]:
    """The message's lines and list items, as parsed (list items keep their depth)."""
    if not _MARKDOWN_HINT.search(message):
        return [Block(line.strip()) for line in message.splitlines() if line.strip()]
    return list(_cached_blocks(message))


def plain_text(message: str) -> str:
    return "\n".join(plain_lines(message))


def sentences(message: str) -> list[str]:
    """The message's sentences, markdown read as text."""
    return [
        part.strip()
        for line in plain_lines(message)
        for part in _SENTENCE_BREAK.split(line)
        if part and part.strip()
    ]
