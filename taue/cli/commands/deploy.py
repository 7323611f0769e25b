"""`taue deploy render`: the deployment files that list domains, rendered from the registry."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

console = Console(stderr=True, soft_wrap=True)
deploy_app = typer.Typer(help="Deployment files (docker compose, Kubernetes) for the registered domains.")


def register(app: typer.Typer) -> None:
    app.add_typer(deploy_app, name="deploy")


@deploy_app.command("render")
def render_command(
    check: Annotated[
        bool, typer.Option("--check", help="Change nothing; exit 1 naming every file that differs.")
    ] = False,
    root: Annotated[
        Path, typer.Option(help="The project checkout holding docker-compose.yml and k8s/.")
    ] = Path("."),
) -> None:
    """Render docker-compose.yml's domain services and runner flags, the k8s per-domain manifests and
    the lists of domains in the kustomization and smoke Job, from the registered domains; and the two
    vLLM model servers of k8s/components/vllm from one template."""
    from taue.deploy.render import RenderError, differences, render
    from taue.envs.runtime.discovery import domain_names

    if not (root / "docker-compose.yml").is_file() or not (root / "k8s").is_dir():
        console.print(f"[red]error:[/red] {root} holds no docker-compose.yml and k8s/ (use --root)")
        raise typer.Exit(2)
    try:
        changed = differences(root, domain_names()) if check else render(root, domain_names())
    except RenderError as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    for relative in changed:
        typer.echo(f"{'differs' if check else 'rendered'}: {relative}")
    if check and changed:
        console.print("run `taue deploy render` to update them")
        raise typer.Exit(1)
    if not changed:
        typer.echo(f"up to date ({len(domain_names())} domains)")
