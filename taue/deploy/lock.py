"""The image's lock file (`docker/requirements.lock`): every package the image installs, pinned with hashes.

`taue deploy lock` makes it with uv (`uv pip compile --generate-hashes`) for the image's Python and
platform from pyproject.toml's dependencies, the image's extras and the build backend; the Dockerfile
installs it with `pip install --require-hashes`, then the project alone with `--no-deps`. The header
records what the lock was made from (extras, Python, platform, a digest of those dependency lists), so
that `taue deploy lock --check` and tests/deploy/test_lock.py find a lock pyproject.toml has moved past.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import tempfile
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from pydantic import BaseModel, ConfigDict

LOCK_FILE = "docker/requirements.lock"
DEFAULT_EXTRAS = ("s3",)
"""The leaderboard image writes results to S3 or an S3-compatible store (docs/deployment.md)."""
PYTHON_VERSION = "3.11"
"""The Dockerfile's base image, python:3.11-slim-bookworm."""
PLATFORM = "x86_64-manylinux_2_36"
"""Linux x86_64 with Debian bookworm's glibc 2.36 (uv's --python-platform name)."""
REGENERATE = "taue deploy lock"
BUILD_INPUT = "build-system.in"
HEADER_FIELD = re.compile(r"^# (?P<key>extras|python|platform|inputs): (?P<value>\S*)")
HASH = re.compile(r"--hash=(?P<algorithm>[a-z0-9]+):(?P<digest>[0-9a-f]+)")


class LockError(Exception):
    """A lock that cannot be made (no uv, an unknown extra, a failed resolution): one line for the user."""


class LockHeader(BaseModel):
    """What a lock was made from, as its header says."""

    model_config = ConfigDict(frozen=True)

    extras: tuple[str, ...]
    python: str
    platform: str
    inputs: str
    """`sha256:` of the requirement lists the lock was resolved from (see `inputs_digest`)."""


class Pin(BaseModel):
    """One locked package: `name==version` with the sha256 hashes of its files."""

    model_config = ConfigDict(frozen=True)

    name: str
    requirement: str
    version: str | None
    """None when the line is not an exact `==` pin."""
    hashes: tuple[str, ...]


# --- what a lock is made from ---------------------------------------------------------------------


def read_pyproject(root: Path) -> dict[str, Any]:
    return tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))


def build_requirements(pyproject: dict[str, Any]) -> list[str]:
    """The build backend: the image builds the project with `--no-build-isolation` from the lock."""
    return list(pyproject["build-system"]["requires"])


def lock_inputs(pyproject: dict[str, Any], extras: Sequence[str]) -> list[str]:
    """The requirements a lock resolves: the dependencies, those of each extra and the build backend."""
    project = pyproject["project"]
    optional = project.get("optional-dependencies", {})
    unknown = [extra for extra in extras if extra not in optional]
    if unknown:
        raise LockError(f"pyproject.toml has no extra {unknown[0]!r} (extras: {', '.join(optional)})")
    found = list(project["dependencies"])
    for extra in extras:
        found += optional[extra]
    return found + build_requirements(pyproject)


def inputs_digest(pyproject: dict[str, Any], extras: Sequence[str]) -> str:
    """A digest of what the lock resolves; any change to those lists (not their order) changes it."""
    lines = sorted({str(Requirement(text)) for text in lock_inputs(pyproject, extras)})
    return "sha256:" + hashlib.sha256("\n".join(lines).encode()).hexdigest()


def marker_environment(python: str) -> dict[str, str]:
    """The image's environment for evaluating requirement markers."""
    return {
        "python_version": python,
        "python_full_version": f"{python}.0",
        "sys_platform": "linux",
        "platform_system": "Linux",
        "platform_machine": "x86_64",
        "os_name": "posix",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
    }


# --- reading a lock -------------------------------------------------------------------------------


def read_header(text: str) -> LockHeader | None:
    fields: dict[str, str] = {}
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        if match := HEADER_FIELD.match(line):
            fields[match["key"]] = match["value"]
    if set(fields) != {"extras", "python", "platform", "inputs"}:
        return None
    extras = tuple(extra for extra in fields["extras"].split(",") if extra)
    return LockHeader(
        extras=extras, python=fields["python"], platform=fields["platform"], inputs=fields["inputs"]
    )


def logical_lines(text: str) -> list[str]:
    """Requirement lines with their `\\` continuations joined, comments left out."""
    joined: list[str] = []
    current = ""
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line and not current:
            continue
        current += " " + line.removesuffix("\\").strip()
        if not line.endswith("\\"):
            joined.append(current.strip())
            current = ""
    if current.strip():
        joined.append(current.strip())
    return joined


def read_pins(text: str) -> dict[str, Pin]:
    """Canonical package name -> its pin, from a pip requirements file with hashes."""
    pins: dict[str, Pin] = {}
    for line in logical_lines(text):
        requirement_text = line.split(" --", 1)[0].strip()
        try:
            requirement = Requirement(requirement_text)
        except InvalidRequirement as exc:
            raise LockError(f"not a requirement: {requirement_text!r} ({exc})") from None
        specifiers = list(requirement.specifier)
        exact = len(specifiers) == 1 and specifiers[0].operator == "==" and "*" not in specifiers[0].version
        hashes = tuple(f"{m['algorithm']}:{m['digest']}" for m in HASH.finditer(line))
        name = canonicalize_name(requirement.name)
        version = specifiers[0].version if exact else None
        pins[name] = Pin(name=name, requirement=requirement_text, version=version, hashes=hashes)
    return pins


# --- checking a lock against pyproject.toml -------------------------------------------------------


