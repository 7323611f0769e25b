"""Runs in an object store, against a real S3-compatible server (moto's, run as a process on 127.0.0.1):
two shards write to S3, one is killed with SIGKILL mid-run and resumed, and their merge from S3 holds
the records of an unsharded local run; summary, report, gate and leaderboard read the URLs; a bad URL
or an unreachable store is a one-line error."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.report.run_data import open_infra_errors
from taue.runner.results import ResultsFile
from taue.runner.storage import RunLocation, StorageError

pytest.importorskip(
    "moto.server", reason="the S3-compatible test server (moto[server], test extra) is missing"
)
pytest.importorskip("s3fs", reason="the S3 backend (s3fs, extras s3 and test) is missing")
import boto3  # installed with moto

pytestmark = pytest.mark.xdist_group("object-storage")

BUCKET = "taue-runs"
TAUE = [sys.executable, "-m", "taue"]
RUN = ("run", "--domains", "airline", "--agent", "oracle", "--trials", "2", "--limit", "4", "--quiet")
SHARD_EPISODES = 4
"""Episodes of each of the two shards: 4 tasks x 2 trials, halved."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class S3Server:
    endpoint: str
    process: subprocess.Popen

    def client(self):
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
            region_name="us-east-1",
        )

    def objects(self, prefix: str) -> list[str]:
        listing = self.client().list_objects_v2(Bucket=BUCKET, Prefix=prefix)
        return sorted(item["Key"] for item in listing.get("Contents", []))

    def get(self, key: str) -> bytes:
        return self.client().get_object(Bucket=BUCKET, Key=key)["Body"].read()


def start_s3_server(log: Path) -> S3Server:
    """moto's S3 server on an ephemeral loopback port, with the test bucket created."""
    port = free_port()
    with log.open("wb") as out:
        command = [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)]
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    server = S3Server(f"http://127.0.0.1:{port}", process)
    deadline = time.monotonic() + 30
    while True:
        try:
            server.client().create_bucket(Bucket=BUCKET)
            return server
        except Exception as exc:  # not answering yet: connection refused
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(
                    f"moto's S3 server did not start ({exc}): {log.read_text()[-2000:]}"
                ) from None
            time.sleep(0.1)


def aws_variables(endpoint: str, home: Path) -> dict[str, str]:
    """The standard AWS variables for `endpoint`, and no user config file that could override them."""
    return {
        "AWS_ENDPOINT_URL": endpoint,
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_CONFIG_FILE": str(home / "aws-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(home / "aws-credentials"),
    }


@pytest.fixture(scope="module")
def s3(tmp_path_factory: pytest.TempPathFactory) -> Iterator[S3Server]:
    """The server, with the AWS variables set for this process and the `taue` processes it starts."""
    home = tmp_path_factory.mktemp("s3")
    server = start_s3_server(home / "moto.log")
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.delenv("AWS_PROFILE", raising=False)
            for name, value in aws_variables(server.endpoint, home).items():
                patch.setenv(name, value)
            yield server
    finally:
        server.process.kill()
        server.process.wait()


def taue(*args: str) -> tuple[int, str, str]:
    """The CLI in this process: (exit code, stdout, stdout and stderr)."""
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "300"})
    return result.exit_code, result.stdout, result.output


def url(key: str) -> str:
    return f"s3://{BUCKET}/{key}"


def comparable(run: str | Path) -> list[dict]:
    records = ResultsFile(RunLocation.parse(str(run))).load()
    return sorted(
        ({**r.without_clock(), "run": None} for r in records), key=lambda r: (r["task_id"], r["trial"])
    )


@dataclass(frozen=True)
class Runs:
    local: Path
    killed_with: int
    """Episode objects shard 0 had stored when it was killed."""
    resumed_output: str
    shard_objects_after_resume: list[str]


def kill_after_first_episode(s3: S3Server, process: subprocess.Popen, prefix: str) -> None:
    deadline = time.monotonic() + 60
    while not s3.objects(f"{prefix}/episodes/"):
        assert process.poll() is None, "the shard ended before it stored an episode"
        assert time.monotonic() < deadline, "the shard stored no episode within 60 s"
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()


