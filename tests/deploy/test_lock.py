"""The image's lock file, docker/requirements.lock: every dependency of the image pinned `==` with
sha256 hashes, inside pyproject.toml's specifiers, installed by the Dockerfile with `--require-hashes`,
and found stale once pyproject.toml moves on. Offline: nothing is resolved here."""

from __future__ import annotations

import re
import shutil
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from typer.testing import CliRunner

from taue.cli import app
from taue.deploy.lock import LOCK_FILE, lock_problems, read_header, read_pins
from tests.paths import ROOT

pytestmark = pytest.mark.xdist_group("deploy-lock")

LOCK = ROOT / LOCK_FILE
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
IMAGE_EXTRAS = ("s3",)
"""The extras the leaderboard image needs (results in S3-compatible object storage)."""
NOT_IN_THE_IMAGE = re.compile(
    r"^(torch|torchvision|triton|nvidia-.*|pytest.*|ruff|selenium|moto|grpcio-tools)$"
)


def image_requirements() -> list[Requirement]:
    project = PYPROJECT["project"]
    extras = [text for extra in IMAGE_EXTRAS for text in project["optional-dependencies"][extra]]
    return [Requirement(text) for text in [*project["dependencies"], *extras]]


def logical_entries(text: str) -> list[str]:
    """The lock's requirement entries, each with its continuation lines (independent of lock.py)."""
    entries: list[str] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0].isspace() and entries:
            entries[-1] += " " + line.strip()
        else:
            entries.append(line.strip())
    return entries


def test_every_image_dependency_is_pinned_with_hashes_inside_its_specifier() -> None:
    entries = logical_entries(LOCK.read_text())
    assert len(entries) > 30, "base dependencies and their own"
    pinned: dict[str, str] = {}
    for entry in entries:
        match = re.match(r"^([A-Za-z0-9._-]+)==([^\s\\;]+)", entry)
        assert match, f"not an exact `==` pin: {entry[:80]}"
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", entry), f"no sha256 hash: {entry[:80]}"
        pinned[canonicalize_name(match[1])] = match[2]
    for requirement in image_requirements():
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement} (pyproject.toml) is not in {LOCK_FILE}"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"{LOCK_FILE} pins {name}=={pinned[name]}, outside pyproject.toml's {requirement}"
        )
    assert pinned["setuptools"], "the build backend is locked too (the image builds without isolation)"
    assert read_pins(LOCK.read_text()).keys() == pinned.keys()


def required_by(text: str) -> dict[str, list[str]]:
    """Package -> what requires it, from the lock's `# via` comments."""
    found: dict[str, list[str]] = {}
    current = ""
    for line in text.splitlines():
        if match := re.match(r"^([A-Za-z0-9._-]+)==", line):
            current = canonicalize_name(match[1])
            found[current] = []
        elif line.startswith("    #") and current:
            found[current].append(line.strip("# ").removeprefix("via").strip())
    return {name: [v for v in vias if v] for name, vias in found.items()}


def test_the_lock_holds_no_cuda_torch_or_test_packages() -> None:
    pinned = set(read_pins(LOCK.read_text()))
    assert not sorted(name for name in pinned if NOT_IN_THE_IMAGE.match(name))
    direct = {
        name
        for name, sources in required_by(LOCK.read_text()).items()
        if any("(pyproject.toml)" in source or "build-system.in" in source for source in sources)
    }
    image = {canonicalize_name(r.name) for r in image_requirements()}
    assert direct == image | {"setuptools"}, "only the image's requirements (no test extra) enter directly"


def test_the_header_says_what_the_lock_is_for_and_it_is_up_to_date() -> None:
    header = read_header(LOCK.read_text())
    assert header is not None
    python_image = re.search(r"^ARG PYTHON_IMAGE=python:(\d+\.\d+)-", (ROOT / "Dockerfile").read_text(), re.M)
    assert python_image and header.python == python_image[1], "resolved for the Dockerfile's Python"
    assert header.platform.startswith("x86_64-manylinux") and header.extras == IMAGE_EXTRAS
    comments = [line for line in LOCK.read_text().splitlines()[:15] if line.startswith("#")]
    assert any(line.endswith(": taue deploy lock") for line in comments), "the header says how to regenerate"
    assert lock_problems(ROOT) == []
    result = CliRunner().invoke(app, ["deploy", "lock", "--check"])
    assert result.exit_code == 0 and result.stdout.startswith("up to date"), result.output


