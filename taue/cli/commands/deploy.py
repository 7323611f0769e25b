"""`taue deploy`: the deployment files rendered from the registry (`render`), the image's lock (`lock`),
images by digest (`pin`) and the secrets of a docker compose deployment (`secrets`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from taue.cli.options import fail

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
        raise fail(f"{root} holds no docker-compose.yml and k8s/ (use --root)")
    try:
        changed = differences(root, domain_names()) if check else render(root, domain_names())
    except RenderError as exc:
        raise fail(str(exc)) from None
    for relative in changed:
        typer.echo(f"{'differs' if check else 'rendered'}: {relative}")
    if check and changed:
        console.print("run `taue deploy render` to update them")
        raise typer.Exit(1)
    if not changed:
        typer.echo(f"up to date ({len(domain_names())} domains)")


@deploy_app.command("secrets")
def secrets_command(
    folder: Annotated[
        Path, typer.Argument(metavar="DIR", help="The folder to hold them (made, mode 0700, if missing).")
    ],
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Replace files that exist (services started with the old ones must restart)."
        ),
    ] = False,
) -> None:
    """Make the secrets of a docker compose deployment: DIR/admin-token (the admin token of every
    `taue serve` and the runner) and DIR/signing-key (the key domain servers and the scorer sign with),
    each random, readable by its owner only (0600). A file that exists is kept, once checked, unless
    --force. Prints one line per file, made or kept, never a secret; exit 2 with one line when DIR
    cannot be written."""
    from taue.deploy.secrets import SecretsError, make_secrets

    try:
        found = make_secrets(folder, force)
    except SecretsError as exc:
        raise fail(str(exc)) from None
    for secret in found:
        if not secret.made:
            _check_kept(secret.path)
        typer.echo(f"{'made' if secret.made else 'kept'}: {secret.path}")


def _check_kept(path: Path) -> None:
    """A kept file must be what the services can read (as they read it): one line, exit 2, if not."""
    from taue.contracts.integrity import ADMIN_TOKEN_FILE_VARIABLE, SigningKey, admin_token_from_env
    from taue.deploy.secrets import ADMIN_TOKEN_FILE

    try:
        if path.name == ADMIN_TOKEN_FILE:
            admin_token_from_env({ADMIN_TOKEN_FILE_VARIABLE: str(path)})
        else:
            SigningKey.from_file(path)
    except ValueError as exc:
        problem = str(exc) if str(path) in str(exc) else f"{path}: {exc}"
        raise fail(f"{problem}; `taue deploy secrets --force` replaces it") from None


@deploy_app.command("lock")
def lock_command(
    check: Annotated[
        bool, typer.Option("--check", help="Change nothing (offline); exit 1 naming what is out of date.")
    ] = False,
    extra: Annotated[
        list[str] | None,
        typer.Option("--extra", help="An extra of pyproject.toml the image installs (repeat; default: s3)."),
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="The lock file (default: docker/requirements.lock under --root).")
    ] = None,
    upgrade: Annotated[
        bool, typer.Option("--upgrade", help="Newest versions allowed, not the pins the lock already has.")
    ] = False,
    root: Annotated[Path, typer.Option(help="The project checkout holding pyproject.toml.")] = Path("."),
) -> None:
    """Resolve the image's lock file with uv (`uv pip compile --generate-hashes`, for Python 3.11 on linux
    x86_64; needs uv and PyPI): pyproject.toml's dependencies, the extras and the build backend, every
    one pinned with its sha256 hashes. The Dockerfile installs it with `pip install --require-hashes`.
    `--check` compares the lock with pyproject.toml instead, offline."""
    from taue.deploy.lock import DEFAULT_EXTRAS, LOCK_FILE, LockError, lock_problems, make_lock

    if not (root / "pyproject.toml").is_file():
        raise fail(f"{root} holds no pyproject.toml (use --root)")
    path = out or root / LOCK_FILE
    if check:
        problems = lock_problems(root, path)
        for problem in problems:
            typer.echo(problem)
        if problems:
            raise typer.Exit(1)
        typer.echo(f"up to date: {path}")
        return
    try:
        uv_version = make_lock(root, path, tuple(extra or DEFAULT_EXTRAS), upgrade)
    except LockError as exc:
        raise fail(str(exc)) from None
    typer.echo(f"locked ({uv_version}): {path}")


@deploy_app.command("pin")
def pin_command(
    image: Annotated[str, typer.Argument(help="A pushed image by digest: REGISTRY/NAME@sha256:<64 hex>.")],
    root: Annotated[Path, typer.Option(help="The project checkout holding k8s/overlays/leaderboard.")] = Path(
        "."
    ),
) -> None:
    """Write IMAGE's name and digest into the `images:` entry of the leaderboard overlay
    (k8s/overlays/leaderboard/kustomization.yaml) whose name it ends with: the taue image
    (…/tau-emotion-bench) or the model servers' vllm/vllm-openai. The overlay holds all-zero placeholder
    digests until then; print the digest of a pushed image with `docker buildx imagetools inspect`."""
    from taue.deploy.images import ImageError, pin_overlay, pinned_reference

    try:
        path, entry = pin_overlay(root, image)
    except ImageError as exc:
        raise fail(str(exc)) from None
    reference = pinned_reference(image)
    typer.echo(f"pinned {entry} to {reference.name}@{reference.digest} in {path}")