@pytest.fixture(scope="module")
def runs(s3: S3Server, tmp_path_factory: pytest.TempPathFactory) -> Runs:
    """Shards 0 and 1 of one run in S3 (shard 0, one episode at a time, killed with SIGKILL after its
    first stored episode, then resumed), their merge in S3, and the same run unsharded on disk."""
    first = [*TAUE, *RUN, "--shard", "0/2", "--out", url("runs/x/shard-0")]
    second = subprocess.Popen(
        [*TAUE, *RUN, "--shard", "1/2", "--out", url("runs/x/shard-1")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    killed = subprocess.Popen(
        [*first, "--concurrency", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    kill_after_first_episode(s3, killed, "runs/x/shard-0")
    stored = s3.objects("runs/x/shard-0/")
    episodes = [key for key in stored if "/episodes/" in key]
    assert "runs/x/shard-0/results.jsonl" not in stored, "the shard finished before it was killed"
    assert 1 <= len(episodes) < SHARD_EPISODES, stored
    resumed = subprocess.run(
        first, capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "300"}
    )
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert second.wait(timeout=120) == 0, second.stdout.read() if second.stdout else ""
    code, _, output = taue(
        "merge", url("runs/x/shard-0"), url("runs/x/shard-1"), "--out", url("runs/x/merged")
    )
    assert code == 0, output
    local = tmp_path_factory.mktemp("local") / "whole"
    code, _, output = taue(*RUN, "--out", str(local))
    assert code == 0, output
    return Runs(local, len(episodes), resumed.stdout + resumed.stderr, s3.objects("runs/x/shard-0/"))


def test_a_shard_killed_mid_run_resumes_and_the_merge_from_s3_equals_an_unsharded_local_run(
    runs: Runs, s3: S3Server
) -> None:
    done = runs.killed_with
    assert f"{SHARD_EPISODES - done} episodes run, {done} already done, 0 failed" in runs.resumed_output
    assert runs.shard_objects_after_resume == [
        "runs/x/shard-0/manifest.json",  # sealed before the first episode, reused by the resume
        "runs/x/shard-0/results.jsonl",  # compacted; the episode objects removed only after it was written
        "runs/x/shard-0/run.json",
    ]
    merged = comparable(url("runs/x/merged"))
    assert len(merged) == 2 * SHARD_EPISODES
    assert merged == comparable(runs.local)
    lines = s3.get("runs/x/merged/results.jsonl").decode().splitlines()
    assert [json.loads(line)["run"] for line in lines] == ["merged"] * len(merged)
    local_order = [
        (r["task_id"], r["trial"])
        for r in map(json.loads, (runs.local / "results.jsonl").read_text().splitlines())
    ]
    assert [(r["task_id"], r["trial"]) for r in map(json.loads, lines)] == local_order


def test_summary_report_gate_and_leaderboard_read_the_urls(runs: Runs, s3: S3Server, tmp_path: Path) -> None:
    code, remote, output = taue("summary", url("runs/x/merged"), "--json")
    assert code == 0, output
    merged, local = json.loads(remote), json.loads(taue("summary", str(runs.local), "--json")[1])
    assert merged.pop("verification")["label"] == local.pop("verification")["label"] == "self-signed"
    assert merged == local
    code, _, output = taue("report", url("runs/x/merged"), "--out", str(tmp_path / "report.html"), "--quiet")
    assert code == 0, output
    assert url("runs/x/merged") in (tmp_path / "report.html").read_text()
    code, verdict, output = taue("gate", url("runs/x/merged"), "--baseline", str(runs.local), "--json")
    assert code == 0, output
    assert json.loads(verdict)["paired_tasks"] == 4 and json.loads(verdict)["drop"] == 0
    code, _, output = taue("leaderboard", url("runs/x/"), "--out", url("site"), "--quiet")
    assert code == 2 and "appears twice" in output  # every run below: the shards and their merge
    board = ("--out", url("site"), "--quiet", "--allow-partial", "--allow-self-signed")
    code, _, output = taue("leaderboard", url("runs/x/merged"), *board)
    assert code == 0, output
    rows = json.loads(s3.get("site/leaderboard.json"))
    assert [row["run"] for row in rows] == ["merged"]
    assert {f"site/{row['page']}" for row in rows} | {"site/index.html"} <= set(s3.objects("site/"))


def test_episode_objects_win_over_the_compacted_file_and_errors_are_objects(runs: Runs, s3: S3Server) -> None:
    location = RunLocation.parse(url("units/objects"))
    results = ResultsFile(location)
    first, second = ResultsFile(runs.local).load()[:2]
    results.append(first)
    results.append(second)
    assert results.exists() and len(s3.objects("units/objects/episodes/")) == 2
    assert results.compact() == sorted([first, second], key=lambda r: r.key)
    assert s3.objects("units/objects/") == ["units/objects/results.jsonl"]
    changed = second.model_copy(update={"reward": -1})
    results.append(changed)
    assert {r.key: r.reward for r in results.load()} == {first.key: first.reward, second.key: -1}
    entry = {"domain": "airline", "task_id": "airline-999", "trial": 1, "termination": "infra_error"}
    results.append_error({**entry, "errors": ["boom"]})
    results.append_error({**entry, "errors": ["boom again"]})
    assert [e["errors"] for e in sorted(results.errors(), key=lambda e: e["errors"])] == [
        ["boom"],
        ["boom again"],
    ]
    assert open_infra_errors(location, results.load()) == [("airline", "airline-999", 1)]


def one_error_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert "Traceback" not in output, output
    assert len(lines) == 1 and lines[0].startswith("error: "), output
    return lines[0]


def test_bad_urls_are_one_line_errors(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, output = taue(*RUN, "--out", "ftp://host/runs/x")
    assert code == 2 and "unsupported storage URL ftp://host/runs/x" in one_error_line(output)
    code, _, output = taue("merge", "s3://", "--out", "merged")
    assert code == 2 and "s3:// names no bucket" in one_error_line(output)
    mangled = {
        "s3:///etc/passwd": "starts its bucket with '/'",
        "s3://bucket": "names only a bucket",
        "s3://bucket/runs/../../other": "'..' path segment",
        "s3://bucket/runs//x": "empty, '.' or '..' path segment",
        "gs://bucket/./x": "empty, '.' or '..' path segment",
    }
    for bad, reason in mangled.items():
        code, _, output = taue(*RUN, "--out", bad)
        assert code == 2 and f"{bad} " in output and reason in one_error_line(output), output
        with pytest.raises(StorageError, match="/PREFIX"):
            RunLocation.parse(bad)
    monkeypatch.setitem(sys.modules, "gcsfs", None)  # as if the gcs extra were not installed
    code, _, output = taue("summary", "gs://bucket/runs/x")
    assert code == 2 and "pip install 'tau-emotion-bench[gcs]'" in one_error_line(output)
    with pytest.raises(StorageError, match=r"gcsfs"):
        RunLocation.parse("gs://bucket/x")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing written


def test_a_missing_bucket_or_an_unreachable_store_is_one_line_exit_2_before_the_run(
    s3: S3Server, tmp_path: Path
) -> None:
    code, _, output = taue(*RUN, "--out", "s3://no-such-bucket/runs/x")
    assert code == 2 and "no-such-bucket" in one_error_line(output)
    unreachable = {
        **os.environ,
        "AWS_ENDPOINT_URL": f"http://127.0.0.1:{free_port()}",
        "AWS_MAX_ATTEMPTS": "1",
    }
    for command in ([*RUN, "--out", url("runs/y")], ["summary", url("runs/x/merged")]):
        done = subprocess.run(
            [*TAUE, *command], capture_output=True, text=True, env=unreachable, cwd=tmp_path, timeout=60
        )
        assert done.returncode == 2, done.stderr
        assert "Could not connect" in one_error_line(done.stderr.replace("\r", "\n"))
    assert list(tmp_path.iterdir()) == []


def test_a_store_lost_during_a_run_stops_it_with_exit_1_keeping_what_was_stored(tmp_path: Path) -> None:
    server = start_s3_server(tmp_path / "moto.log")
    environment = {**os.environ, **aws_variables(server.endpoint, tmp_path), "AWS_MAX_ATTEMPTS": "1"}
    try:
        process = subprocess.Popen(
            [*TAUE, *RUN, "--concurrency", "1", "--out", url("runs/lost")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
        )
        deadline = time.monotonic() + 60
        while not server.objects("runs/lost/episodes/"):
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.02)
    finally:
        server.process.kill()
        server.process.wait()
    _, errors = process.communicate(timeout=60)
    assert process.returncode == 1, errors
    line = one_error_line(errors)
    assert "Could not connect" in line and "rerun to resume" in line
