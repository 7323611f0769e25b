"""`taue verify`: check that every record of a run holds what the servers observed."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from taue.cli.options import KEY_FILE_HELP, fail, parse_location, signing_key, stdout_console

if TYPE_CHECKING:
    from taue.contracts.integrity import SigningKey
    from taue.runner.storage import RunLocation
    from taue.runner.verify import Verification

VERIFY_HELP = (
    "Check every record of a run: both signatures (given the key), the digests of its tool log, "
    "transcript and expected outcome, its reward recomputed from them and its final state hash, the "
    "task-set hash recomputed from the tasks the run names, and every planned (task, trial) present "
    "once. Exit 1 naming every bad record, 2 when the path is not a run."
)

VERIFY_KEY_HELP = KEY_FILE_HELP.replace(
    "without a key,",
    "else the run's own key in $TAUE_HOME/keys/<run id>.key (the embedded default's); without a key,",
)


def register(app: typer.Typer) -> None:
    app.command("verify", help=VERIFY_HELP)(verify)


def verify(
    run_dir: Annotated[str, typer.Argument(help="A run directory or an object-store URL.")],
    key_file: Annotated[Path | None, typer.Option(help=VERIFY_KEY_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the findings as a JSON object.")] = False,
) -> None:
    from taue.runner.storage import StorageError
    from taue.runner.verify import VerifyError, verify_run

    location = parse_location(run_dir)
    try:
        key, own = _key(location, key_file)
        found = verify_run(location, key)
    except (VerifyError, StorageError, ValueError) as exc:
        raise fail(str(exc)) from None
    if own is not None:
        found = found.model_copy(update={"key_file": str(own)})
    if as_json:
        typer.echo(found.model_dump_json(indent=2))
    else:
        console = stdout_console()
        for line in found.lines():
            console.print(line, markup=False, highlight=False)
        console.print(_verdict(found), markup=False, highlight=False)
    if not found.ok:
        raise typer.Exit(1)


def _key(location: RunLocation, key_file: Path | None) -> tuple[list[SigningKey], Path | None]:
    """`--key-file`, else the environment's key, else the run's own keys in `$TAUE_HOME/keys` (the
    embedded default's, which only its author holds; one per shard of a merged local run) with the
    first one's file."""
    from taue.contracts.integrity import SigningKey
    from taue.runner.verify import own_key_files

    key = signing_key(key_file)
    if key is not None or key_file is not None:
        return ([key] if key is not None else []), None
    own = own_key_files(location)
    return [SigningKey.from_file(path) for path in own], (own[0] if own else None)


def _verdict(found: Verification) -> str:
    ids = ", ".join(found.key_ids) or str(found.key_id)
    key = f"key {ids}" + (f" (the run's own, {found.key_file})" if found.key_file else "")
    signatures = (
        f"signatures checked with {key}"
        if found.signatures_checked
        else "signatures not checked (no key: give --key-file, set TAUE_SIGNING_KEY, or keep the run's "
        "own key in $TAUE_HOME/keys)"
    )
    if found.ok:
        return f"ok: {found.records} of {found.planned} planned records verified; {signatures}"
    bad = len(found.bad_records)
    return (
        f"FAILED: {bad} bad records, {len(found.missing)} missing, {len(found.duplicates)} duplicated, "
        f"{len(found.unexpected)} unplanned of {found.records} records; {signatures}"
    )
