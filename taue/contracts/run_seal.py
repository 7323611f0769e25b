"""A run's signed manifest: what the run is, sealed by the scorer before its first episode.

The manifest holds the run's id, every setting that defines it (agent and model identity, user
backend and model, seed, trials, condition, limits, task selection, task-set hash, …), the planned
(task, trial) list of this run (of this shard, for a shard) and the digest of the whole run's plan.
The scorer signs it with the servers' key (label `taue/manifest/v1`); every episode's observation and
seal then name the manifest's digest (`Observation.manifest_sha256`), so a record belongs to exactly
one manifest. `taue verify` checks run.json against it field by field, and the records against its
plan. A merged run keeps the manifests of the runs it merges (`manifest.json`'s `manifests`), one per
shard.

Not sealed: the run id's companions that change legitimately (`merged_run_ids`, `endpoint_changes`),
the model endpoints' URLs (`--allow-endpoint-change` resumes a run at a new URL of the same model)
and, in `manifest`, the endpoint URLs too.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from taue.contracts.episode import utc_now
from taue.contracts.integrity import SigningKey, sha256_of

MANIFEST_LABEL = b"taue/manifest/v1\n"
MANIFEST_FILE = "manifest.json"
UNSEALED_SETTINGS = frozenset({"run_id", "merged_run_ids", "endpoint_changes", "base_url", "user_base_url"})
PER_SHARD_SETTINGS = frozenset({"shard", "run", "manifest"})
"""Sealed settings that may differ between the shards of one run (the slice, the name each shard's
folder gives it, the pod and version that ran it)."""


def sealed_settings(config: dict[str, Any]) -> dict[str, Any]:
    """The settings of a run.json (as JSON) that its manifest seals."""
    settings = {key: value for key, value in config.items() if key not in UNSEALED_SETTINGS}
    made = settings.get("manifest")
    if isinstance(made, dict):
        made = dict(made)
        for side in ("agent", "user"):
            if isinstance(made.get(side), dict):
                made[side] = {k: v for k, v in made[side].items() if k != "base_url"}
        settings["manifest"] = made
    return settings


def plan_digest(planned: list[tuple[str, int]]) -> str:
    return sha256_of(sorted([task_id, trial] for task_id, trial in planned))


class ManifestBody(BaseModel):
    """What the runner asks the scorer to seal."""

    version: int = 1
    run_id: str
    settings: dict[str, Any]
    """`sealed_settings(run.json)`."""
    planned: list[tuple[str, int]]
    """This run's (task, trial) list: the whole plan, or a shard's slice of it."""
    whole_plan_sha256: str
    """`plan_digest` of the run's plan before it is sliced into shards."""
    sealed_at: str | None = None
    """When the scorer sealed it (the scorer's clock)."""


class SignedManifest(ManifestBody):
    key_id: str | None = None
    signature: str | None = None

    def payload(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"signature"})

    def digest(self) -> str:
        """What every record of the run names: sha256 of the whole manifest, signature included."""
        return sha256_of(self.model_dump(mode="json"))

    def signed_by(self, key: SigningKey | None) -> SignedManifest:
        if key is None:
            return self.model_copy(update={"key_id": None, "signature": None})
        unsigned = self.model_copy(update={"key_id": key.id, "signature": None})
        return unsigned.model_copy(update={"signature": key.sign(MANIFEST_LABEL, unsigned.payload())})

    def signature_problem(self, key: SigningKey) -> str | None:
        if self.signature is None:
            return f"the manifest of run {self.run_id} is not signed"
        if self.key_id != key.id:
            return (
                f"the manifest of run {self.run_id} is signed with another key ({self.key_id}, not {key.id})"
            )
        if not key.signed(MANIFEST_LABEL, self.payload(), self.signature):
            return f"the manifest of run {self.run_id} does not match its signature"
        return None

    @property
    def shard(self) -> tuple[int, int] | None:
        shard = self.settings.get("shard")
        return (int(shard[0]), int(shard[1])) if shard else None


def seal_manifest(body: ManifestBody, key: SigningKey | None) -> SignedManifest:
    """What the scorer does with a manifest: stamp it with its clock and sign it with its key."""
    stamped = SignedManifest.model_validate(body.model_dump() | {"sealed_at": utc_now()})
    return stamped.signed_by(key)


class ManifestFile(BaseModel):
    """`manifest.json` of a run directory: the run's manifest, or a merged run's shard manifests."""

    manifests: list[SignedManifest] = Field(min_length=1)
    merged: bool = False
