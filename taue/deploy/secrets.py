"""The secrets of a docker compose deployment (`taue deploy secrets DIR`).

The one-shot `secrets` service of docker-compose.yml runs it on the named volume `secrets`: the admin
token every `taue serve` and the runner read (`TAUE_ADMIN_TOKEN_FILE`), and the key the domain servers
and the scorer sign with (`TAUE_SIGNING_KEY_FILE`). Each is random, made once and kept: a later
`docker compose up` finds them and leaves them as they are (`--force` replaces them).

DIR is made readable by its owner only (0700) and each file is written whole (a temporary file in DIR,
0600 from its creation, renamed into place), so no reader ever sees a part of a secret or a file
another user could read. Nothing here prints or returns a secret.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

ADMIN_TOKEN_FILE = "admin-token"
SIGNING_KEY_FILE = "signing-key"
SECRET_FILES = (ADMIN_TOKEN_FILE, SIGNING_KEY_FILE)
SECRET_BYTES = 32
"""Each secret is this many random bytes, as hex (64 characters; a signing key needs 16 at least)."""


class SecretsError(Exception):
    """DIR or a file in it cannot be written: one line for the user."""


@dataclass(frozen=True)
class SecretFile:
    path: Path
    made: bool
    """True when written now, False when an existing file was kept."""


def make_secrets(folder: Path, force: bool = False) -> list[SecretFile]:
    """Make `folder` (0700) and each secret file in it that does not exist yet (every one with
    `force`); returns what was made and what kept, in the order of SECRET_FILES."""
    _make_folder(folder)
    found = []
    for name in SECRET_FILES:
        path = folder / name
        if (path.is_symlink() or path.exists()) and not force:
            found.append(SecretFile(path, made=False))
            continue
        _write_secret(path, secrets.token_hex(SECRET_BYTES))
        found.append(SecretFile(path, made=True))
    return found


def _make_folder(folder: Path) -> None:
    if folder.is_dir():
        return  # an existing folder (a mounted volume) keeps its owner and mode
    if folder.exists():
        raise SecretsError(f"cannot make the secrets folder {folder}: it exists and is not a folder")
    try:
        folder.mkdir(mode=0o700, parents=True)
        folder.chmod(0o700)  # whatever the umask
    except OSError as exc:
        raise SecretsError(f"cannot make the secrets folder {folder}: {_reason(exc)}") from None


def _write_secret(path: Path, value: str) -> None:
    """`value` into `path`, all at once: a temporary file beside it (0600), then renamed over it."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(value + "\n")
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise SecretsError(f"cannot write {path}: {_reason(exc)}") from None


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)
