"""Who signed a run, and whether that signer is trusted: the label every reader shows.

A run's records name the key that signed them (`key_id`, `scorer_key_id`). The reader holds a key
ring: the keys it can check signatures with (`--key-file`, `$TAUE_SIGNING_KEY`, and a run's own
key in `$TAUE_HOME/keys`, which only the run's author holds) and the ids of the keys it trusts (the
operator's: the keys given explicitly, and `--trusted-keys`). A run is

- `signed`: it verifies, with a trusted key;
- `self-signed`: it verifies, with a key that is not trusted (a local run's own key: its author, who
  may be the submitter, could have signed anything);
- `consistent`: it verifies without any key to check signatures with (digests and rewards only);
- `unverified`: it fails verification.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from taue.contracts.integrity import SigningKey
from taue.runner.storage import RunLocation
from taue.runner.verify import Verification, own_key_files, verify_run

Label = Literal["signed", "self-signed", "consistent", "unverified"]
TRUSTED_KEYS_VARIABLE = "TAUE_TRUSTED_KEYS"


@dataclass
class KeyRing:
    """The keys a reader checks signatures with, and the ids of those it trusts."""

    keys: dict[str, SigningKey] = field(default_factory=dict)
    trusted: frozenset[str] = frozenset()
    use_own_keys: bool = True
    """Also check with a run's own key from `$TAUE_HOME/keys` (never trusted unless listed)."""

    @classmethod
    def of(
        cls, given: Iterable[SigningKey], trusted_ids: Iterable[str] = (), use_own_keys: bool = True
    ) -> KeyRing:
        """The given keys (trusted) and the ids of other trusted keys."""
        keys = {key.id: key for key in given}
        return cls(keys=keys, trusted=frozenset(keys) | frozenset(trusted_ids), use_own_keys=use_own_keys)

    def keys_for(self, location: RunLocation, key_ids: set[str]) -> list[SigningKey]:
        """The keys to check a run whose manifests and records name `key_ids` with: held keys of those
        ids, and the run's own key files of those ids; a run that names no key id gets the held keys."""
        if not key_ids:
            return list(self.keys.values())
        found = {key_id: self.keys[key_id] for key_id in key_ids if key_id in self.keys}
        if self.use_own_keys:
            for path in own_key_files(location):
                own = SigningKey.from_file(path)
                if own.id in key_ids:
                    found.setdefault(own.id, own)
        return list(found.values())


@dataclass
class RunTrust:
    label: Label
    verification: Verification
    key_id: str | None
    """The key the run's records name (None: unsigned records); the first, when they name several."""

    def line(self) -> str:
        """One line for a summary or a log: the label and why."""
        found = self.verification
        if self.label == "unverified":
            return f"verification: UNVERIFIED ({len(found.lines())} problems; `taue verify` lists them)"
        if self.label == "consistent":
            return "verification: consistent (digests and rewards check; no key to check signatures with)"
        who = "a trusted key" if self.label == "signed" else "a key that is not trusted"
        return f"verification: {self.label} ({found.records} records, {who}: {self.key_id})"


def run_trust(location: str | RunLocation, ring: KeyRing) -> RunTrust:
    """Verify the run at `location` with the ring's key for it, and label it."""
    run = RunLocation.parse(location)
    key_ids = signing_key_ids(run)
    keys = ring.keys_for(run, key_ids)
    found = verify_run(run, keys)
    if not found.ok:
        label: Label = "unverified"
    elif not keys:
        label = "consistent"
    else:
        label = "signed" if all(key.id in ring.trusted for key in keys) else "self-signed"
    untrusted = sorted(key_ids - ring.trusted)
    shown = untrusted[0] if untrusted else min(key_ids, default=None)
    return RunTrust(label=label, verification=found, key_id=shown or (keys[0].id if keys else None))


def signing_key_id(location: RunLocation) -> str | None:
    """The key id the run's manifests (else its first signed record) name; an untrusted-looking one
    first when they name several (sorted)."""
    return min(signing_key_ids(location), default=None)


def signing_key_ids(location: RunLocation) -> set[str]:
    """Every key id the run's signed manifests name, else the one its first signed record names."""
    from taue.runner.results import ResultsFile
    from taue.runner.run_seal import stored_seal

    seal = stored_seal(location)
    if seal is not None:
        ids = {manifest.key_id for manifest in seal.manifests if manifest.key_id}
        if ids:
            return ids
    for _, record in ResultsFile(location).located():
        if record.integrity is not None and record.integrity.key_id:
            return {record.integrity.key_id}
    return set()


def trusted_ids(value: str | None) -> list[str]:
    """`--trusted-keys`: key ids separated by commas, or a file of key ids one a line ('#' comments)."""
    if not value:
        return []
    path = Path(value)
    if path.is_file():
        lines = path.read_text(encoding="utf-8").splitlines()
        return [line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip()]
    ids = [part.strip() for part in value.split(",") if part.strip()]
    bad = [i for i in ids if not (len(i) == 16 and all(c in "0123456789abcdef" for c in i))]
    if bad:
        raise ValueError(
            f"--trusted-keys {bad[0]!r} is neither a file nor a key id "
            "(16 hex digits, as `taue verify` prints)"
        )
    return ids
