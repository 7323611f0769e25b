"""`taue episode new|say|score`: one episode on a running stack, driven by hand or by your own agent.

The agent gets only the MCP URL and token; this command plays the runner's part (control port,
simulator, scorer) with the runner's own episode steps (taue.runner.episode). Episode bookkeeping
is kept in `$TAUE_HOME/episodes/<episode id>.json` (default `~/.taue`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from taue.cli.settings import SettingsCommand, SettingsFile

if TYPE_CHECKING:
    from taue.contracts.episode import RewardBreakdown, Termination
    from taue.runner.control import ControlClient
    from taue.runner.episode_state import EpisodeState
    from taue.scorer.client import ScorerClient
    from taue.simulator.client import SimulatorClient

episode_app = typer.Typer(help="Run one episode by hand on a running stack (bring your own agent).")


def register(app: typer.Typer) -> None:
    app.add_typer(episode_app, name="episode", no_args_is_help=True)


def _home() -> Path:
    return Path(os.environ.get("TAUE_HOME", Path.home() / ".taue")) / "episodes"


def _state_path(episode_id: str) -> Path:
    if not episode_id.replace("-", "").replace("_", "").isalnum():
        raise typer.BadParameter(f"not an episode id: {episode_id!r}")
    return _home() / f"{episode_id}.json"


def _load(episode_id: str) -> EpisodeState:
    path = _state_path(episode_id)
    if not path.exists():
        typer.echo(f"error: no episode {episode_id!r} started here (looked in {path.parent})", err=True)
        raise typer.Exit(2)
    from taue.runner.episode_state import EpisodeState

    return EpisodeState.model_validate_json(path.read_text())


def _save(state: EpisodeState) -> None:
    path = _state_path(state.episode_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(state.model_dump_json(indent=2))
    temporary.replace(path)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _not_running(exc: Exception, service: str, address: str, domain: str = "") -> typer.Exit:
    """A failed call's one-line error; when nothing answers at `address`, it names the command that
    starts the service there (instead of gRPC's UNAVAILABLE or aiohttp's connection error)."""
    # the env's InfraError comes from a refused or unreachable connection; gRPC says UNAVAILABLE
    down = isinstance(exc.__cause__, OSError) if service == "env" else ": UNAVAILABLE: " in str(exc)
    if not down:
        return _fail(str(exc))
    from urllib.parse import urlsplit

    if service == "env":
        host, port = urlsplit(address).hostname or "", urlsplit(address).port or 80
        command, flag = f"taue serve env {domain} --control-port {port}", "--env URL"
    else:
        host, _, port_text = address.rpartition(":")
        port = int(port_text) if port_text.isdigit() else 0
        command, flag = f"taue serve {service} --port {port}", f"--{service} HOST:PORT"
    if host not in ("localhost", "127.0.0.1", "::1", "[::1]"):
        command += f" --host {host}"
    name = f"{domain} domain server" if service == "env" else service
    return _fail(
        f"no {name} answers at {address}: start it with `{command}` (same TAUE_ADMIN_TOKEN), "
        f"or give {flag} of a running one"
    )


ENV_HELP = (
    "Control URL of the domain's server, e.g. http://localhost:9000, or `taue run`'s DOMAIN=URL pairs "
    "(space-separated; --domain's is used). Default: $TAUE_ENV_<DOMAIN>."
)


def _control_url(domain: str, env: str | None) -> str | None:
    """--env as a URL, or as `taue run --env` values (so one TAUE_ENV serves both commands)."""
    pairs = [part.partition("=") for part in (env or "").split()]
    if env and not all(sep and not name.startswith(("http://", "https://")) for name, sep, _ in pairs):
        return env
    chosen = next((url for name, _, url in pairs if name == domain), None)
    return chosen or os.environ.get(f"TAUE_ENV_{domain.upper()}")


MCP_HOST_HELP = (
    "Host name your agent reaches the domain's MCP port at, when it is not the server's (e.g. localhost "
    "for an agent on the docker compose host: the port is the same); the server's URL is printed too."
)


def host_url(url: str, host: str | None) -> str:
    """`url` with its host name replaced by `host` (port, path and scheme kept); `url` when no host."""
    from urllib.parse import urlsplit, urlunsplit

    if not host:
        return url
    parts = urlsplit(url)
    name = f"[{host}]" if ":" in host and not host.startswith("[") else host
    netloc = f"{name}:{parts.port}" if parts.port else name
    return urlunsplit(parts._replace(netloc=netloc))


@episode_app.command("new", cls=SettingsCommand)
def new(
    domain: Annotated[str, typer.Option(help="The domain.")],
    task: Annotated[str, typer.Option(help="Task id (see taue tasks list).")],
    seed: Annotated[int, typer.Option(help="Seed of the user simulator.")] = 0,
    env: Annotated[str | None, typer.Option(help=ENV_HELP)] = None,
    simulator: Annotated[str, typer.Option(help="Simulator HOST:PORT.")] = "localhost:50051",
    scorer: Annotated[str, typer.Option(help="Scorer HOST:PORT.")] = "localhost:50052",
    mcp_host: Annotated[str | None, typer.Option(help=MCP_HOST_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
    config: SettingsFile = None,
) -> None:
    """Create an episode: prints its MCP URL, bearer token and the user's first message."""
    import asyncio

    control_url = _control_url(domain, env)
    if not control_url:
        raise _fail(
            f"no control URL for {domain}: give --env URL (or {domain}=URL), or set TAUE_ENV_{domain.upper()}"
        )
    state = asyncio.run(_new(domain, task, seed, control_url, simulator, scorer))
    _save(state)
    _print_new(state, host_url(state.mcp_url, mcp_host), as_json)


