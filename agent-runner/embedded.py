"""The embedded default: whatever services a run needs but was not given, started inside this
process on 127.0.0.1 ephemeral ports.

They are the same servers that `taue serve env|simulator|scorer` run, reached over HTTP, MCP and
gRPC exactly as a remote deployment would be: one code path. Every one of them needs a token that
is made here, at random, for this process's run, and is told only to the runner's clients (never to
an agent, never written anywhere); the domain servers and the scorer sign with the run's key.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from taue.contracts.integrity import SigningKey

if TYPE_CHECKING:
    from taue.envs.runtime.server import DomainServer


class Services(BaseModel):
    """Where a run's services are: control URLs per domain, gRPC addresses of simulator and scorer."""

    env: dict[str, str] = Field(default_factory=dict)
    simulator: str | None = None
    scorer: str | None = None
    tokens: dict[str, str] = Field(default_factory=dict, repr=False)
    """The tokens of the services started in-process, by domain name, `simulator` and `scorer`;
    the others take the run's admin token (`TAUE_ADMIN_TOKEN`)."""
    signing_key: str | None = Field(default=None, repr=False)
    """The key in-process domain servers and scorer sign with (None: they do not sign)."""

    def token(self, service: str, default: str | None) -> str | None:
        return self.tokens.get(service, default)

    def key(self) -> SigningKey | None:
        return SigningKey(self.signing_key) if self.signing_key else None


def new_token() -> str:
    return secrets.token_urlsafe(32)


def keys_folder() -> Path:
    return Path(os.environ.get("TAUE_HOME") or Path.home() / ".taue") / "keys"


def run_key_file(run_id: str) -> Path:
    """Where the embedded default keeps a run's signing key when `TAUE_SIGNING_KEY` is not set."""
    return keys_folder() / f"{run_id}.key"


def run_signing_key(run_id: str) -> SigningKey:
    """`TAUE_SIGNING_KEY` (or `TAUE_SIGNING_KEY_FILE`) when set; else the run's own random key, made on
    its first session and kept, readable only by this user, in `$TAUE_HOME/keys/<run id>.key` (so
    the run's author can `taue verify --key-file` it, and a resumed run signs with the same key)."""
    given = SigningKey.from_env()
    if given is not None:
        return given
    path = run_key_file(run_id)
    if path.exists():
        return SigningKey.from_file(path)
    key = SigningKey.random()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(key.text + "\n")
    return key


def with_signing_key(given: Services, domains: list[str], run_id: str | None) -> Services:
    """`given` with the key the run's in-process servers sign with, when it starts any: the run's own
    key when every service is in-process; beside remote services only the operator's
    (`TAUE_SIGNING_KEY`), which they may hold too. A key of its own beside servers that sign nothing
    (or sign with another key) would make a run that no key verifies: it stays unsigned, `consistent`."""
    embedded = given.scorer is None or any(domain not in given.env for domain in domains)
    if given.signing_key is not None or not embedded or run_id is None:
        return given
    remote = given.scorer is not None or any(domain in given.env for domain in domains)
    key = SigningKey.from_env() if remote else run_signing_key(run_id)
    return given if key is None else given.model_copy(update={"signing_key": key.text})


@asynccontextmanager
async def embedded_domains(
    names: list[str], admin_token: str | None = None, signing_key: SigningKey | None = None
) -> AsyncIterator[dict[str, DomainServer]]:
    """Start one server per domain on ephemeral 127.0.0.1 ports, all with one admin token (random
    unless given: `server.admin_token`); stop them on exit."""
    from taue.envs.runtime.discovery import get_domain  # only here: a remote run loads no domain code
    from taue.envs.runtime.server import DomainServer

    token = admin_token or new_token()
    servers = {
        name: DomainServer(get_domain(name), admin_token=token, signing_key=signing_key) for name in names
    }
    try:
        for server in servers.values():
            await server.start()
        yield servers
    finally:
        for server in servers.values():
            await server.stop()


@asynccontextmanager
async def embedded_services(
    domains: list[str], given: Services, admin_token: str | None = None
) -> AsyncIterator[Services]:
    """`given`, completed with in-process servers for every missing piece, all with one token (random
    unless given), which the result's `tokens` holds."""
    from taue.scorer.service import build_server as build_scorer
    from taue.simulator.service import build_server as build_simulator

    token = admin_token or new_token()
    key = given.key()
    async with AsyncExitStack() as stack:
        servers = await stack.enter_async_context(
            embedded_domains([d for d in domains if d not in given.env], token, key)
        )
        resolved = given.model_copy(
            update={
                "env": {**given.env, **{name: server.control_url for name, server in servers.items()}},
                "tokens": {**given.tokens, **dict.fromkeys(servers, token)},
            }
        )
        builders = {
            "simulator": lambda: build_simulator(token=token),
            "scorer": lambda: build_scorer(token=token, signing_key=key),
        }
        for field, build in builders.items():
            if getattr(resolved, field) is None:
                grpc_server = build()
                await grpc_server.start()
                stack.push_async_callback(grpc_server.stop, 0.5)
                setattr(resolved, field, grpc_server.address)
                resolved.tokens[field] = token
        yield resolved
