"""The Kubernetes manifests of one leaderboard run (`taue cluster run`), every name carrying the run's.

For a run NAME with N shards, in the namespace of the leaderboard services (k8s/overlays/leaderboard):

- ConfigMap `taue-NAME-run`: the run's settings as `run.toml`, plus the storage URL and, while
  `taue run` has no `--config`, the values its flags take (`TAUE_<OPTION>` keys);
- Job `taue-NAME`: Indexed, N completions run in parallel; pod I runs `--shard I/N` and writes
  `<storage>/runs/NAME/shard-I`;
- Job `taue-NAME-merge`: waits until `taue merge` of the N shards finds no planned episode missing,
  writes the merged run to `<storage>/runs/NAME` and rebuilds the leaderboard `<storage>/site` from
  every run under `<storage>/runs/`; `taue merge` and `taue leaderboard` verify every record, its
  signatures with the key of the Secret `taue-signing` (`TAUE_SIGNING_KEY`);
- NetworkPolicies `taue-NAME-model-servers` (the run's pods and the simulator may call the vLLM
  servers) and `taue-NAME-agent-mcp` (namespaces labelled `taue.dev/agent-under-test: "true"` may
  call the domains' MCP ports, nothing else). NetworkPolicies add up: the run carries what it needs
  even where the namespace holds only the default-deny base.

Everything carries `taue.dev/run: NAME`: `kubectl delete job,cm,netpol -l taue.dev/run=NAME` removes a run.

Secrets (created out of band): the shard pods get the admin token (`taue-admin`) and never the signing
key, which only the servers that sign and the merge Job that verifies hold (`taue-signing`).
"""

from __future__ import annotations

import json
import re
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict

from taue.deploy.images import ImageError, parse_reference

ConfigStyle = Literal["file", "flags"]
"""How the shard pods get the settings: `--config run.toml` mounted from the ConfigMap, or flags whose
values come from the ConfigMap's keys (for a `taue run` without `--config`)."""
Manifest = dict[str, Any]

STORAGE_SCHEMES = ("s3", "gs", "az", "file")
MAX_NAME = 40
"""Job pods are named `taue-NAME-<index>-<suffix>` and their host names must stay DNS labels (63)."""
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
STORAGE_URL = re.compile(r"^(?P<scheme>[a-z0-9]+)://[A-Za-z0-9._~/:@%+=,-]+$")
DEFAULT_NAMESPACE = "taue-leaderboard"
DEFAULT_MODEL = "Qwen/Qwen3-8B"
PART_OF = "tau-emotion-bench"
RUN_LABEL = "taue.dev/run"
AGENT_UNDER_TEST_LABEL = "taue.dev/agent-under-test"
CONFIG_DIR = "/etc/taue"
CONFIG_FILE = "run.toml"
MODEL_SERVER_PORT = 8000
MCP_PORT = 8000
MERGE_RETRY_SECONDS = 120
ADMIN_TOKEN_VARIABLE = "TAUE_ADMIN_TOKEN"
ADMIN_SECRET = ("taue-admin", "token")
"""The Secret and key of the admin token: every service's, and the shard pods' to call them."""
SIGNING_KEY_VARIABLE = "TAUE_SIGNING_KEY"
SIGNING_SECRET = ("taue-signing", "key")
"""The Secret and key of the signing key: the domain servers' and the scorer's, and the merge Job's to
verify with (`taue merge` and `taue leaderboard` read it from the environment); never a shard pod's."""
FLAG_SETTINGS = (
    "name", "domains", "agent", "user", "trials", "split", "seed", "concurrency",
    "model", "base_url", "user_model", "user_base_url",
)  # fmt: skip
"""Settings passed as `--option=$(TAUE_OPTION)` in the flags style (others are literal flags)."""


class ClusterRunError(ValueError):
    """Settings that cannot make a run (a bad name, storage URL, shard count): one line for the user."""


def default_image() -> str:
    try:
        return f"{PART_OF}:{version(PART_OF)}"
    except PackageNotFoundError:
        return f"{PART_OF}:latest"


