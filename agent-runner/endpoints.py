"""Before a run's first episode: is every model endpoint it will use there?

`taue run` asks each endpoint (the built-in model agent's, the LLM user's) one tiny chat completion
with the key the run will use. An endpoint nobody answers at (connection refused, a host name that does
not resolve, a timeout), that refuses the key (401, 403), has no such model (404) or fails (5xx) is a
setting to fix: one line naming it, exit 2, nothing written. Any other answer (even 400: some servers
refuse the tiny request's shape) means the endpoint is up.

During a run the same failures, after the client's retries, are the harness's, not the agent's
(`taue.runner.agents.model_agent.endpoint_down`): the episode is an infrastructure error, retried.
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass, field
from typing import Any

import openai

from taue.contracts.model_clients import ModelClient
from taue.contracts.run import RunConfig
from taue.runner.manifest import without_secrets

PREFLIGHT_TIMEOUT_S = 20.0
PREFLIGHT_RETRIES = 1


@dataclass(frozen=True)
class ModelEndpoint:
    role: str
    """Whose endpoint: `the agent's` or `the LLM user's`."""
    base_url: str
    model: str
    api_key: str
    key_variable: str
    extra: dict[str, Any] = field(default_factory=dict)
    """Fields every request of the run carries (the thinking switch), sent with the check too."""


def run_endpoints(config: RunConfig) -> list[ModelEndpoint]:
    """The model endpoints `config` will call."""
    from taue.simulator.llm import thinking_switch

    extra = thinking_switch(config.enable_thinking)
    endpoints = []
    if config.agent == "model" and config.base_url and config.model:
        from taue.runner.agents.model_agent import api_key

        agent = ModelEndpoint(
            "the agent's", config.base_url, config.model, api_key(), "TAUE_AGENT_API_KEY", extra
        )
        endpoints.append(agent)
    if config.user == "llm" and config.user_base_url and config.user_model:
        from taue.simulator.llm import api_key as user_key

        url, model = config.user_base_url, config.user_model
        user = ModelEndpoint("the LLM user's", url, model, user_key(), "TAUE_USER_API_KEY", extra)
        endpoints.append(user)
    return endpoints


async def endpoint_problem(endpoint: ModelEndpoint) -> str | None:
    """Why the endpoint cannot serve the run, in one line; None when it answers."""
    shown = without_secrets(endpoint.base_url)
    ping = [{"role": "user", "content": "ping"}]
    body = {"model": endpoint.model, "messages": ping, "max_tokens": 1, **endpoint.extra}
    client = ModelClient(
        endpoint.base_url, endpoint.api_key, max_retries=PREFLIGHT_RETRIES, timeout=PREFLIGHT_TIMEOUT_S
    )
    try:
        await client.chat_completion(body)
    except openai.APITimeoutError:
        return f"{endpoint.role} model endpoint {shown} did not answer within {PREFLIGHT_TIMEOUT_S:g} s"
    except openai.APIConnectionError as exc:
        return f"cannot reach {endpoint.role} model endpoint {shown}: {_reason(exc)}"
    except openai.APIStatusError as exc:
        return _status_problem(endpoint, shown, exc)
    finally:
        await client.close()
    return None


def _status_problem(endpoint: ModelEndpoint, shown: str | None, exc: openai.APIStatusError) -> str | None:
    status = exc.status_code
    where = f"{endpoint.role} model endpoint {shown}"
    if status in (401, 403):
        return f"{where} refused the key (HTTP {status}): set {endpoint.key_variable}"
    if status == 404:
        return f"{where} has no model {endpoint.model!r} (HTTP 404): check the model name and the URL's path"
    if status >= 500 or status == 429:
        return f"{where} failed (HTTP {status}); retry when it serves again"
    return None


def _reason(exc: openai.APIConnectionError) -> str:
    cause = getattr(exc.__cause__, "os_error", None) or exc.__cause__
    if isinstance(cause, ConnectionRefusedError):
        return "connection refused (nothing listens there)"
    if isinstance(cause, socket.gaierror):
        return "its host name does not resolve"
    text = str(cause) if cause is not None else str(exc)
    return " ".join(text.split())[:200] or type(exc).__name__


async def endpoint_problems(config: RunConfig) -> list[str]:
    """Every model endpoint of the run that cannot serve it, one line each (checked at once)."""
    found = await asyncio.gather(*(endpoint_problem(e) for e in run_endpoints(config)))
    return [problem for problem in found if problem is not None]
