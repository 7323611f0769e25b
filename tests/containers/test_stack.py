"""The stack of docker-compose.yml, for real (issue 38): built from this tree, started with `up -d --wait`
on the machine's engine (Docker Engine 20.10 with Compose v2 on Debian 12), driven from the host as a
user and an agent would; in file order, `down -v` last."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from taue.contracts.run import EpisodeRecord
from tests.cli.test_episode_mcp_host import tool_names
from tests.containers.conftest import Running
from tests.containers.engine import sh
from tests.containers.stack import SERVICES, Stack
from tests.deploy.helpers import DOMAINS, flag, validate
from tests.paths import ROOT

pytestmark = [pytest.mark.containers, pytest.mark.slow, pytest.mark.xdist_group("containers")]

SMALL = {"TAUE_DOMAINS": "airline,bank", "TAUE_TRIALS": "1", "TAUE_SEED": "0"}
LIMIT = "3"
AGENTS = ("oracle", "careful-readback")
"""The oracle and a judge-suite agent (asks before each change, reads the plan back)."""


@pytest.mark.timeout(120, func_only=True)
def test_every_service_is_healthy_as_uid_10001_read_only_without_capabilities(running: Running) -> None:
    stack = running.stack
    for service in SERVICES:
        container = stack.container(service)
        attrs = stack.inspect(container)
        assert attrs["State"]["Health"]["Status"] == "healthy", service
        assert attrs["Config"]["User"] == "10001:10001", service
        host = attrs["HostConfig"]
        assert host["ReadonlyRootfs"] is True and host["CapDrop"] == ["ALL"] and not host["CapAdd"], service
        assert "no-new-privileges:true" in host["SecurityOpt"], service
        proc = sh("docker", "exec", container, "cat", "/proc/self/status").splitlines()
        status = dict(line.split(":\t", 1) for line in proc if ":\t" in line)
        assert status["Uid"].split()[:2] == ["10001", "10001"] and int(status["CapEff"], 16) == 0, service
        touch = ["docker", "exec", container, "touch", "/opt/x"]
        write = subprocess.run(touch, capture_output=True, text=True, timeout=60)
        assert write.returncode != 0 and "Read-only file system" in write.stderr, service
    [secrets] = stack.containers("secrets", every=True)
    assert stack.inspect(secrets)["State"]["ExitCode"] == 0


@pytest.mark.timeout(120, func_only=True)
def test_only_the_mcp_ports_are_published_on_loopback(stack: Stack) -> None:
    """Docker's own port bindings: the host reaches a domain's MCP port on 127.0.0.1 and nothing else;
    control (9000), simulator (50051) and scorer (50052) have no binding (the host is not sent to the
    containers' bridge addresses: this stage's traffic stays on loopback)."""
    services = validate.compose_model()["services"]
    for service in SERVICES:
        ports = stack.inspect(stack.container(service))["NetworkSettings"]["Ports"]
        bound = {port: [(b["HostIp"], b["HostPort"]) for b in bs] for port, bs in ports.items() if bs}
        if service in DOMAINS:
            [mcp] = flag(services[service]["command"], "--mcp-port")
            assert bound == {f"{mcp}/tcp": [("127.0.0.1", str(mcp))]}, service
        else:
            assert bound == {}, f"{service} publishes {bound}"


@pytest.mark.timeout(240, func_only=True)
def test_an_mcp_client_on_the_host_uses_the_url_episode_new_printed(stack: Stack) -> None:
    out = stack.runner("episode", "new", "--domain", "airline", "--task", "airline-001")
    lines = {line.split(":", 1)[0]: line.split(":", 1)[1].strip() for line in out.splitlines() if ":" in line}
    url, token = lines["mcp url"], lines["token"]
    episode = url.split("/episodes/")[1].split("/")[0]
    assert url == f"http://localhost:8001/episodes/{episode}/mcp", out
    assert f"(in the servers' network: http://airline:8001/episodes/{episode}/mcp)" in out
    names = asyncio.run(tool_names(url, token))  # the official MCP SDK, on the host
    assert len(names) >= 10 and "calculate" in names


def run_in_compose(stack: Stack, agent: str, name: str, limit: str | None = LIMIT) -> subprocess.Popen[str]:
    shell = {**SMALL, "TAUE_AGENT": agent, "TAUE_RUN_NAME": name}
    container = {"TAUE_LIMIT": limit} if limit else {}
    flags = [f"--env={k}={v}" for k, v in container.items()]
    return stack.start("run", "--rm", *flags, "runner", env=shell)


def finish(process: subprocess.Popen[str], timeout: float = 300) -> tuple[int, str]:
    out, err = process.communicate(timeout=timeout)
    return process.returncode, out + err


def records(run_dir: Path) -> list[EpisodeRecord]:
    lines = (run_dir / "results.jsonl").read_text().splitlines()
    return [EpisodeRecord.model_validate_json(line) for line in lines if line.strip()]


def comparable(run_dir: Path) -> dict[tuple[str, int], dict[str, Any]]:
    return {r.key: {**r.without_clock(), "run": None} for r in records(run_dir)}


def taue(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "taue", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def verify(run_dir: Path, key: Path) -> dict[str, Any]:
    done = taue("verify", str(run_dir), "--key-file", str(key), "--json")
    assert done.returncode == 0, done.stdout[-1500:] + done.stderr[-500:]
    return dict(json.loads(done.stdout))


@pytest.fixture(scope="module")
def key_file(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The stack's signing key (the volume `secrets`), for `taue verify` on the host."""
    path = tmp_path_factory.mktemp("secrets") / "signing-key"
    path.write_text(stack.secret("signing-key") + "\n")
    path.chmod(0o600)
    return path