def _print_new(state: EpisodeState, mcp_url: str, as_json: bool) -> None:
    """The episode for its agent: `mcp_url` (the agent's), and the server's own when that differs."""
    first = state.transcript[0].content
    if as_json:
        fields = {"episode_id": state.episode_id, "mcp_url": mcp_url, "mcp_url_in_network": state.mcp_url}
        typer.echo(json.dumps({**fields, "token": state.token, "user_message": first}, indent=2))
        return
    typer.echo(f"episode:  {state.episode_id}\nmcp url:  {mcp_url}")
    if mcp_url != state.mcp_url:
        typer.echo(f"          (in the servers' network: {state.mcp_url})")
    typer.echo(f"token:    {state.token}")
    typer.echo(f"(send 'Authorization: Bearer <token>' with every MCP request)\n\nuser: {first}")


async def _new(
    domain: str, task_id: str, seed: int, control_url: str, simulator: str, scorer: str
) -> EpisodeState:
    from taue.contracts.episode import Message
    from taue.runner.control import ControlClient, InfraError, control_session
    from taue.runner.episode import open_episode
    from taue.runner.episode_state import EpisodeState
    from taue.simulator.client import SimulatorCallError, SimulatorClient
    from taue.simulator.session import UserOptions

    client = SimulatorClient(simulator, token=_admin_token())
    async with control_session(timeout=30) as http:
        control = ControlClient(control_url, http, _admin_token())
        try:
            task = await control.task(task_id)
            opened = await open_episode(control, client, task, seed, UserOptions())
        except InfraError as exc:
            raise _not_running(exc, "env", control_url, domain) from None
        except SimulatorCallError as exc:
            raise _not_running(exc, "simulator", simulator) from None
        except ValueError as exc:
            raise _fail(str(exc)) from None
        finally:
            await client.close()
    return EpisodeState(
        episode_id=opened.created.episode_id,
        domain=domain,
        task_id=task.id,
        control_url=control_url,
        simulator=simulator,
        scorer=scorer,
        session_id=opened.session_id,
        mcp_url=opened.created.mcp_url,
        token=opened.created.token,
        transcript=[Message(role="user", content=opened.first_message)],
    )


@episode_app.command("say", cls=SettingsCommand)
def say(
    episode: Annotated[str, typer.Argument(help="Episode id from `taue episode new`.")],
    message: Annotated[str, typer.Argument(help="The agent's message to the user.")],
    config: SettingsFile = None,
) -> None:
    """Relay an agent message to the simulated user and print the reply."""
    import asyncio

    state = _load(episode)
    if state.termination is not None:
        raise _fail(f"the conversation has ended ({state.termination}); score it with `taue episode score`")
    turn = asyncio.run(_say(state, message))
    from taue.contracts.episode import Message

    state.transcript += [Message(role="agent", content=message), Message(role="user", content=turn.message)]
    if turn.done:
        state.termination = turn.termination
    _save(state)
    typer.echo(f"user: {turn.message}")
    if turn.done:
        typer.echo(f"(conversation ended: {turn.termination})")


