"""`taue emotion ...`: the emotion taxonomy, the anchor instructions and the feeling classifier."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from taue.cli.options import fail, stdout_console

if TYPE_CHECKING:
    from taue.simulator.anchors import Anchor

emotion_app = typer.Typer(
    help="The emotion taxonomy: 22 emotions x politeness x urgency x trust.", no_args_is_help=True
)
anchors_app = typer.Typer(
    help="Anchor instructions: 10 per condition. Without a subcommand, print them.",
    invoke_without_command=True,
)
emotion_app.add_typer(anchors_app, name="anchors")
console = Console(stderr=True, soft_wrap=True)
PARAPHRASE_KEY_ENV = "TAUE_PARAPHRASE_API_KEY"


ROUTE_HELP = "Features: auto | onnx | tfidf."
"""Written out so that `taue --help` does not load the classifier; a test compares it with `ROUTES`."""


def register(app: typer.Typer) -> None:
    app.add_typer(emotion_app, name="emotion")


_fail = fail


def _check_condition(condition_id: str) -> None:
    from taue.contracts.emotions import BY_ID, CONDITIONS

    if condition_id not in BY_ID:
        raise _fail(
            f"unknown condition {condition_id!r}; ids look like {CONDITIONS[0].id!r} (taue emotion list)"
        )


def _check_route(route: str) -> str:
    from taue.simulator.classifier import ClassifierUnavailable, resolve_route

    try:
        return resolve_route(route)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    except ClassifierUnavailable as exc:
        raise _fail(str(exc)) from None


@emotion_app.command("list")
def emotion_list(as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False) -> None:
    """All 594 emotion conditions with their stable ids."""
    from taue.contracts.emotions import CONDITIONS

    rows = [{"id": c.id, **c.model_dump()} for c in CONDITIONS]
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        typer.echo(f"{row['id']:45} {row['family']}")


@anchors_app.callback()
def anchors_show(
    ctx: typer.Context,
    condition: Annotated[
        str | None, typer.Option(help="Only this condition id (see taue emotion list).")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a JSON list of {condition, index, text}.")
    ] = False,
) -> None:
    """Print the committed anchor instructions (all 5,940, or one condition's 10)."""
    from taue.simulator.anchors import load_anchors

    if ctx.invoked_subcommand is not None:
        return
    if condition is not None:
        _check_condition(condition)
    rows = [a for a in load_anchors() if condition is None or a.condition == condition]
    if as_json:
        typer.echo(json.dumps([a.model_dump() for a in rows], indent=2, ensure_ascii=False))
        return
    for a in rows:
        typer.echo(f"{a.condition} #{a.index}: {a.text}")


@anchors_app.command("generate")
def anchors_generate(
    out: Annotated[
        Path | None,
        typer.Option(help="Where to write (default: simulator/anchors/anchors.json, the committed file)."),
    ] = None,
    condition: Annotated[
        list[str] | None,
        typer.Option(help="Only this condition (repeatable; needs --out other than the committed file)."),
    ] = None,
    paraphrase_model: Annotated[
        str | None, typer.Option(help="Paraphrase every anchor with this model (needs --base-url).")
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(help=f"OpenAI-compatible endpoint for --paraphrase-model (key: {PARAPHRASE_KEY_ENV})."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed sent with every paraphrase request.")] = 0,
    concurrency: Annotated[int, typer.Option(min=1, max=256, help="Paraphrase requests in flight.")] = 8,
) -> None:
    """Rebuild the anchors from the phrase bank (deterministic), optionally paraphrased by a model."""
    from taue.simulator.anchors import ANCHORS_PATH, generate_anchors, write_anchors

    if (paraphrase_model is None) != (base_url is None):
        raise _fail("--paraphrase-model and --base-url go together")
    for condition_id in condition or []:
        _check_condition(condition_id)
    out = out or ANCHORS_PATH
    if condition and out.resolve() == ANCHORS_PATH:
        raise _fail("--condition writes a subset: give --out PATH (the committed file holds every condition)")
    from taue.contracts.emotions import CONDITIONS

    chosen = [c for c in CONDITIONS if not condition or c.id in condition]
    anchors = generate_anchors(chosen)
    if paraphrase_model and base_url:
        anchors = _paraphrase(anchors, paraphrase_model, base_url, seed, concurrency)
    write_anchors(anchors, out)
    console.print(f"{len(anchors)} anchors for {len(chosen)} conditions -> {out}")


def _paraphrase(
    anchors: list[Anchor], model: str, base_url: str, seed: int, concurrency: int
) -> list[Anchor]:
    import asyncio

    import openai

    from taue.simulator.anchors.paraphrase import paraphrase_anchors

    api_key = os.environ.get(PARAPHRASE_KEY_ENV, "EMPTY")
    try:
        result = asyncio.run(paraphrase_anchors(anchors, model, base_url, api_key, seed, concurrency))
    except openai.APIError as exc:
        raise _fail(f"paraphrase endpoint {base_url} failed: {exc}", code=1) from None
    console.print(f"paraphrased {result.rewritten}, kept {result.kept} phrase-bank texts (unusable rewrites)")
    return result.anchors


@emotion_app.command("classify")
def emotion_classify(
    text: Annotated[str, typer.Argument(help='A free-text feeling, e.g. "I\'m scared and need it today".')],
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print {condition, family, emotion, politeness, urgency, trust, ...}."),
    ] = False,
    route: Annotated[str, typer.Option(help=ROUTE_HELP)] = "auto",
) -> None:
    """Map a feeling to the most likely of the 594 conditions, with each head's probabilities."""
    if not text.strip():
        raise _fail("the feeling text is empty")
    from taue.simulator.classifier import classify

    result = classify(text, _check_route(route))
    if as_json:
        typer.echo(json.dumps(result.model_dump(), indent=2))
        return
    typer.echo(f"{result.condition}  (family {result.family}, route {result.route})")
    for head, probs in result.probabilities.items():
        top = sorted(probs.items(), key=lambda kv: -kv[1])[:3]
        typer.echo(f"  {head:11} " + "  ".join(f"{label} {p:.2f}" for label, p in top))


@emotion_app.command("evaluate")
def emotion_evaluate(
    route: Annotated[str, typer.Option(help=ROUTE_HELP)] = "auto",
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Held-out accuracy per head: train on anchors 0-7, test on 8-9 and on the hand-written feelings."""
    from taue.simulator.classifier.evaluate import evaluate

    report = evaluate(_check_route(route))
    if as_json:
        typer.echo(json.dumps(report.model_dump(), indent=2))
        return
    table = Table(title=f"feeling classifier, route {report.route} (train: {report.train_anchors} anchors)")
    columns = ["head", "chance", f"anchors 8-9 (n={report.test_anchors})", f"feelings (n={report.feelings})"]
    for column in [*columns, f"indirect feelings (n={report.feelings_indirect})"]:
        table.add_column(column, justify="left" if column == "head" else "right")
    for s in report.heads:
        scores = (s.chance, s.anchors_8_9, s.feelings, s.feelings_indirect)
        table.add_row(s.head, *(f"{x:.1%}" for x in scores))
    stdout_console().print(table)
