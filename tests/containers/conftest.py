"""The container stage's one stack: an engine (provisioned where the machine allows: tests/containers/
engine.py), the image built from this tree, and `docker compose up -d --wait` under a project name of
this session's own; `down -v` at the end. Without an engine, every test skips with one line saying what
is missing."""

from __future__ import annotations

import functools
import os
import secrets
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.containers.engine import (
    Timings,
    Unavailable,
    engine_answers,
    may_provision,
    provision,
    stop_dockerd,
)
from tests.containers.stack import Stack

HERE = Path(__file__).parent


@functools.cache
def missing() -> str | None:
    """Why the stage cannot run here (checked once, before any provisioning), or None."""
    if engine_answers() or may_provision():
        return None
    return "no Docker engine: none answers, and installing one needs root and apt-get"


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skips the stage's tests from here rather than from the fixture, so that the reason is one
    line of the summary (a fixture's skip is reported at each test's own line)."""
    if item.path.is_relative_to(HERE) and (reason := missing()):
        pytest.skip(reason)


@dataclass
class Running:
    stack: Stack
    timings: Timings
    cold_start: float
    """Seconds from `up -d --wait` to every service healthy (containers new, image built)."""


@pytest.fixture(scope="session")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    timings = Timings()
    try:
        daemon = provision(tmp_path_factory.mktemp("engine") / "dockerd.log", timings)
    except Unavailable as missing:
        pytest.skip(str(missing))
    stack = Stack(f"taue-ct-{os.getpid()}-{secrets.token_hex(3)}")
    try:
        cold_start = stack.up()
        print(f"\ncontainers: {'; '.join(timings.steps)}; up --wait {cold_start:.0f} s", file=sys.stderr)
        yield Running(stack, timings, cold_start)
    finally:
        try:
            stack.down()
        finally:
            stop_dockerd(daemon)


@pytest.fixture(scope="session")
def stack(running: Running) -> Stack:
    return running.stack
