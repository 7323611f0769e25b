"""`taue verify`: check that every record of a run holds what the servers observed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from taue.cli.options import KEY_FILE_HELP, fail, parse_location, signing_key, stdout_console

VERIFY_HELP = (
    "Check every record of a run: both signatures (given the key), the digests of its tool log, "
    "transcript and expected outcome, its reward recomputed from them and its final state hash, the "
    "task-set hash recomputed from the tasks the run names, and every planned (task, trial) present "
    "once. Exit 1 naming every bad record, 2 when the path is not a run."
)


def register(app: typer.Typer) -> None:
    app.command("verify", help=VERIFY_HELP)(verify)


def verify(
    run_dir: Annotated[str, typer.Argument(help="A run directory or an object-store URL.")],
    key_file: Annotated[Path | None, typer.Option(help=KEY_FILE_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the findings as a JSON object.")] = False,
) -> None:
    from taue.runner.storage import StorageError
    from taue.runner.verify import VerifyError, verify_run

    key = signing_key(key_file)
    try:
        found = verify_run(parse_location(run_dir), key)
    except (VerifyError, StorageError) as exc:
        raise fail(str(exc)) from None
    if as_json:
        typer.echo(found.model_dump_json(indent=2))
    else:
        console = stdout_console()
        for line in found.lines():
            console.print(line, markup=False, highlight=False)
        console.print(_verdict(found), markup=False, highlight=False)
    if not found.ok:
        raise typer.Exit(1)


def _verdict(found) -> str:
    signatures = (
        f"signatures checked with key {found.key_id}"
        if found.signatures_checked
        else "signatures not checked (no key: give --key-file or set TAUE_SIGNING_KEY)"
    )
    if found.ok:
        return f"ok: {found.records} of {found.planned} planned records verified; {signatures}"
    bad = len(found.bad_records)
    return (
        f"FAILED: {bad} bad records, {len(found.missing)} missing, {len(found.duplicates)} duplicated, "
        f"{len(found.unexpected)} unplanned of {found.records} records; {signatures}"
    )
