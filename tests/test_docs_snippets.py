"""The docs' ```bash blocks name only `taue` commands and flags that exist (what each command's --help
lists: its click parameters), and the ports the docs give `taue serve env|simulator|scorer` (in bash
blocks and in inline code) are the CLI's defaults."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

import pytest
import typer

from taue.cli import app
from tests.paths import ROOT

DOCS = sorted((ROOT / "docs").glob("*.md"))
BASH_BLOCK = re.compile(r"^```(?:bash|sh|shell|console)\n(.*?)^```", re.DOTALL | re.MULTILINE)
SEPARATORS = {"&&", "||", "|", ";", "&", "(", ")", "then", "do", "$("}
SERVE_PORTS = {
    ("serve", "env"): ("--mcp-port", "--control-port"),
    ("serve", "simulator"): ("--port",),
    ("serve", "scorer"): ("--port",),
}


@dataclass(frozen=True)
class Invocation:
    doc: str
    line: int
    words: list[str]

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}: taue {' '.join(self.words)}"


def _commands(script: str) -> list[tuple[int, list[str]]]:
    """(line offset, words) of every command of a bash block; continuations joined, comments dropped."""
    found, offset = [], 0
    for logical in re.split(r"(?<!\\)\n", script):
        line = offset
        offset += logical.count("\n") + 1
        text = re.sub(r"\\\n", " ", logical)
        text = re.sub(r"\$\(", " $( ", text).replace("`", " ")
        try:
            lexer = shlex.shlex(text, posix=True, punctuation_chars="|&;()")
            lexer.whitespace_split, lexer.commenters = True, "#"
            words = list(lexer)
        except ValueError:  # unbalanced quotes in a sketch: skip the line, not the block
            continue
        current: list[str] = []
        for word in [*words, ";"]:
            if word in SEPARATORS or set(word) <= set("|&;()"):
                found.append((line, current))
                current = []
            else:
                current.append(word)
    return [(line, words) for line, words in found if words]


def invocations() -> list[Invocation]:
    calls = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for block in BASH_BLOCK.finditer(text):
            first_line = text[: block.start(1)].count("\n") + 1
            for line, words in _commands(block.group(1)):
                while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", words[0]):  # VAR=value taue ...
                    words = words[1:]
                for position, word in enumerate(words[:1]):
                    if word in ("taue", ".venv/bin/taue"):
                        calls.append(Invocation(doc.name, first_line + line, words[position + 1 :]))
    return calls


def inline_serve_commands() -> list[Invocation]:
    """`taue serve env|simulator|scorer ...` in the docs' inline code (tables, prose)."""
    calls = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for span in re.finditer(r"`taue (serve (?:env|simulator|scorer)(?=[ `])[^`]*)`", text):
            words = [w for w in span.group(1).replace("[", " ").replace("]", " ").split() if w != "|"]
            calls.append(Invocation(doc.name, text[: span.start()].count("\n") + 1, words))
    return calls


INVOCATIONS = invocations()
SERVE_SPANS = inline_serve_commands()
ROOT_COMMAND = typer.main.get_command(app)


def resolve(words: list[str]) -> tuple[list[str], Any, list[str]]:
    """The subcommand path the words name, its click command, and the words after it."""
    command: Any = ROOT_COMMAND
    path: list[str] = []
    rest = list(words)
    while hasattr(command, "commands") and rest and not rest[0].startswith("-"):  # a group
        sub = command.commands.get(rest[0])
        if sub is None:
            raise LookupError(f"no command `taue {' '.join([*path, rest[0]])}`")
        command, path, rest = sub, [*path, rest.pop(0)], rest
    return path, command, rest


def flags_of(command: Any) -> set[str]:
    names = {"--help"}
    for param in command.params:
        names.update(o for o in [*param.opts, *param.secondary_opts] if o.startswith("--"))
    return names


def test_the_docs_have_taue_commands_to_check() -> None:
    assert len(INVOCATIONS) > 50
    assert {tuple(resolve(call.words)[0][:2]) for call in SERVE_SPANS} >= set(SERVE_PORTS)


@pytest.mark.parametrize("call", INVOCATIONS, ids=str)
def test_each_documented_command_and_flag_exists(call: Invocation) -> None:
    try:
        path, command, rest = resolve(call.words)
    except LookupError as exc:
        pytest.fail(f"{call}: {exc}")
    assert path, f"{call}: names no subcommand"
    unknown = [
        w.split("=")[0] for w in rest if w.startswith("--") and w.split("=")[0] not in flags_of(command)
    ]
    assert not unknown, f"{call}: `taue {' '.join(path)}` has no {', '.join(unknown)}"


def _default(command: Any, flag: str) -> object:
    return next(param.default for param in command.params if flag in param.opts)


def test_the_serve_ports_in_the_docs_are_the_defaults() -> None:
    wrong = []
    for call in [*INVOCATIONS, *SERVE_SPANS]:
        path, command, rest = resolve(call.words)
        for flag in SERVE_PORTS.get(tuple(path), ()):
            for index, word in enumerate(rest):
                given = word.split("=", 1)[1] if word.startswith(f"{flag}=") else None
                if word == flag and index + 1 < len(rest):
                    given = rest[index + 1]
                if given is not None and given.isdigit() and int(given) != _default(command, flag):
                    wrong.append(f"{call}: {flag} {given}, default {_default(command, flag)}")
    assert not wrong, "\n".join(wrong)


def test_the_port_table_of_the_services_page_matches_the_defaults() -> None:
    table = (ROOT / "docs" / "services.md").read_text(encoding="utf-8")
    for path, flags in SERVE_PORTS.items():
        command = resolve(list(path))[1]
        row = next(line for line in table.splitlines() if f"`taue {' '.join(path)} " in line)
        assert all(f"{flag} {_default(command, flag)}" in row for flag in flags), row
