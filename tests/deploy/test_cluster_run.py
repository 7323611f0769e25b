"""`taue cluster run`: the manifests of one leaderboard run pass `kubernetes-validate --strict` and say
what the run needs (read back here: names, ConfigMap, storage URL, shards, NetworkPolicies); the vLLM
model servers of the leaderboard overlay; the merge step run for real on two small shards."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from taue.cli import app
from taue.cli.settings import settable_options
from taue.contracts.integrity import SigningKey
from taue.contracts.run import RunConfig
from taue.deploy.cluster import ClusterRun, render_manifests, run_settings
from taue.deploy.render import deployment_order
from taue.runner.results import ResultsFile
from taue.runner.runner import execute_run
from tests.deploy.helpers import (
    DOMAINS,
    RUNNER,
    Manifest,
    assert_cli_accepts,
    by_kind,
    flag,
    ingress_sources,
    taue_command,
    validate,
)

pytestmark = pytest.mark.xdist_group("deploy-cluster")

NAME = "qwen3-8b-seed0"
STORAGE = "s3://bench-results/taue"
AGENT = "http://my-agent.agents.svc.cluster.local:8080"
IMAGE = "registry.example.com/tau-emotion-bench@sha256:" + "ab" * 32  # a run's image is pinned by digest
ARGS = ["cluster", "run", "--agent", AGENT, "--user", "llm", "--name", NAME, "--storage", STORAGE]
ARGS += ["--image", IMAGE]
VARIABLE = re.compile(r"\$\(([A-Z_]+)\)")


def taue(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})


def cluster_run(*extra: str) -> list[Manifest]:
    result = taue(*ARGS, *extra)
    assert result.exit_code == 0, result.output
    return [doc for doc in yaml.safe_load_all(result.stdout) if doc]


@pytest.fixture(scope="module")
def docs() -> list[Manifest]:
    return cluster_run("--shards", "8")


def config_of(docs: list[Manifest]) -> dict[str, str]:
    return by_kind(docs, "ConfigMap")[f"taue-{NAME}-run"]["data"]


def resolved(container: Manifest, config: dict[str, str]) -> list[str]:
    """The container's arguments with each `$(VAR)` replaced as the kubelet does; every variable must
    come from the run's ConfigMap (JOB_COMPLETION_INDEX is the pod's index, kept)."""
    sources = {e["name"]: e["valueFrom"] for e in container["env"] if "valueFrom" in e}

    def value(match: re.Match[str]) -> str:
        name = match[1]
        if name == "JOB_COMPLETION_INDEX":
            return match[0]
        assert sources[name] == {"configMapKeyRef": {"name": f"taue-{NAME}-run", "key": name}}, name
        return config[name]

    return [VARIABLE.sub(value, arg) for arg in container["args"]]


def pod_env(
    container: Manifest, config: dict[str, str], secrets: dict[tuple[str, str], str]
) -> dict[str, str]:
    """The container's environment as the kubelet makes it from the ConfigMap and the Secrets given."""
    env = {}
    for entry in container["env"]:
        source = entry.get("valueFrom", {})
        if "value" in entry:
            env[entry["name"]] = entry["value"]
        elif "configMapKeyRef" in source:
            assert source["configMapKeyRef"]["name"] == f"taue-{NAME}-run", entry
            env[entry["name"]] = config[source["configMapKeyRef"]["key"]]
        else:
            ref = source["secretKeyRef"]
            if (ref["name"], ref["key"]) in secrets:
                env[entry["name"]] = secrets[ref["name"], ref["key"]]
            else:
                assert ref.get("optional"), f"the pod would not start without Secret {ref['name']}"
    return env


def secret_refs(container: Manifest) -> dict[str, Manifest]:
    """Variable -> its secretKeyRef, for every variable the container takes from a Secret."""
    return {
        e["name"]: e["valueFrom"]["secretKeyRef"]
        for e in container["env"]
        if "secretKeyRef" in e.get("valueFrom", {})
    }