def lock_problems(root: Path, lock: Path | None = None) -> list[str]:
    """Every way the lock falls short of pyproject.toml (empty: up to date), each saying what to do."""
    path = lock or root / LOCK_FILE
    name = _shown(path, root)
    if not path.is_file():
        return [f"{name} is missing: run `{REGENERATE}`"]
    text = path.read_text(encoding="utf-8")
    header = read_header(text)
    if header is None:
        return [f"{name} has no header (extras, python, platform, inputs): run `{REGENERATE}`"]
    pyproject = read_pyproject(root)
    try:
        inputs = lock_inputs(pyproject, header.extras)
        pins = read_pins(text)
    except LockError as exc:
        return [f"{name}: {exc}"]
    problems = _pin_problems(pins, name)
    problems += _missing_or_outside(inputs, pins, header, name)
    if inputs_digest(pyproject, header.extras) != header.inputs:
        problems.append(
            f"{name} is stale: pyproject.toml's dependencies changed since it was made; run `{REGENERATE}`"
        )
    return problems


def _pin_problems(pins: dict[str, Pin], name: str) -> list[str]:
    problems = []
    for pin in pins.values():
        if not pin.version:
            problems.append(f"{name}: {pin.requirement!r} is not an exact `==` pin: run `{REGENERATE}`")
        if not _sha256(pin):
            problems.append(f"{name}: {pin.requirement} has no --hash=sha256: run `{REGENERATE}`")
    return problems


def _sha256(pin: Pin) -> bool:
    return any(value.startswith("sha256:") for value in pin.hashes)


def _missing_or_outside(inputs: list[str], pins: dict[str, Pin], header: LockHeader, name: str) -> list[str]:
    problems = []
    environment = marker_environment(header.python)
    for text in inputs:
        requirement = Requirement(text)
        if requirement.marker is not None and not requirement.marker.evaluate(environment):
            continue
        pin = pins.get(canonicalize_name(requirement.name))
        if pin is None:
            problems.append(
                f"{requirement.name} ({text}) is required by pyproject.toml but not pinned in {name}: "
                f"run `{REGENERATE}`"
            )
        elif pin.version and not requirement.specifier.contains(pin.version, prereleases=True):
            problems.append(
                f"{name} pins {pin.name}=={pin.version}, outside pyproject.toml's {text!r}: "
                f"run `{REGENERATE}`"
            )
    return problems


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


# --- making a lock --------------------------------------------------------------------------------


def uv_binary() -> str:
    """The uv executable: the PyPI package `uv` in this environment, else `uv` on PATH."""
    try:
        # import-not-found: uv is optional (installed: it locks; absent: the caller falls back)
        from uv import find_uv_bin  # type: ignore[import-not-found]

        return str(find_uv_bin())
    except (ImportError, FileNotFoundError):
        pass
    found = shutil.which("uv")
    if found is None:
        raise LockError("uv is not installed: `pip install uv` (it resolves the lock; needs PyPI)")
    return found


def compile_command(uv: str, extras: Sequence[str], output: str, upgrade: bool) -> list[str]:
    extra_flags = [flag for extra in extras for flag in ("--extra", extra)]
    return [
        uv, "pip", "compile", "pyproject.toml", BUILD_INPUT, *extra_flags,
        "--generate-hashes", "--python-version", PYTHON_VERSION, "--python-platform", PLATFORM,
        "--no-header", "--quiet", "--output-file", output, *(["--upgrade"] if upgrade else []),
    ]  # fmt: skip


def header_text(pyproject: dict[str, Any], extras: Sequence[str], command: list[str], uv_version: str) -> str:
    shown = " ".join(["uv", *command[1:]])
    return "\n".join(
        [
            "# τ-Emotion-Bench image lock: every package the Dockerfile installs, with sha256 hashes",
            "# (`pip install --require-hashes -r` this file, then the project alone with --no-deps).",
            f"# Regenerate after changing pyproject.toml's dependencies (needs uv and PyPI): {REGENERATE}",
            f"# Check it, offline: {REGENERATE} --check",
            f"# extras: {','.join(extras)}",
            f"# python: {PYTHON_VERSION}",
            f"# platform: {PLATFORM}",
            "# (the image: python:3.11-slim-bookworm, linux x86_64, glibc 2.36; no CUDA, no test packages)",
            f"# inputs: {inputs_digest(pyproject, extras)}",
            "# (sha256 of pyproject.toml's dependencies, the extras' and the build backend's, sorted)",
            f"# resolved by {uv_version}: {shown}",
            "",
        ]
    )


def make_lock(root: Path, out: Path, extras: Sequence[str], upgrade: bool = False) -> str:
    """Resolve the lock with uv and write it to `out`; returns the uv version line. Pins already in
    `out` are kept where they still fit (uv's preference), unless `upgrade`."""
    pyproject = read_pyproject(root)
    lock_inputs(pyproject, extras)  # an unknown extra fails before uv runs
    uv = uv_binary()
    with tempfile.TemporaryDirectory(prefix="taue-lock-") as folder:
        work = Path(folder)
        shutil.copyfile(root / "pyproject.toml", work / "pyproject.toml")
        (work / BUILD_INPUT).write_text("\n".join(build_requirements(pyproject)) + "\n", encoding="utf-8")
        if out.is_file():
            shutil.copyfile(out, work / "requirements.lock")
        command = compile_command(uv, extras, "requirements.lock", upgrade)
        _run(command, work)
        body = (work / "requirements.lock").read_text(encoding="utf-8")
    uv_version = _run([uv, "--version"], root).strip()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(header_text(pyproject, extras, command, uv_version) + body, encoding="utf-8")
    return uv_version


def _run(command: list[str], cwd: Path) -> str:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise LockError(f"`{' '.join(['uv', *command[1:]])}` failed (exit {done.returncode}): {last}")
    return done.stdout