def dockerfile_instructions() -> list[str]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [" ".join(line.split()) for line in text.splitlines() if line.strip() and not line.startswith("#")]


def test_the_dockerfile_installs_the_lock_with_require_hashes_then_the_project_alone() -> None:
    lines = dockerfile_instructions()
    assert f"ARG TAUE_LOCK={LOCK_FILE}" in lines
    [copy] = [line for line in lines if line.startswith("COPY ${TAUE_LOCK} ")]
    target = copy.split()[-1]
    installs = [cmd.strip() for line in lines for cmd in line.split("&&") if "pip install" in cmd]
    assert installs[0].endswith(f"pip install --require-hashes -r {target}"), installs
    assert all("--no-deps" in cmd for cmd in installs[1:]), f"only the lock brings dependencies: {installs}"
    assert any(cmd.endswith("/src") for cmd in installs[1:]), "then the project itself"
    assert any("pip check" in line for line in lines), "a lock missing a dependency fails the build"
    assert lines.index(copy) < lines.index("COPY . ."), "the lock's layer is reused by code-only changes"


@pytest.fixture()
def project_copy(tmp_path: Path) -> Path:
    (tmp_path / "docker").mkdir()
    shutil.copyfile(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copyfile(LOCK, tmp_path / LOCK_FILE)
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"the test's anchor {old!r} is gone from {path.name}"
    path.write_text(text.replace(old, new, 1))


def test_a_dependency_added_to_pyproject_makes_the_lock_stale(project_copy: Path) -> None:
    edit(project_copy / "pyproject.toml", '  "pyyaml>=6",', '  "pyyaml>=6",\n  "rapidfuzz>=3",')
    problems = lock_problems(project_copy)
    assert any("rapidfuzz" in p and "not pinned" in p and "run `taue deploy lock`" in p for p in problems)
    assert any("is stale" in p and "taue deploy lock" in p for p in problems), problems
    result = CliRunner().invoke(app, ["deploy", "lock", "--check", "--root", str(project_copy)])
    assert result.exit_code == 1 and "rapidfuzz" in result.stdout and "taue deploy lock" in result.stdout


def test_a_raised_floor_or_a_missing_hash_is_found(project_copy: Path) -> None:
    pinned = read_pins(LOCK.read_text())["pydantic"].version
    edit(project_copy / "pyproject.toml", '"pydantic>=2.8"', '"pydantic>=99"')
    lock = project_copy / LOCK_FILE
    text = lock.read_text()
    edit(
        lock,
        re.search(r"^pyyaml==\S+ \\\n(    --hash=\S+ \\\n)*    --hash=\S+\n", text, re.M)[0],
        "pyyaml==6.0\n",
    )
    problems = lock_problems(project_copy)
    assert any(f"pydantic=={pinned}, outside pyproject.toml's 'pydantic>=99'" in p for p in problems), (
        problems
    )
    assert any("pyyaml==6.0 has no --hash=sha256" in p for p in problems), problems


def test_locking_without_uv_is_a_one_line_error_that_changes_nothing(
    project_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "uv", None)  # the PyPI package `uv` is not importable
    monkeypatch.setenv("PATH", str(project_copy / "docker"))  # and no `uv` on PATH
    before = (project_copy / LOCK_FILE).read_bytes()
    for args, message in (
        ([], "error: uv is not installed: `pip install uv`"),
        (["--extra", "nosuch"], "error: pyproject.toml has no extra 'nosuch'"),
    ):
        result = CliRunner().invoke(app, ["deploy", "lock", "--root", str(project_copy), *args])
        assert result.exit_code == 2 and result.stdout == "", result.output
        assert result.stderr.startswith(message) and result.stderr.count("\n") == 1, result.stderr
    assert (project_copy / LOCK_FILE).read_bytes() == before