class ClusterRun(BaseModel):
    """What `taue cluster run` renders: one uniquely named run."""

    model_config = ConfigDict(frozen=True)

    name: str
    agent: str
    user: str = "scripted"
    shards: int = 8
    storage: str
    namespace: str = DEFAULT_NAMESPACE
    image: str = default_image()
    domains: str = "all"
    trials: int = 3
    split: str = "eval"
    seed: int = 0
    concurrency: int = 32
    agent_model: str = DEFAULT_MODEL
    user_model: str = DEFAULT_MODEL
    agent_base_url: str | None = None
    """Default: the in-cluster `vllm-agent` server."""
    user_base_url: str | None = None
    """Default: the in-cluster `vllm-user` server."""
    enable_thinking: bool | None = None
    """None: off where the run calls the in-cluster vLLM servers (Qwen3), else nothing is sent."""
    merge_deadline_hours: int = 48

    @property
    def storage_root(self) -> str:
        return self.storage.rstrip("/")

    @property
    def run_url(self) -> str:
        return f"{self.storage_root}/runs/{self.name}"

    def base_url(self, role: str) -> str:
        given = self.agent_base_url if role == "agent" else self.user_base_url
        return given or model_server_url(role, self.namespace)

    def thinking(self) -> bool | None:
        if self.enable_thinking is not None:
            return self.enable_thinking
        in_cluster = (self.agent == "model" and self.agent_base_url is None) or (
            self.user == "llm" and self.user_base_url is None
        )
        return False if in_cluster else None


def model_server_url(role: str, namespace: str) -> str:
    """The OpenAI-compatible endpoint of the in-cluster vLLM server `vllm-<role>` (k8s/components/vllm)."""
    return f"http://vllm-{role}.{namespace}.svc.cluster.local:{MODEL_SERVER_PORT}/v1"


def check_run(run: ClusterRun) -> None:
    """Raise ClusterRunError naming the first setting that cannot make a run."""
    if len(run.name) > MAX_NAME or not DNS_LABEL.match(run.name):
        raise ClusterRunError(
            f"--name must be a DNS-1123 label of at most {MAX_NAME} characters (lower-case letters, "
            f"digits and '-', starting and ending with a letter or digit), got {run.name!r}"
        )
    if run.shards < 1:
        raise ClusterRunError(f"--shards must be at least 1, got {run.shards}")
    match = STORAGE_URL.match(run.storage)
    if match is None or match["scheme"] not in STORAGE_SCHEMES:
        schemes = ", ".join(f"{scheme}://" for scheme in STORAGE_SCHEMES)
        raise ClusterRunError(f"--storage must be a URL starting with {schemes}, got {run.storage!r}")
    if len(run.namespace) > 63 or not DNS_LABEL.match(run.namespace):
        raise ClusterRunError(f"--namespace must be a DNS-1123 label, got {run.namespace!r}")
    try:
        parse_reference(run.image)
    except ImageError as exc:
        raise ClusterRunError(f"--image: {exc}") from None
    if run.user not in ("scripted", "llm"):
        raise ClusterRunError(f"--user must be scripted or llm, got {run.user!r}")
    if run.split not in ("eval", "train"):
        raise ClusterRunError(f"--split must be eval or train, got {run.split!r}")
    for option, value in (("--trials", run.trials), ("--concurrency", run.concurrency)):
        if value < 1:
            raise ClusterRunError(f"{option} must be at least 1, got {value}")


# --- settings -------------------------------------------------------------------------------------


