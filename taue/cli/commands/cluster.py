"""`taue cluster run`: one uniquely named leaderboard run on Kubernetes, from launch to leaderboard."""

from __future__ import annotations

import shutil
import subprocess
from typing import Annotated, Literal

import typer

from taue.cli.options import fail, parse_domains

cluster_app = typer.Typer(
    help="Leaderboard runs on a Kubernetes cluster (docs/deployment.md).", no_args_is_help=True
)


def register(app: typer.Typer) -> None:
    app.add_typer(cluster_app, name="cluster")


@cluster_app.command("run")
def run_command(
    agent: Annotated[str, typer.Option(help="Agent under test: oracle, model, http://HOST:PORT, ...")],
    name: Annotated[
        str, typer.Option(help="Run name (DNS-1123 label): every resource and result carries it.")
    ],
    storage: Annotated[
        str, typer.Option(help="Object storage for results: s3://, gs://, az:// or file:// URL.")
    ],
    user: Annotated[str, typer.Option(help="User simulator backend: scripted or llm.")] = "scripted",
    shards: Annotated[int, typer.Option(help="Pods of the Indexed Job, each one shard of the run.")] = 8,
    namespace: Annotated[
        str, typer.Option(help="Namespace of the leaderboard services (k8s/overlays/leaderboard).")
    ] = "taue-leaderboard",
    image: Annotated[
        str | None,
        typer.Option(
            help="The taue image by digest, REGISTRY/tau-emotion-bench@sha256:… (default: the tag "
            "tau-emotion-bench:VERSION, which needs --allow-tag)."
        ),
    ] = None,
    allow_tag: Annotated[
        bool, typer.Option("--allow-tag", help="Accept an --image without digest (development only).")
    ] = False,
    domains: Annotated[str, typer.Option(help="Comma-separated domains, or `all`.")] = "all",
    trials: Annotated[int, typer.Option(help="Trials per task (k of pass^k).")] = 3,
    split: Annotated[str, typer.Option(help="eval (the benchmark) or train (rollouts).")] = "eval",
    seed: Annotated[int, typer.Option(help="Run seed.")] = 0,
    concurrency: Annotated[int, typer.Option(help="Episodes in flight per shard.")] = 32,
    agent_model: Annotated[str, typer.Option(help="Model of --agent model.")] = "Qwen/Qwen3-8B",
    agent_base_url: Annotated[
        str | None, typer.Option(help="Endpoint of --agent model (default: the in-cluster vllm-agent).")
    ] = None,
    user_model: Annotated[str, typer.Option(help="Model of --user llm.")] = "Qwen/Qwen3-8B",
    user_base_url: Annotated[
        str | None, typer.Option(help="Endpoint of --user llm (default: the in-cluster vllm-user).")
    ] = None,
    enable_thinking: Annotated[
        bool | None,
        typer.Option(
            "--thinking/--no-thinking",
            help="Qwen3 thinking on/off (chat_template_kwargs); default: off for the in-cluster vLLM "
            "servers, nothing sent to other endpoints.",
        ),
    ] = None,
    merge_deadline_hours: Annotated[
        int, typer.Option(help="The merge Job gives up waiting for the shards after this long.")
    ] = 48,
    apply: Annotated[
        bool, typer.Option("--apply", help="Pipe the manifests to `kubectl apply -f -` instead of printing.")
    ] = False,
) -> None:
    """Print the Kubernetes manifests of one run as multi-document YAML: its settings (ConfigMap), an
    Indexed Job of --shards pods writing STORAGE/runs/NAME/shard-I, a merge Job that waits for the
    shards, writes STORAGE/runs/NAME and rebuilds the leaderboard STORAGE/site, and the run's
    NetworkPolicies. Names carry the run name, so runs coexist in one namespace."""
    from taue.deploy.cluster import ClusterRun, ClusterRunError, default_image, render_manifests, to_yaml
    from taue.deploy.images import cluster_image
    from taue.deploy.render import deployment_order
    from taue.envs.runtime.discovery import domain_names
    from taue.runner.agents import adapter_kind

    try:
        adapter_kind(agent)
        pinned = cluster_image(image or default_image(), allow_tag)
        run = ClusterRun(
            name=name, agent=agent, user=user, shards=shards, storage=storage, namespace=namespace,
            image=str(pinned), domains=domains, trials=trials, split=split, seed=seed,
            concurrency=concurrency, agent_model=agent_model, agent_base_url=agent_base_url,
            user_model=user_model, user_base_url=user_base_url, enable_thinking=enable_thinking,
            merge_deadline_hours=merge_deadline_hours,
        )  # fmt: skip
        parse_domains(domains)
        docs = render_manifests(run, deployment_order(domain_names()), config_style())
    except (ClusterRunError, ValueError) as exc:
        raise fail(str(exc)) from None
    text = to_yaml(run, docs)
    if apply:
        kubectl_apply(text)
    else:
        typer.echo(text, nl=False)


def config_style() -> Literal["file", "flags"]:
    """`file` once `taue run` takes `--config`, else `flags` (the values still come from the ConfigMap)."""
    import typer.core
    import typer.main

    from taue import cli

    group = typer.main.get_command(cli.app)
    if not isinstance(group, typer.core.TyperGroup):  # an app of several commands is always a group
        raise TypeError("the taue app is not a command group")
    run = group.commands["run"]
    return "file" if any("--config" in param.opts for param in run.params) else "flags"


def kubectl_apply(manifests: str) -> None:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        raise fail("kubectl is not installed: install it, or run without --apply and apply the printed YAML")
    done = subprocess.run([kubectl, "apply", "-f", "-"], input=manifests, text=True, check=False)
    if done.returncode != 0:
        raise fail(f"kubectl apply failed (exit {done.returncode})", 1)