@pytest.mark.parametrize("style", ["file", "flags"])
def test_shard_pods_get_the_token_and_only_the_merge_job_the_signing_key(style: str) -> None:
    """Runner pods carry signed records and never hold the key; the merge Job verifies with it (`taue
    merge` and `taue leaderboard` read TAUE_SIGNING_KEY) and needs no token."""
    run = ClusterRun(name=NAME, agent="model", user="llm", storage=STORAGE, image=IMAGE)
    jobs = by_kind(render_manifests(run, DOMAINS, style), "Job")
    [shard] = jobs[f"taue-{NAME}"]["spec"]["template"]["spec"]["containers"]
    [merge] = jobs[f"taue-{NAME}-merge"]["spec"]["template"]["spec"]["containers"]
    assert secret_refs(shard) == {
        "TAUE_ADMIN_TOKEN": {"name": "taue-admin", "key": "token"},
        "TAUE_AGENT_API_KEY": {"name": "taue-llm", "key": "agent-api-key", "optional": True},
        "TAUE_USER_API_KEY": {"name": "taue-llm", "key": "user-api-key", "optional": True},
    }
    assert secret_refs(merge) == {"TAUE_SIGNING_KEY": {"name": "taue-signing", "key": "key"}}
    for container in (shard, merge):
        assert container["envFrom"] == [{"secretRef": {"name": "taue-storage", "optional": True}}]
    assert not any(e["name"].startswith("TAUE_SIGNING_KEY") for e in shard["env"]), (
        "no shard pod holds the key"
    )


def test_the_manifests_pass_strict_validation(docs: list[Manifest]) -> None:
    assert [doc["kind"] for doc in docs] == ["ConfigMap", "NetworkPolicy", "NetworkPolicy", "Job", "Job"]
    assert validate.validate_manifests(docs) == []
    assert validate.validate_with_cli(docs) == []  # `... | kubernetes-validate --strict -k 1.33 -`
    file_style = render_manifests(ClusterRun(name=NAME, agent="model", storage=STORAGE), DOMAINS, "file")
    assert validate.validate_manifests(file_style) == []


def test_every_name_carries_the_run_so_two_runs_coexist(docs: list[Manifest]) -> None:
    keys = [(doc["kind"], doc["metadata"]["name"]) for doc in docs]
    assert len(set(keys)) == len(keys)
    for doc in docs:
        assert NAME in doc["metadata"]["name"] and doc["metadata"]["namespace"] == "taue-leaderboard"
        assert doc["metadata"]["labels"]["taue.dev/run"] == NAME
    for job in by_kind(docs, "Job").values():
        assert job["spec"]["template"]["metadata"]["labels"]["taue.dev/run"] == NAME
    other = cluster_run("--shards", "8", "--name", "other-run")
    assert not {(d["kind"], d["metadata"]["name"]) for d in other} & set(keys)


def run_options_from_file(toml: str, folder: Path) -> dict[str, Any]:
    """What `taue run --config FILE` reads from the rendered run.toml, through the CLI's own loader:
    each settings key with the value the run command would get for its option."""
    path = folder / "run.toml"
    path.write_text(toml)
    run = taue_command(["run"])
    with run.make_context("run", ["--config", str(path)]) as ctx:
        options = settable_options(run)
        assert ctx.get_parameter_source(options["agent"].name).name == "DEFAULT_MAP"
        return {key: ctx.params[options[key].name] for key in tomllib.loads(toml)}


def test_the_shard_job_takes_its_settings_from_the_config_map(docs: list[Manifest], tmp_path: Path) -> None:
    job = by_kind(docs, "Job")[f"taue-{NAME}"]
    spec = job["spec"]
    assert (spec["completionMode"], spec["completions"], spec["parallelism"]) == ("Indexed", 8, 8)
    assert spec["backoffLimitPerIndex"] >= 1
    assert {
        "action": "FailIndex",
        "onExitCodes": {"containerName": "runner", "operator": "In", "values": [2]},
    } in spec["podFailurePolicy"]["rules"]
    pod = spec["template"]
    assert pod["metadata"]["labels"]["app.kubernetes.io/component"] == RUNNER["app.kubernetes.io/component"]
    [container] = pod["spec"]["containers"]
    assert_cli_accepts(container["args"])
    config = config_of(docs)
    args = resolved(container, config)
    assert args[:2] == ["run", "--config=/etc/taue/run.toml"], "taue run has --config: the file style"
    assert flag(args, "--shard") == ["$(JOB_COMPLETION_INDEX)/8"]
    assert flag(args, "--out") == [f"{STORAGE}/runs/{NAME}/shard-$(JOB_COMPLETION_INDEX)"]
    settings = tomllib.loads(config["run.toml"])
    read = run_options_from_file(config["run.toml"], tmp_path)
    for key, value in settings.items():
        assert (list(read[key]) if isinstance(value, list) else read[key]) == value, key
    assert settings["thinking"] is False, "the in-cluster vLLM serves Qwen3"
    assert settings["env"] == [f"{d}=http://{d}:9000" for d in deployment_order(DOMAINS)]
    assert settings["agent"] == AGENT and settings["name"] == NAME and settings["quiet"] is True
    assert settings["user_base_url"] == "http://vllm-user.taue-leaderboard.svc.cluster.local:8000/v1"
    assert "model" not in settings, "an outside agent needs no agent model"


