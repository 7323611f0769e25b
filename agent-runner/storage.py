"""Where a run lives: a local folder, or a prefix in an object store (S3, Google Cloud Storage, Azure).

`RunLocation.parse(value)` reads a plain path or a `file://` URL as a local folder, handled with
pathlib exactly as before; `s3://`, `gs://`, `az://` (and `memory://`, fsspec's in-process store)
as a prefix in that store, through fsspec and the store's backend (s3fs, gcsfs, adlfs: the extras
`s3`, `gcs`, `azure`), imported only when such a URL is given.

S3 settings come from the standard AWS variables and files, read by botocore: `AWS_ACCESS_KEY_ID`,
`AWS_SECRET_ACCESS_KEY`, `AWS_DEFAULT_REGION`, and `AWS_ENDPOINT_URL` (or `AWS_ENDPOINT_URL_S3`)
for MinIO and other S3-compatible stores.
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import os
import shutil
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

BACKENDS = {
    "s3": ("s3fs", "s3"),
    "gs": ("gcsfs", "gcs"),
    "gcs": ("gcsfs", "gcs"),
    "az": ("adlfs", "azure"),
    "abfs": ("adlfs", "azure"),
    "abfss": ("adlfs", "azure"),
    "memory": (None, None),
}
"""URL scheme -> (backend package, extra of this project that installs it)."""
PACKAGE = "tau-emotion-bench"
T = TypeVar("T")


class StorageError(ValueError):
    """An unusable run location (bad URL, missing backend) or a store that failed; one line."""


class RunDirError(ValueError):
    """A local run directory that cannot be made, read or written (a bad path, no permission, a full
    disk): the user's to fix, said in one line that names the path (`file_fault`)."""


NO_SPACE = (errno.ENOSPC, errno.EDQUOT)


def file_fault(path: Path, exc: OSError, doing: str = "write") -> RunDirError:
    """The one-line error for an `OSError` on `path`, saying what to do about it."""
    reason = exc.strerror or type(exc).__name__
    if exc.errno in NO_SPACE:
        folder = path.parent if not path.is_dir() else path
        return RunDirError(
            f"cannot {doing} {path}: {reason.lower()}; free space on the file system holding {folder} "
            f"({_free_space(folder)} free) and rerun: the episodes stored so far are kept"
        )
    if exc.errno == errno.EEXIST or (exc.errno == errno.ENOTDIR and path.exists()):
        return RunDirError(f"{path} exists and is not a directory; give a directory path")
    if exc.errno == errno.ENOTDIR:
        return RunDirError(f"cannot {doing} {path}: a part of the path is a file, not a directory")
    return RunDirError(f"cannot {doing} {path}: {reason}; give a path you can write to")


def _free_space(folder: Path) -> str:
    for candidate in (folder, *folder.parents):
        if candidate.is_dir():
            free = shutil.disk_usage(candidate).free
            return f"{free / 1024:.0f} KiB" if free < 1024**2 else f"{free / 1024**2:.0f} MiB"
    return "unknown"


def checked_object_path(scheme: str, rest: str) -> str:
    """`BUCKET/PREFIX` of an object-store URL, without a trailing slash; a one-line `StorageError` for
    one that names no bucket or no prefix, starts with `/` (`s3:///etc/x`), or holds an empty, `.` or
    `..` segment, any of which a store would turn into another key than the one meant."""
    url = f"{scheme}://{rest}"
    path = rest.rstrip("/")
    if not path.strip("/"):
        raise StorageError(f"{url} names no bucket; give {scheme}://BUCKET/PREFIX")
    if path.startswith("/"):
        raise StorageError(f"{url} starts its bucket with '/'; give {scheme}://BUCKET/PREFIX")
    bucket, _, prefix = path.partition("/")
    if not prefix:
        raise StorageError(
            f"{url} names only a bucket; give a prefix for the run: {scheme}://{bucket}/PREFIX"
        )
    segments = prefix.split("/")
    if any(segment in ("", ".", "..") for segment in segments):
        raise StorageError(f"{url} holds an empty, '.' or '..' path segment; give {scheme}://BUCKET/PREFIX")
    return path


