"""What a domain server may hold: episode lifetime, the episode cap derived from memory, bounded echoes.

The cap is the memory the server may use divided by one episode's footprint. The footprint is the
domain's serialized seed database times `FOOTPRINT_FACTOR`, measured: a fresh episode costs 1.0x the
seed image (its private copy); after replaying a task's whole ground truth and dumping the state,
1.55-1.77x (airline, retail, school, movie), because SQLite's page cache keeps copies of the pages
read and the tool log grows. 2.0x leaves room for longer conversations.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

from taue.contracts.text import ECHO_LIMIT

DEFAULT_EPISODE_TTL_S = 900.0
"""Idle seconds (no MCP or control request for the episode) after which an episode expires."""
MAX_SWEEP_INTERVAL_S = 30.0
FOOTPRINT_FACTOR = 2.0
EPISODE_OVERHEAD_BYTES = 64 * 1024
"""Per-episode bookkeeping beyond the database (objects, tokens, the log's first entries)."""
USABLE_FRACTION = 0.9
"""Of the memory limit; the rest is left for requests in flight."""
MIN_EPISODES = 8
MAX_LOGGED_CALLS = 1000
"""Tool calls logged per episode; calls beyond it are refused and counted as dropped."""
ERROR_TEXT_LIMIT = 2000

CGROUP_V2_LIMIT = Path("/sys/fs/cgroup/memory.max")
CGROUP_V1_LIMIT = Path("/sys/fs/cgroup/memory/memory.limit_in_bytes")


def sweep_interval(ttl_s: float) -> float:
    return max(0.05, min(MAX_SWEEP_INTERVAL_S, ttl_s / 4))


def machine_memory_bytes() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def cgroup_memory_limit(v2: Path = CGROUP_V2_LIMIT, v1: Path = CGROUP_V1_LIMIT) -> int | None:
    """The container's memory limit in bytes (cgroup v2, else v1), or None when none is set."""
    for path in (v2, v1):
        with contextlib.suppress(OSError, ValueError):
            text = path.read_text().strip()
            if text == "max":
                return None
            limit = int(text)
            # cgroup v1 reports "no limit" as a huge number (a page-rounded 2^63)
            return limit if limit < machine_memory_bytes() else None
    return None


def memory_budget_bytes(memory_limit_mb: int | None = None) -> int:
    """The memory the server may use: the given limit, else the cgroup's, else half the machine's."""
    if memory_limit_mb is not None:
        return memory_limit_mb * 1024 * 1024
    return cgroup_memory_limit() or machine_memory_bytes() // 2


def resident_bytes() -> int:
    """This process's resident set size (0 where /proc is missing)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def episode_footprint(seed_image_bytes: int) -> int:
    return int(seed_image_bytes * FOOTPRINT_FACTOR) + EPISODE_OVERHEAD_BYTES


def derived_max_episodes(seed_image_bytes: int, memory_limit_mb: int | None = None) -> int:
    """How many episodes fit in the memory budget next to what the process already holds."""
    budget = memory_budget_bytes(memory_limit_mb)
    usable = max(budget * USABLE_FRACTION - resident_bytes(), budget * 0.25)
    return max(MIN_EPISODES, int(usable // episode_footprint(seed_image_bytes)))


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    with contextlib.suppress(OSError, AttributeError):
        return ctypes.CDLL("libc.so.6").malloc_trim  # glibc only; musl has no malloc_trim
    return None


def release_freed_memory() -> None:
    """Hand freed heap memory back to the OS.

    Each episode database is one ~1-3 MB allocation. glibc raises its mmap threshold after such blocks
    are freed, so later ones come from the heap, and a heap with live blocks above freed ones is never
    shrunk on its own: after many episodes expire the RSS stays high until `malloc_trim` releases the
    free pages (measured: tests/envs/test_episode_lifetime.py).
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


LONG_WORD = re.compile(rf"\S{{{ECHO_LIMIT + 1},}}")


def bounded_error(text: str) -> str:
    """An error message with every long run of non-space characters (an echoed id, a pasted blob)
    cut to `ECHO_LIMIT` and the whole text to `ERROR_TEXT_LIMIT`."""
    text = LONG_WORD.sub(lambda m: m.group(0)[:ECHO_LIMIT] + "…", text)
    return text if len(text) <= ERROR_TEXT_LIMIT else text[:ERROR_TEXT_LIMIT] + "…"