async def _say(state: EpisodeState, message: str):
    """Relay the message with the service's confirmations of the writes made since the last one."""
    from taue.runner.control import ControlClient, InfraError, control_session
    from taue.runner.episode import agent_turn
    from taue.simulator.client import SimulatorCallError, SimulatorClient

    async with control_session(timeout=30) as http:
        control = ControlClient(state.control_url, http, _admin_token())
        try:
            calls, _ = await control.tool_log_since(state.episode_id, state.calls_seen)
        except InfraError as exc:
            raise _not_running(exc, "env", state.control_url, state.domain) from None
        except ValueError as exc:
            raise _fail(str(exc)) from None
    state.calls_seen += len(calls)
    client = SimulatorClient(state.simulator, token=_admin_token())
    try:
        return await client.respond(state.session_id, agent_turn(message, calls))
    except SimulatorCallError as exc:
        raise _not_running(exc, "simulator", state.simulator) from None
    finally:
        await client.close()


@episode_app.command("score", cls=SettingsCommand)
def score(
    episode: Annotated[str, typer.Argument(help="Episode id from `taue episode new`.")],
    force: Annotated[
        bool, typer.Option(help="Score a conversation the user has not ended (as max_turns).")
    ] = False,
    strict_policy: Annotated[
        bool,
        typer.Option(
            "--strict-policy",
            help="A write the user had not approved costs the reward in an imported task set too.",
        ),
    ] = False,
    config: SettingsFile = None,
) -> None:
    """Score the episode from the server's observations and end the user's session; prints the reward
    breakdown (with the policy violations the user observed) as JSON."""
    import asyncio

    state = _load(episode)
    if state.termination is None and not force:
        raise _fail("the user has not ended the conversation; keep talking, or pass --force")
    breakdown = asyncio.run(_score(state, state.termination or "max_turns", strict_policy))
    typer.echo(breakdown.model_dump_json(indent=2))


async def _score(state: EpisodeState, termination: Termination, strict_policy: bool) -> RewardBreakdown:
    from taue.runner.control import ControlClient, InfraError, control_session
    from taue.scorer.client import ScorerCallError, ScorerClient
    from taue.simulator.client import SimulatorCallError, SimulatorClient

    client = ScorerClient(state.scorer, token=_admin_token())
    users = SimulatorClient(state.simulator, token=_admin_token())
    async with control_session(timeout=30) as http:
        control = ControlClient(state.control_url, http, _admin_token())
        try:
            return await _finish_and_score(state, termination, strict_policy, control, users, client)
        except InfraError as exc:
            raise _not_running(exc, "env", state.control_url, state.domain) from None
        except SimulatorCallError as exc:
            raise _not_running(exc, "simulator", state.simulator) from None
        except ScorerCallError as exc:
            raise _not_running(exc, "scorer", state.scorer) from None
        except ValueError as exc:
            raise _fail(str(exc)) from None
        finally:
            await client.close()
            await users.close()


async def _finish_and_score(
    state: EpisodeState,
    termination: Termination,
    strict_policy: bool,
    control: ControlClient,
    users: SimulatorClient,
    scorer: ScorerClient,
) -> RewardBreakdown:
    """Finish the episode, end the user's session with the writes it has not seen (its policy
    violations), and score."""
    from taue.contracts.policy import policy_enforced
    from taue.runner.episode import PolicyCheck, finish_episode, notifications, score_finished

    card = await control.card()
    end, termination = await finish_episode(control, state.episode_id, termination)
    ended = await users.end(state.session_id, notifications(end.tool_log[state.calls_seen :]))
    policy = PolicyCheck(ended.policy_violations, policy_enforced(card, strict_policy))
    scored = await score_finished(
        scorer, state.domain, state.task_id, state.episode_id, end, state.transcript, termination, policy
    )
    return scored.breakdown


def _admin_token() -> str | None:
    """The admin token of the services this command talks to (TAUE_ADMIN_TOKEN or its file)."""
    from taue.contracts.integrity import admin_token_from_env

    try:
        return admin_token_from_env()
    except ValueError as exc:
        raise _fail(str(exc)) from None