class RunLocation(ABC):
    """A run directory, local or in an object store; files are named relative to it."""

    @staticmethod
    def parse(value: str | Path | RunLocation) -> RunLocation:
        """A local folder for a path or a `file://` URL, an object-store prefix for a store's URL;
        a `StorageError` for another scheme or a store whose backend is not installed."""
        if isinstance(value, RunLocation):
            return value
        if isinstance(value, Path):
            return LocalRun(value)
        scheme, sep, rest = value.partition("://")
        if not sep or len(scheme) < 2 or not scheme.replace("+", "").isalnum():
            return LocalRun(Path(value))
        if scheme.lower() == "file":
            return LocalRun(Path(rest))
        return ObjectRun.open(scheme.lower(), rest)

    @property
    @abstractmethod
    def name(self) -> str:
        """The last part of the folder or prefix: a run's default name."""

    @property
    @abstractmethod
    def local(self) -> Path | None:
        """The folder of a local run; None for one in an object store."""

    @abstractmethod
    def children(self) -> list[RunLocation]:
        """The sub-folders (sub-prefixes), sorted by name."""

    @abstractmethod
    def exists(self, name: str = "") -> bool:
        """Whether the file `name` exists; without a name, whether the folder holds anything."""

    @abstractmethod
    def read_bytes(self, name: str) -> bytes: ...

    @abstractmethod
    def write_text(self, name: str, text: str) -> None:
        """Write a whole file: locally in place, in a store as one object (one PUT: all or nothing)."""

    @abstractmethod
    def modified(self, name: str) -> datetime:
        """When the file was last written (UTC)."""

    @abstractmethod
    def make(self) -> None:
        """Create the folder (nothing to do in an object store)."""

    @abstractmethod
    def upload(self, folder: Path) -> None:
        """Copy every file under the local `folder` here, keeping their relative names."""

    @property
    @abstractmethod
    def absent(self) -> str:
        """What a message says of a location that holds nothing: `… is not a directory`."""

    def read_text(self, name: str) -> str:
        return self.read_bytes(name).decode("utf-8")

    def shown(self, name: str) -> str:
        """How to show the file `name` in a message."""
        return f"{self}/{name}"


class LocalRun(RunLocation):
    def __init__(self, path: Path) -> None:
        self.path = path

    def __str__(self) -> str:
        return str(self.path)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def local(self) -> Path:
        return self.path

    @property
    def absent(self) -> str:
        return f"{self.path} is not a directory"

    def children(self) -> list[RunLocation]:
        if not self.path.is_dir():
            return []
        return [LocalRun(entry) for entry in sorted(self.path.iterdir()) if entry.is_dir()]

    def exists(self, name: str = "") -> bool:
        return (self.path / name).exists() if name else self.path.is_dir()

    def read_bytes(self, name: str) -> bytes:
        return (self.path / name).read_bytes()

    def write_text(self, name: str, text: str) -> None:
        """Write through a temporary file and a rename: a full disk never leaves a half-written file."""
        path = self.path / name
        write_atomically(path, text.encode("utf-8"))

    def modified(self, name: str) -> datetime:
        return datetime.fromtimestamp((self.path / name).stat().st_mtime, UTC)

    def make(self) -> None:
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise file_fault(self.path, exc, "create") from None

    def upload(self, folder: Path) -> None:
        shutil.copytree(folder, self.path, dirs_exist_ok=True)

    def shown(self, name: str) -> str:
        return str(self.path / name)