@pytest.mark.timeout(420, func_only=True)
@pytest.mark.parametrize("agent", AGENTS)
def test_a_compose_run_verifies_and_matches_the_embedded_default(
    stack: Stack, key_file: Path, agent: str, tmp_path: Path
) -> None:
    name = f"ct-{agent}"
    code, output = finish(run_in_compose(stack, agent, name))
    assert code == 0, output[-2000:]
    copied = stack.copy_out(name, tmp_path / "compose")
    assert {"run.json", "results.jsonl", "manifest.json"} <= {p.name for p in copied.iterdir()}
    verify(copied, key_file)
    embedded = tmp_path / "embedded"
    settings = [f"--domains={SMALL['TAUE_DOMAINS']}", f"--trials={SMALL['TAUE_TRIALS']}", "--seed=0"]
    done = taue("run", f"--agent={agent}", *settings, f"--limit={LIMIT}", f"--out={embedded}", "--quiet")
    assert done.returncode == 0, done.stderr[-1500:]
    ours, theirs = comparable(copied), comparable(embedded)
    assert sorted(ours) == sorted(theirs) and len(ours) == 2 * int(LIMIT)
    for key in sorted(ours):
        assert ours[key]["reward"] == theirs[key]["reward"], key
        assert ours[key]["transcript"] == theirs[key]["transcript"], key
        assert ours[key] == theirs[key], key


def crash(stack: Stack, service: str) -> None:
    """SIGKILL to the container's process from the host (what a crash or the OOM killer does): the
    restart policy brings the service back."""
    pid = stack.inspect(stack.container(service))["State"]["Pid"]
    sh("kill", "-9", str(pid))


def lines(run_dir: Path, name: str) -> list[dict[str, Any]]:
    path = run_dir / name
    text = path.read_text() if path.exists() else ""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.mark.timeout(540, func_only=True)
def test_a_domain_and_the_simulator_killed_mid_run_then_a_rerun_loses_nothing(
    stack: Stack, key_file: Path, tmp_path: Path
) -> None:
    """A domain crashes (the restart policy brings it back, and the runner's retries ride it out) and
    the simulator is `docker kill`ed (a stop to Docker: it stays down, so the run gives the rest up as
    infrastructure errors, exit 1); `up -d --wait` brings it back and the rerun completes the run."""
    name = "ct-faults"
    run = run_in_compose(stack, "oracle", name, limit=None)
    wait_for_episodes(stack, run, name)
    crash(stack, "airline")
    simulator = stack.container("simulator")
    sh("docker", "kill", simulator)
    code, output = finish(run)
    disturbed = stack.copy_out(name, tmp_path / "disturbed")
    given_up = [e for e in lines(disturbed, "errors.jsonl") if e.get("termination") == "infra_error"]
    failed = {(e["task_id"], e["trial"]) for e in given_up}
    assert code == 1 and failed, f"exit {code}: {output[-1500:]}"
    recorded = {r.key for r in records(disturbed)}
    assert all(r.reward == 1 for r in records(disturbed)), "an infrastructure error scored as the agent's"
    assert not recorded & failed, "an episode both recorded and given up"
    stack.wait_healthy("airline")
    assert stack.inspect(stack.container("airline"))["RestartCount"] >= 1, "the restart policy"
    assert stack.inspect(simulator)["State"]["Status"] == "exited", "docker kill is a stop to Docker"
    stack.up()
    code, output = finish(run_in_compose(stack, "oracle", name, limit=None))
    assert code == 0, output[-2000:]
    after = stack.copy_out(name, tmp_path / "after")
    keys = [r.key for r in records(after)]
    found = verify(after, key_file)
    assert found["missing"] == [] and found["duplicates"] == [], found  # 0 lost, 0 duplicated
    assert found["records"] == found["planned"] == len(keys) == len(set(keys))
    assert recorded | failed <= set(keys) and all(r.reward == 1 for r in records(after))


def wait_for_episodes(stack: Stack, run: subprocess.Popen[str], name: str, timeout: float = 180) -> None:
    """Until the run's container has recorded a few episodes (read inside it, in /runs/NAME)."""
    deadline = time.monotonic() + timeout
    count = ["sh", "-c", f"cat /runs/{name}/results.jsonl 2>/dev/null | wc -l"]
    while True:
        assert run.poll() is None, "the run ended before the faults"
        assert time.monotonic() < deadline, "the run recorded no episode in time"
        runner = stack.containers("runner")
        exec_count = ["docker", "exec", *runner[:1], *count]
        done = subprocess.run(exec_count, capture_output=True, text=True, timeout=60)
        if runner and done.returncode == 0 and int(done.stdout.strip() or 0) >= 5:
            return
        time.sleep(0.5)


@pytest.mark.timeout(240, func_only=True)
def test_down_v_leaves_no_container_network_or_volume(stack: Stack) -> None:
    """Nothing of the project's: containers, networks, named volumes, nor the anonymous ones its
    containers had (the image's `VOLUME /runs` in each service that mounts no `runs`)."""
    containers = stack.containers(every=True)
    mounted = {m["Name"] for c in containers for m in stack.inspect(c)["Mounts"] if m["Type"] == "volume"}
    assert containers and mounted
    stack.down()
    assert stack.leftovers() == {"containers": [], "networks": [], "volumes": []}
    assert not mounted & set(sh("docker", "volume", "ls", "-q").split()), "anonymous volumes left"