def run_settings(run: ClusterRun, domains: list[str]) -> dict[str, Any]:
    """The options of `taue run` every shard shares (without --shard and --out), by option name."""
    settings: dict[str, Any] = {
        "name": run.name,
        "domains": run.domains,
        "agent": run.agent,
        "user": run.user,
        "trials": run.trials,
        "split": run.split,
        "seed": run.seed,
        "concurrency": run.concurrency,
    }
    if run.agent == "model":
        settings |= {"model": run.agent_model, "base_url": run.base_url("agent")}
    if run.user == "llm":
        settings |= {"user_model": run.user_model, "user_base_url": run.base_url("user")}
    if run.thinking() is not None:
        settings["thinking"] = run.thinking()  # the settings key of --thinking/--no-thinking
    settings |= {
        "env": [f"{domain}=http://{domain}:9000" for domain in domains],
        "simulator": "simulator:50051",
        "scorer": "scorer:50052",
        "quiet": True,
    }
    return settings


def to_toml(settings: dict[str, Any]) -> str:
    """A flat TOML table (strings, integers, booleans, lists of strings); JSON strings are TOML strings."""
    lines = []
    for key, value in settings.items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, int):
            text = str(value)
        elif isinstance(value, list):
            text = "[\n" + "".join(f"  {json.dumps(item)},\n" for item in value) + "]"
        else:
            text = json.dumps(value)
        lines.append(f"{key} = {text}")
    return "\n".join(lines) + "\n"


def env_key(setting: str) -> str:
    return f"TAUE_{setting.upper()}"


def config_data(run: ClusterRun, settings: dict[str, Any], style: ConfigStyle) -> dict[str, str]:
    data = {CONFIG_FILE: to_toml(settings), "TAUE_STORAGE": run.storage_root, "TAUE_NAME": run.name}
    if style == "flags":
        data |= {env_key(key): str(settings[key]) for key in FLAG_SETTINGS if key in settings}
    return data


# --- manifests ------------------------------------------------------------------------------------


def names(run: ClusterRun) -> dict[str, str]:
    prefix = f"taue-{run.name}"
    return {
        "job": prefix,
        "merge": f"{prefix}-merge",
        "config": f"{prefix}-run",
        "model_servers": f"{prefix}-model-servers",
        "agent_mcp": f"{prefix}-agent-mcp",
    }


def labels(run: ClusterRun, name: str, component: str | None = None) -> dict[str, str]:
    found = {"app.kubernetes.io/name": name, "app.kubernetes.io/part-of": PART_OF, RUN_LABEL: run.name}
    return found | ({"app.kubernetes.io/component": component} if component else {})


def metadata(run: ClusterRun, name: str, component: str | None = None) -> Manifest:
    return {"name": name, "namespace": run.namespace, "labels": labels(run, name, component)}


def from_config(run: ClusterRun, key: str) -> Manifest:
    return {"name": key, "valueFrom": {"configMapKeyRef": {"name": names(run)["config"], "key": key}}}


def from_secret(variable: str, secret: str, key: str, optional: bool = False) -> Manifest:
    ref: Manifest = {"name": secret, "key": key} | ({"optional": True} if optional else {})
    return {"name": variable, "valueFrom": {"secretKeyRef": ref}}


def runner_command(
    run: ClusterRun, settings: dict[str, Any], style: ConfigStyle
) -> tuple[list[str], list[Manifest]]:
    """The shard container's `taue` arguments and the ConfigMap variables they use, in either style."""
    shard = [
        f"--shard=$(JOB_COMPLETION_INDEX)/{run.shards}",
        "--out=$(TAUE_STORAGE)/runs/$(TAUE_NAME)/shard-$(JOB_COMPLETION_INDEX)",
    ]
    if style == "file":
        env = [from_config(run, "TAUE_STORAGE"), from_config(run, "TAUE_NAME")]
        return ["run", f"--config={CONFIG_DIR}/{CONFIG_FILE}", *shard], env
    used = [key for key in FLAG_SETTINGS if key in settings]
    args = ["run", *(f"--{key.replace('_', '-')}=$({env_key(key)})" for key in used)]
    if "thinking" in settings:
        args.append("--thinking" if settings["thinking"] else "--no-thinking")
    args += [f"--env={value}" for value in settings["env"]]
    args += [f"--simulator={settings['simulator']}", f"--scorer={settings['scorer']}", *shard, "--quiet"]
    env_keys = ["TAUE_STORAGE", *(env_key(key) for key in used)]
    return args, [from_config(run, key) for key in dict.fromkeys(env_keys)]


