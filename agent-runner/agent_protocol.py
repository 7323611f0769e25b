"""Agent protocol v1: the HTTP contract between the runner and a black-box agent (docs/agent-protocol.md).

The agent serves four routes; the runner is the client:

| route | body | answer |
|---|---|---|
| `GET /healthz` | - | 200 (body free; `{"status": "ok"}` suggested) |
| `POST /v1/episodes` | `StartEpisode` | 200 or 201 (body free); SHOULD: 400/422 for a malformed body |
| `POST /v1/episodes/{episode_id}/turns` | `TurnRequest` | 200 with `TurnReply`; 404 for an unknown episode |
| `DELETE /v1/episodes/{episode_id}` | - | 200 or 204; SHOULD: 404 for an unknown episode |

Everything not marked SHOULD is a MUST (docs/agent-protocol.md says which is which).

These models are the single source of the JSON Schemas in docs/schemas/ (`write_schemas`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

PROTOCOL_VERSION = "1"
HEALTH_PATH = "/healthz"
EPISODES_PATH = "/v1/episodes"
START_STATUSES = frozenset({200, 201})
DELETE_STATUSES = frozenset({200, 204})


def turns_path(episode_id: str) -> str:
    return f"{EPISODES_PATH}/{episode_id}/turns"


def episode_path(episode_id: str) -> str:
    return f"{EPISODES_PATH}/{episode_id}"


class McpServer(BaseModel):
    """One MCP endpoint the agent may call during the episode."""

    model_config = ConfigDict(title="McpServer")

    name: str = Field(description="The domain name, e.g. 'airline'.")
    transport: Literal["streamable-http"] = Field(
        default="streamable-http", description="MCP transport; v1 has only streamable HTTP."
    )
    url: str = Field(description="The episode's MCP endpoint, e.g. http://host:8000/episodes/ID/mcp.")
    headers: dict[str, str] = Field(
        description="Headers to send with every MCP request (the episode's bearer token)."
    )


class StartEpisode(BaseModel):
    """`POST /v1/episodes`: a new conversation begins."""

    model_config = ConfigDict(title="StartEpisode")

    episode_id: str = Field(description="Identifies the episode in the later routes.")
    domain: str = Field(description="The customer-service domain, e.g. 'airline'.")
    mcp_servers: list[McpServer] = Field(min_length=1, description="The tools the agent may use.")
    policy: str = Field(description="The domain policy (markdown) the agent must follow.")


class TurnRequest(BaseModel):
    """`POST /v1/episodes/{episode_id}/turns`: the user's next message."""

    model_config = ConfigDict(title="TurnRequest")

    user_message: str = Field(description="What the user said.")
    turn_index: int = Field(ge=0, description="0 for the first user message, then 1, 2, ...")


class Usage(BaseModel):
    """Optional, self-reported: the agent's cumulative token use in this episode. Never graded."""

    model_config = ConfigDict(title="Usage", extra="allow")

    prompt_tokens: int | None = Field(default=None, ge=0)
    completion_tokens: int | None = Field(default=None, ge=0)
    cost_usd: float | None = Field(default=None, ge=0)


class TurnReply(BaseModel):
    """The agent's answer to one user message, after whatever MCP tool calls it made."""

    model_config = ConfigDict(title="TurnReply")

    message: str = Field(min_length=1, description="The agent's message to the user.")
    usage: Usage | None = Field(default=None, description="Optional cumulative token use.")


class ErrorReply(BaseModel):
    """The body of a 4xx/5xx answer (suggested, not required)."""

    model_config = ConfigDict(title="ErrorReply")

    error: str


SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "start-episode": StartEpisode,
    "turn-request": TurnRequest,
    "turn-reply": TurnReply,
    "error-reply": ErrorReply,
}


def problems(exc: ValidationError, limit: int = 3) -> str:
    """A validation error in one line: `message: Field required; usage.cost_usd: ...`."""
    parts = []
    for error in exc.errors()[:limit]:
        where = ".".join(str(p) for p in error["loc"]) or "body"
        parts.append(f"{where}: {error['msg']}")
    more = len(exc.errors()) - limit
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def json_schemas() -> dict[str, dict[str, Any]]:
    """File stem -> JSON Schema (draft 2020-12) of each protocol message."""
    schemas = {}
    for stem, model in SCHEMA_MODELS.items():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = f"urn:taue:agent-protocol:v{PROTOCOL_VERSION}:{stem}"
        schemas[stem] = schema
    return schemas


def schema_text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    """Write every schema as `folder/<stem>.json`; returns the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for stem, schema in json_schemas().items():
        path = folder / f"{stem}.json"
        path.write_text(schema_text(schema), encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":  # python -m taue.runner.agent_protocol docs/schemas
    import sys

    for written in write_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/schemas")):
        print(written)
