"""The verification status every reader of a run shows (`taue summary`, `report`, `export`, `gate`):
`--key-file`, `--trusted-keys` and `--allow-unverified`, and the check that refuses a run that fails
verification (one line, exit 2) unless `--allow-unverified` (agent-runner/trust.py labels runs)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from taue.cli.options import KEY_FILE_HELP, console, fail, signing_key

if TYPE_CHECKING:
    from taue.contracts.run import VerificationStatus
    from taue.runner.storage import RunLocation
    from taue.runner.trust import KeyRing, RunTrust

TRUSTED_KEYS_VARIABLE = "TAUE_TRUSTED_KEYS"
"""`taue.runner.trust.TRUSTED_KEYS_VARIABLE`, written out so that `taue --help` need not import the
verifier (a test compares them)."""

READER_KEY_HELP = KEY_FILE_HELP.replace(
    "without a key,",
    "else the run's own key in $TAUE_HOME/keys/<run id>.key (not trusted: self-signed); without a key,",
)
TRUSTED_KEYS_HELP = (
    "Key ids (16 hex digits, as `taue verify` prints) separated by commas, or a file of them one a line, "
    "whose signatures label a run `signed` (default: the key of --key-file or $TAUE_SIGNING_KEY only)."
)
ALLOW_UNVERIFIED_HELP = "Read a run that fails verification (`taue verify`) anyway, marked UNVERIFIED."

KeyFile = Annotated[Path | None, typer.Option("--key-file", help=READER_KEY_HELP)]
TrustedKeys = Annotated[
    str | None, typer.Option("--trusted-keys", envvar=TRUSTED_KEYS_VARIABLE, help=TRUSTED_KEYS_HELP)
]
AllowUnverified = Annotated[bool, typer.Option("--allow-unverified", help=ALLOW_UNVERIFIED_HELP)]


def key_ring(key_file: Path | None, trusted_keys: str | None) -> KeyRing:
    """The reader's key ring: the key of `--key-file` (else the environment's), trusted, and the ids
    of `--trusted-keys`; a bad key or key id is a one-line error."""
    from taue.runner.trust import KeyRing, trusted_ids

    key = signing_key(key_file)
    try:
        trusted = trusted_ids(trusted_keys)
    except (OSError, ValueError) as exc:
        raise fail(str(exc)) from None
    return KeyRing.of([key] if key is not None else [], trusted)


def check_runs(
    locations: list[RunLocation], ring: KeyRing, allow_unverified: bool, command: str
) -> list[RunTrust]:
    """Each run's label; a run that fails verification is one line naming it and its first problem
    (exit 2) unless `allow_unverified`."""
    trusts = [labelled(location, ring) for location in locations]
    failing = [(location, trust) for location, trust in zip(locations, trusts, strict=True) if not trust.ok]
    if failing and not allow_unverified:
        location, trust = failing[0]
        more = f"; {len(failing) - 1} more runs fail too" if len(failing) > 1 else ""
        first = _one_line(trust.problems[0]).removeprefix(f"{location}: ")
        raise fail(
            f"{location} fails verification: {first}{more} (`taue verify {location}` lists them; "
            f"--allow-unverified {command} it anyway, marked UNVERIFIED)"
        )
    return [trust.trust for trust in trusts]


class _Labelled:
    """A run's `RunTrust`, and its problems (a run that cannot be verified at all has one)."""

    def __init__(self, trust: RunTrust) -> None:
        self.trust = trust
        self.problems = trust.verification.lines() or ["it fails verification"]
        self.ok = trust.label != "unverified"


def labelled(location: RunLocation, ring: KeyRing) -> _Labelled:
    """`run_trust`, with a location that cannot be verified at all (no run.json, a damaged manifest,
    an unreadable store) labelled `unverified` with why."""
    from taue.runner.trust import RunTrust, run_trust
    from taue.runner.verify import Verification

    try:
        return _Labelled(run_trust(location, ring))
    except (OSError, ValueError) as exc:  # VerifyError, SealError, StorageError, ResultsFileError
        found = Verification(
            run=location.name,
            location=str(location),
            records=0,
            planned=0,
            signatures_checked=False,
            run_problems=[_one_line(str(exc))],
        )
        return _Labelled(RunTrust(label="unverified", verification=found, key_id=None))


def status_of(trust: RunTrust) -> VerificationStatus:
    """The `verification` object of `taue summary --json`."""
    from taue.contracts.run import VerificationStatus

    found = trust.verification
    return VerificationStatus(
        label=trust.label,
        key_id=trust.key_id,
        signatures_checked=found.signatures_checked,
        records=found.records,
        planned=found.planned,
        problems=found.lines(),
    )


def print_status(location: RunLocation, trust: RunTrust, role: str = "") -> None:
    """`RUN: verification: …` on stderr (`role`, e.g. `baseline `, goes before the run)."""
    console.print(f"{role}{location}: {trust.line()}", markup=False, highlight=False)


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()
