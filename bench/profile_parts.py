"""CPU of a profiled run attributed to the parts of an episode.

    python bench/profile_parts.py PROFILE.txt [--episodes N] [--rate 100] [--unmatched 20]

Reads a py-spy raw (collapsed) profile, as `bench/llm_throughput.py --profile` and
`bench/oracle_bench.py --profile` write them, and charges every sample to one part: the first rule
below whose marker is in the sample's stack wins, so the order goes from the specific (the database
copy inside the control route that creates an episode) to the general (whatever is left on the event
loop). A second table charges the samples by their leaf, whatever part they serve: JSON and pydantic
(de)serialisation, logging, the event loop's own work. With `--episodes` (and the sampling rate) each
part is also shown as CPU-ms per episode. py-spy samples only Python frames: the cyclic garbage
collector shows as the frame that set it off, C threads without Python frames as their thread's start.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("database copy (episode create / reset)", (
        "SeedImage.copy_into", "SeedImage.clone", "_new_connection (envs", "EpisodeDatabase.reset",
    )),
    ("database close (episode delete)", ("EpisodeDatabase.close", "EpisodeRegistry.delete")),
    ("expected outcome (ground-truth replay, once per task)", ("expected_outcome (envs/runtime/catalog",)),
    ("finish: state hash, tool log, signed observation", ("EpisodeRegistry.finish", "finish_episode")),
    ("result writing (results.jsonl)", ("(agent-runner/results.py",)),
    ("scoring (scorer service)", ("ScorerService.", "(scorer/")),
    ("user simulator (reading, replies, its gRPC service)", ("SimulatorService.", "(simulator/")),
    ("MCP: server side (domain tools, session)", (
        "EpisodeGate.__call__", "(envs/runtime/mcp_app.py", "(mcp/server/",
    )),
    ("MCP: agent's client session and transport", (
        "(mcp/client/", "(mcp/shared/", "(agent-runner/mcp_session.py", "(httpx2/",
        "(taue/contracts/http_transport.py",
    )),
    ("model calls (agent and LLM user client)", (
        "(taue/contracts/model_clients.py", "(openai/", "(agent-runner/agents/model_agent.py",
        "(genai_prices/", "(agent-runner/pricing.py",
    )),
    ("control API, server side (routes, HTTP)", (
        "(envs/runtime/control_app.py", "(envs/runtime/http_guard.py", "(fastapi/", "(starlette/",
        "(uvicorn/",
    )),
    ("control API, runner's client", ("(agent-runner/control.py",)),
    ("gRPC transport (simulator and scorer calls)", ("(grpc/", "(proto/")),
    ("logging", ("(logging/",)),
    ("runner and episode loop", ("(agent-runner/",)),
    ("HTTP client (aiohttp), not attributed above", ("(aiohttp/",)),
    ("event loop and sockets", ("(asyncio/", "(selectors.py")),
)  # fmt: skip
"""(part, stack markers): a sample goes to the first part with a marker in its stack."""

LEAVES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("JSON and pydantic (de)serialisation", (
        "(json/", "(orjson", "(pydantic/", "(pydantic_core", "model_dump", "model_validate",
        "(google/protobuf/",
    )),
    ("SQLite and SQLAlchemy", ("(sqlalchemy/", "(sqlmodel/", "<sqlalchemy", "(envs/runtime/database.py")),
    ("logging", ("(logging/",)),
    ("event loop, tasks, sockets", ("(asyncio/", "(selectors.py", "(anyio/", "(sniffio/")),
    ("HTTP parsing and writing", ("(aiohttp/", "(uvicorn/", "(h11/", "(httptools", "(httpx2/")),
    ("web framework (FastAPI, Starlette)", ("(fastapi/", "(starlette/")),
    ("gRPC", ("(grpc/",)),
)  # fmt: skip
"""(kind, leaf markers): the last few frames of a sample decide what kind of work it was."""


def read_samples(path: str) -> list[tuple[list[str], int]]:
    samples = []
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            samples.append((stack.split(";"), int(count)))
    return samples


def part_of(frames: list[str]) -> str:
    stack = ";".join(frames)
    for part, markers in PARTS:
        if any(marker in stack for marker in markers):
            return part
    return "other (start-up, CLI, threads without Python frames)"


def kind_of(frames: list[str], depth: int = 3) -> str:
    leaf = ";".join(frames[-depth:])
    for kind, markers in LEAVES:
        if any(marker in frames[-1] for marker in markers):
            return kind
    for kind, markers in LEAVES:
        if any(marker in leaf for marker in markers):
            return kind
    return "other"


def attribute(path: str) -> tuple[Counter[str], Counter[str], int]:
    parts: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    total = 0
    for frames, count in read_samples(path):
        parts[part_of(frames)] += count
        kinds[kind_of(frames)] += count
        total += count
    return parts, kinds, total


def table(title: str, counts: Counter[str], total: int, per_episode: float | None) -> list[str]:
    unit = " | CPU-ms per episode" if per_episode else ""
    lines = [f"| {title} | share of samples{unit} |", "|---|---|" + ("---|" if per_episode else "")]
    for name, count in counts.most_common():
        cost = f" | {count * per_episode:.2f}" if per_episode else ""
        lines.append(f"| {name} | {100 * count / total:.1f} %{cost} |")
    return lines


def report(path: str, episodes: int | None = None, rate: int = 100) -> str:
    parts, kinds, total = attribute(path)
    per_episode = 1000 / rate / episodes if episodes else None
    lines = [f"{total} samples at {rate} Hz ({total / rate:.1f} CPU-s sampled)", ""]
    lines += [*table("part", parts, total, per_episode), ""]
    lines += table("kind of work (by leaf frames)", kinds, total, per_episode)
    return "\n".join(lines)


def unmatched(path: str, count: int) -> list[tuple[int, str]]:
    """The most frequent leaves of samples no part claimed (to extend the rules)."""
    leaves: Counter[str] = Counter()
    for frames, samples in read_samples(path):
        if part_of(frames).startswith("other"):
            leaves[" < ".join(reversed(frames[-3:]))] += samples
    return [(n, leaf) for leaf, n in leaves.most_common(count)]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("profile")
    parser.add_argument("--episodes", type=int, help="episodes of the profiled process (CPU-ms per episode)")
    parser.add_argument("--rate", type=int, default=100, help="py-spy's sampling rate (Hz)")
    parser.add_argument("--unmatched", type=int, default=0, help="show this many unclaimed leaves")
    args = parser.parse_args()
    print(report(args.profile, args.episodes, args.rate))
    for n, leaf in unmatched(args.profile, args.unmatched):
        print(f"{n:6d}  {leaf}")


if __name__ == "__main__":
    main()
