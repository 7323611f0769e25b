"""Signed episode outcomes: what the domain server observed and what the scorer made of it.

At the end of an episode the domain server seals it (no tool call is accepted afterwards) and signs
an `Observation`: the episode, its task, the task set it was played on, the final state hash and
digests of the tool log and of the task's expected outcome. The scorer checks that observation,
computes the reward, and signs a `Seal` over the observation (its signature included), the
transcript's digest, the termination and the reward. A record carries both (`Integrity`), with the
tool log, transcript and expected outcome the digests were made of, so `taue verify` can recompute
every digest and the reward from the record alone, and with the key check both signatures.

Signatures are HMAC-SHA256 with a key the servers hold (`TAUE_SIGNING_KEY`) over the canonical JSON
of the signed fields (sorted keys, no spaces, ASCII), each signer's payload prefixed with its own
label so that one kind of signature can never pass for the other. Who is trusted and what this
does and does not protect: docs/reliability.md, "Integrity".
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from taue.contracts.domain import ExpectedOutcome
from taue.contracts.episode import LoggedCall, Message, Termination, TimedCall
from taue.contracts.tasks import Task

SIGNING_KEY_VARIABLE = "TAUE_SIGNING_KEY"
SIGNING_KEY_FILE_VARIABLE = "TAUE_SIGNING_KEY_FILE"
ADMIN_TOKEN_VARIABLE = "TAUE_ADMIN_TOKEN"
ADMIN_TOKEN_FILE_VARIABLE = "TAUE_ADMIN_TOKEN_FILE"
INTEGRITY_VERSION = 1
SERVER_LABEL = b"taue/observation/v1\n"
SCORER_LABEL = b"taue/seal/v1\n"
CALL_FIELDS = ("name", "arguments", "ok", "output", "writes")
"""What of a logged call is signed: everything the server observed (the runner's `turn` is not)."""


class SigningKey:
    """An HMAC key, kept as the text it is given as (a file's content, a variable's value)."""

    def __init__(self, text: str) -> None:
        text = text.strip()
        if len(text) < 16:
            raise ValueError("a signing key must be at least 16 characters (e.g. `openssl rand -hex 32`)")
        self._secret = text.encode("utf-8")
        self.id = hashlib.sha256(b"taue/key-id\n" + self._secret).hexdigest()[:16]
        """Names the key in records without revealing it."""

    @classmethod
    def random(cls) -> SigningKey:
        return cls(secrets.token_hex(32))

    @classmethod
    def from_file(cls, path: Path) -> SigningKey:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ValueError(f"cannot read the signing key file {path}: {exc.strerror or exc}") from None
        return cls(text)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> SigningKey | None:
        """`TAUE_SIGNING_KEY`, else the file `TAUE_SIGNING_KEY_FILE` names (a mounted Secret), else None."""
        env = os.environ if environ is None else environ
        if env.get(SIGNING_KEY_VARIABLE):
            return cls(env[SIGNING_KEY_VARIABLE])
        if env.get(SIGNING_KEY_FILE_VARIABLE):
            return cls.from_file(Path(env[SIGNING_KEY_FILE_VARIABLE]))
        return None

    @property
    def text(self) -> str:
        """The key itself, to hand to a process that must sign with it (never to an agent)."""
        return self._secret.decode("utf-8")

    def sign(self, label: bytes, payload: Mapping[str, Any]) -> str:
        return hmac.new(self._secret, label + canonical_json(payload), hashlib.sha256).hexdigest()

    def signed(self, label: bytes, payload: Mapping[str, Any], signature: str | None) -> bool:
        return signature is not None and hmac.compare_digest(self.sign(label, payload), signature)


def admin_token_from_env(environ: Mapping[str, str] | None = None) -> str | None:
    """The services' admin token: `TAUE_ADMIN_TOKEN`, else the content of the file
    `TAUE_ADMIN_TOKEN_FILE` names (a mounted Secret), else None."""
    env = os.environ if environ is None else environ
    if env.get(ADMIN_TOKEN_VARIABLE):
        return env[ADMIN_TOKEN_VARIABLE].strip()
    path = env.get(ADMIN_TOKEN_FILE_VARIABLE)
    if not path:
        return None
    try:
        token = Path(path).read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise ValueError(f"cannot read the admin token file {path}: {exc.strerror or exc}") from None
    if not token:
        raise ValueError(f"the admin token file {path} is empty")
    return token


def canonical_json(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def sha256_of(value: Any) -> str:
    return hashlib.sha256(canonical_json(value)).hexdigest()


def tool_log_digest(calls: Iterable[LoggedCall]) -> str:
    return sha256_of([call.model_dump(mode="json", include=set(CALL_FIELDS)) for call in calls])


def expected_digest(expected: ExpectedOutcome) -> str:
    return sha256_of(expected.model_dump(mode="json"))


def transcript_digest(transcript: Sequence[Message]) -> str:
    return sha256_of([message.model_dump(mode="json") for message in transcript])


def task_set_hash(tasks: Mapping[str, Iterable[Task]]) -> str:
    """sha256 of every task of the given domains (each domain's tasks sorted by id, as JSON): a run's
    hash over all its domains, a domain server's over its own."""
    dumped = {
        name: [task.model_dump(mode="json") for task in sorted(tasks[name], key=lambda t: t.id)]
        for name in sorted(tasks)
    }
    return hashlib.sha256(json.dumps(dumped, sort_keys=True).encode()).hexdigest()


class Observation(BaseModel):
    """What the domain server observed at an episode's end, signed with its key."""

    version: int = INTEGRITY_VERSION
    domain: str
    episode_id: str
    task_id: str
    run_id: str | None
    seed: int
    task_set_hash: str
    """The hash of the domain's split that holds the task (`task_set_hash({domain: tasks})`)."""
    final_hash: str
    ended: bool
    """A conversation-ending tool (a transfer to a human) ran."""
    tool_log_sha256: str
    expected_sha256: str
    manifest_sha256: str | None = None
    """The digest of the signed run manifest the episode was created under (taue/contracts/run_seal.py):
    a record belongs to exactly one run's manifest. None for an episode created outside a run."""
    key_id: str | None = None
    server_signature: str | None = None

    def payload(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"server_signature"})

    def signed_by(self, key: SigningKey | None) -> Observation:
        if key is None:
            return self.model_copy(update={"key_id": None, "server_signature": None})
        unsigned = self.model_copy(update={"key_id": key.id, "server_signature": None})
        return unsigned.model_copy(update={"server_signature": key.sign(SERVER_LABEL, unsigned.payload())})


class EpisodeEnd(BaseModel):
    """The answer of `POST /episodes/{id}/finish`: everything the scorer needs, from one snapshot."""

    episode_id: str
    final_hash: str
    ended: bool
    tool_log: list[TimedCall]
    dropped: int = 0
    expected: ExpectedOutcome
    observation: Observation


class Integrity(Observation):
    """An episode record's proof: the server's observation and the scorer's seal over it."""

    transcript_sha256: str
    termination: Termination
    reward: int
    scorer_key_id: str | None = None
    scorer_signature: str | None = None

    def seal_payload(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"scorer_signature"})

    def observation(self) -> Observation:
        return Observation.model_validate(self.model_dump(include=set(Observation.model_fields)))

    def sealed_by(self, key: SigningKey | None) -> Integrity:
        if key is None:
            return self.model_copy(update={"scorer_key_id": None, "scorer_signature": None})
        unsigned = self.model_copy(update={"scorer_key_id": key.id, "scorer_signature": None})
        signature = key.sign(SCORER_LABEL, unsigned.seal_payload())
        return unsigned.model_copy(update={"scorer_signature": signature})

    def signature_problems(self, key: SigningKey) -> list[str]:
        """What is wrong with the signatures under `key` (empty when both are the key's and valid)."""
        problems = []
        if self.server_signature is None:
            problems.append("the domain server's observation is not signed")
        elif self.key_id != key.id:
            problems.append(f"the observation is signed with another key ({self.key_id}, not {key.id})")
        elif not key.signed(SERVER_LABEL, self.observation().payload(), self.server_signature):
            problems.append("the domain server's signature does not match the observation")
        if self.scorer_signature is None:
            problems.append("the scorer's seal is not signed")
        elif self.scorer_key_id != key.id:
            problems.append(f"the seal is signed with another key ({self.scorer_key_id}, not {key.id})")
        elif not key.signed(SCORER_LABEL, self.seal_payload(), self.scorer_signature):
            problems.append("the scorer's signature does not match the seal")
        return problems


def observation_problems(
    observation: Observation,
    task_id: str,
    final_hash: str | None,
    tool_log: Sequence[LoggedCall],
    expected: ExpectedOutcome,
) -> list[str]:
    """Where an observation disagrees with the tool log, end state and expected outcome beside it."""
    problems = []
    if observation.task_id != task_id or expected.task_id != task_id:
        problems.append(f"the observation is of task {observation.task_id!r}, not {task_id!r}")
    if observation.final_hash != final_hash:
        problems.append("the final state hash differs from the observation's")
    if observation.tool_log_sha256 != tool_log_digest(tool_log):
        problems.append("the tool log differs from the one the server observed")
    if observation.expected_sha256 != expected_digest(expected):
        problems.append("the expected outcome differs from the one the server gave")
    return problems
