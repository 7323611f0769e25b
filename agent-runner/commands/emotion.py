"""`taue emotion ...`: the emotion taxonomy."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from simulator.taxonomy import CONDITIONS

emotion_app = typer.Typer(
    help="The emotion taxonomy: 22 emotions x politeness x urgency x trust.", no_args_is_help=True
)


def register(app: typer.Typer) -> None:
    app.add_typer(emotion_app, name="emotion")


@emotion_app.command("list")
def emotion_list(as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False) -> None:
    """All 594 emotion conditions with their stable ids."""
    rows = [{"id": c.id, **c.model_dump()} for c in CONDITIONS]
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        typer.echo(f"{row['id']:45} {row['family']}")