def test_every_setting_of_a_model_run_is_a_taue_run_option(tmp_path: Path) -> None:
    """The settings of the fullest run (model agent, LLM user, thinking) load without error."""
    run = ClusterRun(name=NAME, agent="model", user="llm", storage=STORAGE, enable_thinking=True)
    [config, *_] = render_manifests(run, DOMAINS, "file")
    toml = config["data"]["run.toml"]
    read = run_options_from_file(toml, tmp_path)
    assert set(read) == set(tomllib.loads(toml)) >= {"model", "base_url", "user_model", "user_base_url"}
    assert read["thinking"] is True and read["user"] == "llm" and read["concurrency"] == 32


def test_with_a_config_option_the_job_passes_the_file_instead_of_flags() -> None:
    run = ClusterRun(name=NAME, agent="model", storage=STORAGE, shards=3)
    [config, *_, job, _merge] = render_manifests(run, DOMAINS, "file")
    pod = job["spec"]["template"]["spec"]
    [container] = pod["containers"]
    assert container["args"] == [
        "run",
        "--config=/etc/taue/run.toml",
        "--shard=$(JOB_COMPLETION_INDEX)/3",
        "--out=$(TAUE_STORAGE)/runs/$(TAUE_NAME)/shard-$(JOB_COMPLETION_INDEX)",
    ]
    assert (
        resolved(container, config["data"])[-1]
        == f"--out={STORAGE}/runs/{NAME}/shard-$(JOB_COMPLETION_INDEX)"
    )
    [mount] = [m for m in container["volumeMounts"] if m["name"] == "settings"]
    assert mount == {"name": "settings", "mountPath": "/etc/taue", "readOnly": True}
    assert {"name": "settings", "configMap": {"name": f"taue-{NAME}-run"}} in pod["volumes"]
    settings = tomllib.loads(config["data"]["run.toml"])
    assert settings["model"] == "Qwen/Qwen3-8B" and settings["thinking"] is False
    assert settings["base_url"] == "http://vllm-agent.taue-leaderboard.svc.cluster.local:8000/v1"
    assert "TAUE_AGENT" not in config["data"], "no flag values beside the file"


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({}, None),  # oracle + scripted: no model endpoint at all
        ({"agent": "model"}, False),  # the in-cluster vLLM (Qwen3): thinking off
        ({"agent": "model", "agent_base_url": "https://api.example.com/v1"}, None),  # nothing sent
        ({"user": "llm", "enable_thinking": True}, True),
    ],
)
def test_the_thinking_switch_defaults_to_off_only_for_the_in_cluster_servers(
    extra: dict[str, Any], expected: bool | None
) -> None:
    settings = run_settings(
        ClusterRun(**{"name": NAME, "agent": "oracle", "storage": STORAGE, **extra}), DOMAINS
    )
    assert settings.get("thinking") == expected