def image_digest_env(image: str) -> list[Manifest]:
    """`TAUE_IMAGE_DIGEST` for an image pinned by digest: run.json's manifest records it."""
    digest = parse_reference(image).digest
    return [{"name": "TAUE_IMAGE_DIGEST", "value": digest}] if digest else []


def pod_spec(containers: list[Manifest], volumes: list[Manifest]) -> Manifest:
    return {
        "restartPolicy": "Never",
        "automountServiceAccountToken": False,
        "enableServiceLinks": False,
        "securityContext": {
            "runAsNonRoot": True,
            "runAsUser": 10001,
            "runAsGroup": 10001,
            "fsGroup": 10001,
            "seccompProfile": {"type": "RuntimeDefault"},
        },
        "containers": containers,
        "volumes": [{"name": "tmp", "emptyDir": {"sizeLimit": "2Gi"}}, *volumes],
    }


def container(
    run: ClusterRun, name: str, command: Manifest, env: list[Manifest], mounts: list[Manifest]
) -> Manifest:
    """A hardened container of the taue image; `command` holds its `args` (and `command`, if any)."""
    return {
        "name": name,
        "image": run.image,
        **command,
        "env": [*env, *image_digest_env(run.image)],
        # object-storage credentials (AWS_*, GOOGLE_*, AZURE_* variables), when the cluster gives no identity
        "envFrom": [{"secretRef": {"name": "taue-storage", "optional": True}}],
        "resources": {
            "requests": {"cpu": "1", "memory": "1Gi"},
            "limits": {"cpu": "2", "memory": "4Gi"},
        },
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "readOnlyRootFilesystem": True,
            "capabilities": {"drop": ["ALL"]},
        },
        "volumeMounts": [{"name": "tmp", "mountPath": "/tmp"}, *mounts],
    }


def config_map(run: ClusterRun, settings: dict[str, Any], style: ConfigStyle) -> Manifest:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": metadata(run, names(run)["config"]),
        "data": config_data(run, settings, style),
    }


def shard_job(run: ClusterRun, settings: dict[str, Any], style: ConfigStyle) -> Manifest:
    args, env = runner_command(run, settings, style)
    env += [
        from_secret(ADMIN_TOKEN_VARIABLE, *ADMIN_SECRET),
        from_secret("TAUE_AGENT_API_KEY", "taue-llm", "agent-api-key", optional=True),
        from_secret("TAUE_USER_API_KEY", "taue-llm", "user-api-key", optional=True),
    ]
    mounts, volumes = [], []
    if style == "file":
        mounts = [{"name": "settings", "mountPath": CONFIG_DIR, "readOnly": True}]
        volumes = [{"name": "settings", "configMap": {"name": names(run)["config"]}}]
    runner = container(run, "runner", {"args": args}, env, mounts)
    name = names(run)["job"]
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": metadata(run, name, "runner"),
        "spec": {
            "completionMode": "Indexed",
            "completions": run.shards,
            "parallelism": run.shards,
            # a retried index resumes its own shard (records are keyed by run, task and trial)
            "backoffLimitPerIndex": 3,
            "ttlSecondsAfterFinished": 7 * 24 * 3600,
            "podFailurePolicy": {
                "rules": [
                    # exit 2 = bad arguments or settings: retrying the index cannot help
                    {
                        "action": "FailIndex",
                        "onExitCodes": {"containerName": "runner", "operator": "In", "values": [2]},
                    },
                    # evictions and preemptions do not count against backoffLimitPerIndex
                    {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
                ]
            },
            "template": {
                "metadata": {"labels": labels(run, name, "runner")},
                "spec": pod_spec([runner], volumes),
            },
        },
    }


