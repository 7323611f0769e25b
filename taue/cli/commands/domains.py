"""`taue domains`: the registered domains with their tool graphs, task counts and database sizes."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from taue.cli.options import print_error, stdout_console

COLUMNS = {
    "name": "domain",
    "tools": "tools",
    "edges": "edges",
    "density": "density",
    "tasks": "tasks",
    "train_tasks": "train",
    "db_rows": "DB rows",
    "db_size": "DB size",
}


def register(app: typer.Typer) -> None:
    app.command("domains")(domains_command)


def domains_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list instead of a table.")] = False,
) -> None:
    """The domains this installation serves. `tools`/`edges`/`density`: the domain's tool graph (its
    workflow tools, without calculate, think and the hand-over); `all_tools`: every tool the MCP server
    lists; `tasks`: evaluation tasks (emotional + neutral twins); `train_tasks`: the training split;
    `db_rows`/`db_size` (bytes): the seed database every episode starts from (counted once per seed;
    figures are cached, see taue/cli/domain_facts.py)."""
    from taue.cli.domain_facts import cached_rows, remember_rows

    broken: list[str] = []
    rows = cached_rows()  # every figure unchanged since the last call: no domain is imported
    if rows is None:
        from taue.envs.runtime.discovery import domain_names

        rows = []
        for name in domain_names():
            try:
                rows.append(domain_facts(name))
            except Exception as exc:  # a registered domain that does not load: name it, list the others
                broken.append(f"domain {name!r} does not load: {type(exc).__name__}: {exc}")
        if not broken:
            remember_rows(rows)
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
    else:
        _print_table(rows)
    for problem in broken:
        print_error(problem)
    if broken:
        raise typer.Exit(1)


def _print_table(rows: list[dict[str, Any]]) -> None:
    table = Table()
    for title in COLUMNS.values():
        table.add_column(title, justify="left" if title == "domain" else "right")
    for row in rows:
        table.add_row(*(_cell(key, row[key]) for key in COLUMNS))
    stdout_console().print(table)


def domain_facts(name: str) -> dict[str, Any]:
    from taue.cli.domain_facts import seed_facts
    from taue.envs.runtime.discovery import get_domain
    from taue.tracer.graph import graph_path, load_graph

    domain = get_domain(name)
    seed = seed_facts(domain)  # counted once per seed, not rebuilt per call (taue/cli/domain_facts.py)
    graph = load_graph(domain) if graph_path(domain).exists() else None
    return {
        "name": name,
        "tools": len(graph.nodes) if graph else None,
        "edges": len(graph.edges) if graph else None,
        "density": round(graph.density, 3) if graph else None,
        "all_tools": len(domain.tools),
        "write_tools": len(domain.write_tools),
        "tasks": len(domain.tasks),
        "emotional_tasks": sum(1 for task in domain.tasks if task.emotion is not None),
        "train_tasks": len(domain.train_tasks),
        "db_tables": seed["db_tables"],
        "db_rows": sum(seed["db_tables"].values()),
        "db_size": seed["db_size"],
    }


def _cell(key: str, value: Any) -> str:
    if value is None:
        return "-"
    if key == "db_size":
        return f"{value / 1e6:.1f} MB"
    if key == "density":
        return f"{value:.3f}"
    return f"{value:,}" if isinstance(value, int) else str(value)