def test_the_run_policies_open_model_servers_and_mcp_ports_only(
    docs: list[Manifest], rendered: dict[str, list[Manifest]]
) -> None:
    services = rendered["k8s/overlays/leaderboard"]
    run_policies = list(by_kind(docs, "NetworkPolicy").values())
    policies = list(by_kind(services, "NetworkPolicy").values()) + run_policies
    pods = {
        n: d["spec"]["template"]["metadata"]["labels"] for n, d in by_kind(services, "Deployment").items()
    }
    shard_pod = by_kind(docs, "Job")[f"taue-{NAME}"]["spec"]["template"]["metadata"]["labels"]
    simulator = {"app.kubernetes.io/component": "simulator"}
    assert simulator.items() <= pods["simulator"].items()
    for server in ("vllm-agent", "vllm-user"):
        assert ingress_sources(run_policies, pods[server], 8000) == [
            {"podSelector": {"matchLabels": shard_pod}},  # this run's shard pods, no other run's
            {"podSelector": {"matchLabels": simulator}},  # the LLM user runs in the simulator service
        ]
    agents = {"namespaceSelector": {"matchLabels": {"taue.dev/agent-under-test": "true"}}}
    for domain in DOMAINS:
        assert ingress_sources(run_policies, pods[domain], 8000) == [agents]
        assert all(
            s == {"podSelector": {"matchLabels": RUNNER}}
            for s in ingress_sources(policies, pods[domain], 9000)
        )
    for service, port in (("simulator", 50051), ("scorer", 50052)):
        assert ingress_sources(run_policies, pods[service], port) == [], "the run opens nothing else"