def merge_script(run: ClusterRun) -> str:
    """Wait for the shards (merge until none is missing), publish the run, rebuild the leaderboard.

    Merging into /tmp first keeps a partial merge out of `<storage>/runs/`, which the leaderboard reads.
    Every step verifies what it reads, signatures included (`TAUE_SIGNING_KEY`): a record that fails
    is never published (the wait repeats, printing the problems, until the Job's deadline).
    """
    shards = " ".join(f'"$RUN/shard-{index}"' for index in range(run.shards))
    return "\n".join(
        [
            'RUN="$TAUE_STORAGE/runs/$TAUE_NAME"',
            f"until taue merge {shards} --out /tmp/merged; do",
            f'  echo "shards of $TAUE_NAME not complete; next try in {MERGE_RETRY_SECONDS} s"',
            f"  sleep {MERGE_RETRY_SECONDS}",
            "done",
            'taue merge /tmp/merged --out "$RUN"',
            'taue leaderboard "$TAUE_STORAGE/runs/" --out "$TAUE_STORAGE/site" --quiet',
        ]
    )


def merge_job(run: ClusterRun) -> Manifest:
    env = [
        from_config(run, "TAUE_STORAGE"),
        from_config(run, "TAUE_NAME"),
        from_secret(SIGNING_KEY_VARIABLE, *SIGNING_SECRET),
    ]
    merge = container(run, "merge", {"command": ["/bin/sh", "-ec"], "args": [merge_script(run)]}, env, [])
    name = names(run)["merge"]
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": metadata(run, name, "merge"),
        "spec": {
            "backoffLimit": 2,
            # the wait for the shards ends here at the latest (failed indexes never complete)
            "activeDeadlineSeconds": run.merge_deadline_hours * 3600,
            "ttlSecondsAfterFinished": 7 * 24 * 3600,
            "template": {
                "metadata": {"labels": labels(run, name, "merge")},
                "spec": pod_spec([merge], []),
            },
        },
    }


def network_policy(run: ClusterRun, name: str, target: str, sources: list[Manifest], port: int) -> Manifest:
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": metadata(run, name),
        "spec": {
            "podSelector": {"matchLabels": {"app.kubernetes.io/component": target}},
            "policyTypes": ["Ingress"],
            "ingress": [{"from": sources, "ports": [{"protocol": "TCP", "port": port}]}],
        },
    }


def network_policies(run: ClusterRun) -> list[Manifest]:
    run_pods = {"podSelector": {"matchLabels": labels(run, names(run)["job"], "runner")}}
    simulator = {"podSelector": {"matchLabels": {"app.kubernetes.io/component": "simulator"}}}
    agents = {"namespaceSelector": {"matchLabels": {AGENT_UNDER_TEST_LABEL: "true"}}}
    policy_names = names(run)
    return [
        network_policy(
            run, policy_names["model_servers"], "model-server", [run_pods, simulator], MODEL_SERVER_PORT
        ),
        network_policy(run, policy_names["agent_mcp"], "domain", [agents], MCP_PORT),
    ]


def render_manifests(run: ClusterRun, domains: list[str], style: ConfigStyle) -> list[Manifest]:
    """Every resource of the run, in the order `kubectl apply` should create them."""
    check_run(run)
    settings = run_settings(run, domains)
    policies = network_policies(run)
    return [config_map(run, settings, style), *policies, shard_job(run, settings, style), merge_job(run)]


def to_yaml(run: ClusterRun, docs: list[Manifest]) -> str:
    header = (
        f"# τ-Emotion-Bench run {run.name}: {run.shards} shards -> {run.run_url}, "
        f"leaderboard {run.storage_root}/site (namespace {run.namespace})\n"
    )
    return header + yaml.dump_all(
        docs, Dumper=_Dumper, explicit_start=True, sort_keys=False, allow_unicode=True, width=110
    )


class _Dumper(yaml.SafeDumper):
    """Multi-line strings (run.toml, the merge script) as literal blocks, readable in the output."""


def _string(dumper: yaml.SafeDumper, text: str) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|" if "\n" in text else None)


_Dumper.add_representer(str, _string)
