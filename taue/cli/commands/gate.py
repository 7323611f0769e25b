"""`taue gate`: fail CI when a run is worse than a baseline run beyond noise."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from taue.cli.options import fail, parse_location
from taue.cli.trust_options import AllowUnverified, KeyFile, TrustedKeys, check_runs, key_ring, print_status

METRICS = ("avg_at_k", "pass_hat_k", "avg_reward")
"""The values of `taue.runner.gate.Metric`, written out so that `taue --help` need not import the gate
(a test compares them)."""

console = Console(stderr=True, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("gate")(gate_command)


def gate_command(
    run_dir: Annotated[
        str, typer.Argument(help="The run under test (a `taue run` output directory or object-store URL).")
    ],
    baseline: Annotated[str, typer.Option(help="The baseline run directory (or URL) to compare against.")],
    metric: Annotated[
        str, typer.Option(help=f"Per-task metric compared: {' | '.join(METRICS)}.")
    ] = "avg_at_k",
    k: Annotated[
        int | None, typer.Option(help="k of pass_hat_k (default: the fewest trials of any paired task).")
    ] = None,
    max_drop: Annotated[
        float, typer.Option(min=0.0, help="Largest tolerated drop (baseline - run), beyond the noise band.")
    ] = 0.02,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap resampling.")] = 0,
    resamples: Annotated[int, typer.Option(min=1, help="Bootstrap resamples of the tasks.")] = 2000,
    confidence: Annotated[
        float, typer.Option(help="Level of the confidence interval and of the noise band.")
    ] = 0.95,
    allow_mismatch: Annotated[
        bool,
        typer.Option(help="Compare even if the runs differ in user, user model, condition or limits."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
    key_file: KeyFile = None,
    trusted_keys: TrustedKeys = None,
    allow_unverified: AllowUnverified = False,
) -> None:
    """Compare RUN_DIR with --baseline paired per task; exit 1 when the drop exceeds --max-drop beyond noise.

    Prints the drop (baseline - run) with a bootstrap confidence interval over tasks and the
    run-to-run noise band; exit 0 when it passes, 2 on bad input. Both runs' verification status
    goes to stderr; a run that fails verification is refused (exit 2) unless --allow-unverified.
    See docs/ci-gating.md.
    """
    from taue.runner.gate import GateError, Metric, gate, render

    if metric not in METRICS:
        raise fail(f"--metric must be one of {', '.join(METRICS)}, not {metric!r}")
    ring = key_ring(key_file, trusted_keys)
    try:
        result = gate(
            run_dir, baseline, Metric(metric), max_drop, k, seed, resamples, confidence, allow_mismatch
        )
    except GateError as exc:
        raise fail(str(exc)) from None
    locations = [parse_location(run_dir), parse_location(baseline)]
    trusts = check_runs(locations, ring, allow_unverified, "compares")
    for role, location, trust in zip(("run ", "baseline "), locations, trusts, strict=True):
        print_status(location, trust, role)
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
    else:
        typer.echo(render(result))
    if result.failed:
        raise typer.Exit(1)