def test_the_model_servers_serve_qwen3_with_tool_and_reasoning_parsers(
    docs: list[Manifest], rendered: dict[str, list[Manifest]]
) -> None:
    services = rendered["k8s/overlays/leaderboard"]
    settings = tomllib.loads(config_of(docs)["run.toml"])
    claims = by_kind(services, "PersistentVolumeClaim")
    for role in ("agent", "user"):
        name = f"vllm-{role}"
        deployment = by_kind(services, "Deployment")[name]
        config = by_kind(services, "ConfigMap")[name]["data"]
        pod = deployment["spec"]["template"]["spec"]
        [container] = pod["containers"]
        assert container["envFrom"] == [{"configMapRef": {"name": name}}]
        defined = set(config) | {e["name"] for e in container["env"]}
        assert {v for arg in container["args"] for v in VARIABLE.findall(arg)} <= defined
        args = [VARIABLE.sub(lambda m, values=config: values[m[1]], arg) for arg in container["args"]]
        assert {"--model=Qwen/Qwen3-8B", "--enable-auto-tool-choice", "--port=8000"} <= set(args)
        assert {"--tool-call-parser=hermes", "--reasoning-parser=qwen3"} <= set(args)
        gpus = config["VLLM_TENSOR_PARALLEL_SIZE"]
        assert container["resources"]["requests"]["nvidia.com/gpu"] == gpus
        assert container["resources"]["limits"]["nvidia.com/gpu"] == gpus
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            assert container[probe]["httpGet"] == {"path": "/health", "port": "http"}
        [models] = [v for v in pod["volumes"] if v["name"] == "models"]
        assert models["persistentVolumeClaim"]["claimName"] in claims
        assert {"name": "models", "mountPath": "/models"} in container["volumeMounts"]
        assert {"name": "HF_HOME", "value": "/models/huggingface"} in container["env"]
        assert deployment["spec"]["strategy"] == {"type": "Recreate"}, "one claim, one GPU: no overlap"
        service = by_kind(services, "Service")[name]["spec"]
        assert service["selector"].items() <= deployment["spec"]["template"]["metadata"]["labels"].items()
        assert service["ports"][0]["port"] == 8000
    assert settings["user_base_url"].startswith("http://vllm-user.taue-leaderboard.svc.cluster.local:8000/")
    component_policy = by_kind(services, "NetworkPolicy")["model-servers-from-runner-and-simulator"]
    sources = [s["podSelector"]["matchLabels"] for s in component_policy["spec"]["ingress"][0]["from"]]
    assert sources == [RUNNER, {"app.kubernetes.io/component": "simulator"}]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--name", "Qwen3_8B"], "--name must be a DNS-1123 label"),
        (["--name", "a" * 41], "at most 40 characters"),
        (["--shards", "0"], "--shards must be at least 1"),
        (["--storage", "http://bucket/prefix"], "--storage must be a URL starting with s3://"),
        (["--storage", "bucket/prefix"], "--storage must be a URL"),
        (["--namespace", "Leader_Board"], "--namespace must be a DNS-1123 label"),
        (["--agent", "robot"], "unknown agent 'robot'"),
    ],
)
def test_bad_settings_are_one_line_errors(args: list[str], message: str) -> None:
    result = taue(*ARGS, *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr


def test_apply_pipes_the_manifests_to_kubectl(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    received = tmp_path / "received.yaml"
    kubectl = tmp_path / "bin" / "kubectl"  # a stand-in for the external tool: records what it is given
    kubectl.parent.mkdir()
    kubectl.write_text(
        f"#!{sys.executable}\nimport sys\n"
        f"open({str(received)!r}, 'w').write(' '.join(sys.argv[1:]) + '\\n' + sys.stdin.read())\n"
    )
    kubectl.chmod(0o755)
    monkeypatch.setenv("PATH", str(kubectl.parent))
    result = taue(*ARGS, "--shards", "2", "--apply")
    assert result.exit_code == 0, result.output
    command, manifests = received.read_text().split("\n", 1)
    assert command == "apply -f -"
    assert manifests == taue(*ARGS, "--shards", "2").stdout
    kubectl.unlink()
    missing = taue(*ARGS, "--apply")
    assert missing.exit_code == 2 and missing.stdout == ""
    assert missing.stderr.startswith("error: kubectl is not installed") and missing.stderr.count("\n") == 1


async def test_the_merge_step_publishes_the_merged_run_once_every_shard_is_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The merge Job's script, run by sh on two real shards in a local folder standing for the bucket,
    with the environment the pod gets: it verifies the shards' signatures with the Secret's key."""
    storage = tmp_path / "bucket"
    key = SigningKey.random()
    monkeypatch.setenv("TAUE_SIGNING_KEY", key.text)  # the key the (here embedded) servers sign with
    for index in range(2):
        config = RunConfig(run=NAME, domains=["airline"], agent="oracle", trials=1, limit=2, shard=(index, 2))
        await execute_run(config, storage / "runs" / NAME / f"shard-{index}", {}, 2)
    monkeypatch.delenv("TAUE_SIGNING_KEY")
    merge = by_kind(cluster_run("--shards", "2"), "Job")[f"taue-{NAME}-merge"]
    [container] = merge["spec"]["template"]["spec"]["containers"]
    assert container["command"] == ["/bin/sh", "-ec"]
    script = container["args"][0]
    steps = [line for line in script.splitlines() if line.lstrip().startswith(("until taue", "taue"))]
    for step in steps:
        words = shlex.split(step.removeprefix("until ").removesuffix("; do"))
        assert_cli_accepts(words[1:])
    assert steps[-1] == 'taue leaderboard "$TAUE_STORAGE/runs/" --out "$TAUE_STORAGE/site" --quiet'
    assert merge["spec"]["activeDeadlineSeconds"] > 0, "the wait for the shards must end"
    # Reading a storage prefix is the leaderboard's part; here the script runs up to the board.
    before_board = script.replace(steps[-1], "").replace("/tmp/merged", str(tmp_path / "merged"))
    config = {"TAUE_STORAGE": str(storage), "TAUE_NAME": NAME}

    def run_in_pod(commands: str, signing_key: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TAUE_")}  # no key of the test's
        env |= pod_env(container, config, {("taue-signing", "key"): signing_key}) | {"TMPDIR": str(tmp_path)}
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
        return subprocess.run(
            ["/bin/sh", "-ec", commands], env=env, capture_output=True, text=True, timeout=120
        )

    first_merge = before_board.split("\n")[1].removeprefix("until ").removesuffix("; do")
    assert first_merge.startswith("taue merge "), "the first try of the wait, alone"
    elsewhere = run_in_pod(before_board.split("\n")[0] + "\n" + first_merge, SigningKey.random().text)
    assert elsewhere.returncode == 2, "shards signed with another key than the Secret's are refused"
    assert "which is not a trusted key" in elsewhere.stderr and "--allow-self-signed" in elsewhere.stderr
    assert not (storage / "runs" / NAME / "results.jsonl").exists(), "nothing published"
    done = run_in_pod(before_board, key.text)
    assert done.returncode == 0, done.stderr
    merged = ResultsFile(storage / "runs" / NAME).load()
    shards = [r for i in range(2) for r in ResultsFile(storage / "runs" / NAME / f"shard-{i}").load()]
    assert len(merged) == 2 and {r.key for r in merged} == {r.key for r in shards}
    assert all(r.integrity and r.integrity.scorer_key_id == key.id for r in merged), "signed, checked"