class ObjectRun(RunLocation):
    """A prefix in an object store: each file is one object, written whole (no appends)."""

    def __init__(self, fs: Any, scheme: str, root: str) -> None:
        self.fs = fs
        self.scheme = scheme
        self.root = fs._strip_protocol(f"{scheme}://{root}").rstrip("/")
        """The prefix as the filesystem names it (`bucket/runs/x`; `/bucket/runs/x` in memory://)."""

    @staticmethod
    def open(scheme: str, rest: str) -> ObjectRun:
        if scheme not in BACKENDS:
            schemes = ", ".join(f"{s}://" for s in ("file", "s3", "gs", "az"))
            raise StorageError(
                f"unsupported storage URL {scheme}://{rest}: give a local path or a {schemes} URL"
            )
        path = checked_object_path(scheme, rest)  # before the backend: a bad URL is the first thing said
        return ObjectRun(_filesystem(scheme), scheme, path)

    def __str__(self) -> str:
        return f"{self.scheme}://{self.root.lstrip('/')}"

    @property
    def name(self) -> str:
        return self.root.rsplit("/", 1)[-1]

    @property
    def local(self) -> None:
        return None

    @property
    def absent(self) -> str:
        return f"{self} holds no objects"

    def key(self, name: str) -> str:
        return f"{self.root}/{name}" if name else self.root

    def children(self) -> list[RunLocation]:
        if not self.exists():
            return []
        entries = self._call(lambda: self.fs.ls(self.root, detail=True))
        folders = sorted(e["name"].rstrip("/") for e in entries if e["type"] == "directory")
        return [ObjectRun(self.fs, self.scheme, folder) for folder in folders]

    def exists(self, name: str = "") -> bool:
        self.fs.invalidate_cache(self.root)  # another process (a shard) may have written since
        return self._call(lambda: self.fs.exists(self.key(name)))

    def list(self, folder: str) -> list[str]:
        """The names (relative to the run) of every object under `folder`, sorted."""
        prefix = self.key(folder)
        self.fs.invalidate_cache(prefix)  # another process (a shard) may have written since
        found = self._call(lambda: self.fs.find(prefix) if self.fs.exists(prefix) else [])
        return sorted(path[len(self.root) + 1 :] for path in found)

    def read_bytes(self, name: str) -> bytes:
        return self._call(lambda: self.fs.cat_file(self.key(name)))

    def read_many(self, names: builtins.list[str]) -> dict[str, bytes]:  # `list` is a method here
        """Several objects, fetched concurrently where the store allows it."""
        if not names:
            return {}
        data = self._call(lambda: self.fs.cat([self.key(name) for name in names]))
        return {name: data[self.key(name)] for name in names}

    def write_text(self, name: str, text: str) -> None:
        self.write_bytes(name, text.encode("utf-8"))

    def write_bytes(self, name: str, data: bytes) -> None:
        self._call(lambda: self.fs.pipe_file(self.key(name), data))

    def delete(self, names: builtins.list[str]) -> None:
        if names:
            self._call(lambda: self.fs.rm([self.key(name) for name in names]))

    def modified(self, name: str) -> datetime:
        stamp = self._call(lambda: self.fs.modified(self.key(name)))
        return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)

    def make(self) -> None:
        return None

    def upload(self, folder: Path) -> None:
        files = sorted(path for path in folder.rglob("*") if path.is_file())
        # top-level files (a site's index) last, so that they never name a page not yet uploaded
        for path in sorted(files, key=lambda path: (path.parent == folder, path)):
            self.write_bytes(path.relative_to(folder).as_posix(), path.read_bytes())

    def _call(self, action: Callable[[], T]) -> T:
        """Run a store operation; any failure of the store or its client becomes one-line `StorageError`."""
        try:
            return action()
        except StorageError:
            raise
        except Exception as exc:  # each backend raises its own types (botocore, aiohttp, azure)
            raise StorageError(f"{self}: {_first_line(exc)}") from exc


def write_atomically(path: Path, data: bytes | Iterable[bytes]) -> None:
    """Replace `path` with `data` (bytes, or chunks of them) through `<path>.tmp` and a rename; on failure
    `path` is unchanged, the temporary file is removed and a `RunDirError` says what to do."""
    temporary = path.with_name(path.name + ".tmp")
    chunks = [data] if isinstance(data, bytes) else data
    try:
        with temporary.open("wb") as handle:
            for chunk in chunks:
                handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise file_fault(path, exc) from None


def _filesystem(scheme: str) -> Any:
    """The fsspec filesystem of a store, or a `StorageError` naming the extra to install."""
    package, extra = BACKENDS[scheme]
    try:
        import fsspec

        return fsspec.filesystem(scheme)
    except ImportError:
        raise StorageError(
            f"{scheme}:// URLs need the {package} package: pip install '{PACKAGE}[{extra}]'"
        ) from None
    except Exception as exc:  # a backend that connects at once (adlfs) and has no account
        raise StorageError(f"{scheme}://: {_first_line(exc)}") from exc


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
