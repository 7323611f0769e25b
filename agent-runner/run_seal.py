"""The run's signed manifest in a run directory: sealed at run start, checked by `taue verify`.

`taue run` asks the scorer to seal the manifest (taue/contracts/run_seal.py) before its first
episode, keeps it as `manifest.json`, and sends its digest with every episode it creates, so that
both signatures of every record name it. A resumed run reuses the stored manifest. `taue merge`
keeps every merged run's manifest; `merged_run_ids` must be their run ids.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import ValidationError

from taue.contracts.integrity import SigningKey
from taue.contracts.run import RunConfig
from taue.contracts.run_seal import (
    MANIFEST_FILE,
    PER_SHARD_SETTINGS,
    ManifestBody,
    ManifestFile,
    SignedManifest,
    plan_digest,
    sealed_settings,
)
from taue.runner.storage import RunLocation

Sealer = Callable[[ManifestBody], Awaitable[SignedManifest]]


class SealError(ValueError):
    """A manifest.json that cannot be read: one line."""


def stored_seal(location: RunLocation) -> ManifestFile | None:
    """The run's manifest.json, None when it has none; a damaged one is a `SealError`."""
    if not location.exists(MANIFEST_FILE):
        return None
    try:
        return ManifestFile.model_validate_json(location.read_text(MANIFEST_FILE))
    except ValidationError as exc:
        raise SealError(
            f"{location.shown(MANIFEST_FILE)} is not a run manifest: {exc.errors()[0]['msg']}"
        ) from None


def write_seal(location: RunLocation, seal: ManifestFile) -> None:
    location.write_text(
        MANIFEST_FILE, json.dumps(seal.model_dump(mode="json"), indent=2, sort_keys=True) + "\n"
    )


def manifest_body(
    config: RunConfig, planned: list[tuple[str, int]], whole: list[tuple[str, int]]
) -> ManifestBody:
    assert config.run_id is not None
    return ManifestBody(
        run_id=config.run_id,
        settings=sealed_settings(config.model_dump(mode="json")),
        planned=sorted(planned),
        whole_plan_sha256=plan_digest(whole),
    )


async def ensure_seal(location: RunLocation, body: ManifestBody, seal: Sealer) -> SignedManifest:
    """The run's manifest: the stored one when it is this run's (a resumed run), else a new one
    sealed by `seal` and stored before any episode starts."""
    stored = stored_seal(location)
    if stored is not None and not stored.merged and len(stored.manifests) == 1:
        manifest = stored.manifests[0]
        if ManifestBody.model_validate(manifest.model_dump(exclude={"sealed_at"})).model_dump(
            exclude={"sealed_at"}
        ) == body.model_dump(exclude={"sealed_at"}):
            return manifest
    manifest = await seal(body)
    write_seal(location, ManifestFile(manifests=[manifest]))
    return manifest


def key_for_id(keys: list[SigningKey], key_id: str | None) -> SigningKey:
    """The key of `key_id` among `keys` (not empty), else the first (whose check then names the
    other key)."""
    return next((key for key in keys if key.id == key_id), keys[0])


def manifest_problems(
    config: RunConfig,
    seal: ManifestFile | None,
    keys: list[SigningKey],
    whole: list[tuple[str, int]] | None,
) -> list[str]:
    """Where run.json disagrees with its manifest(s), or the manifests with each other or the key;
    `whole`: the run's whole plan as recomputed here (None when the tasks cannot be)."""
    if seal is None:
        return ["no signed manifest (manifest.json): not made by `taue run` with servers that seal runs"]
    problems = []
    if keys:
        problems += [p for m in seal.manifests if (p := m.signature_problem(key_for_id(keys, m.key_id)))]
    if seal.merged or len(seal.manifests) > 1:
        problems += _merged_problems(config, seal.manifests)
    else:
        problems += _plain_problems(config, seal.manifests[0])
    if whole is not None and any(m.whole_plan_sha256 != plan_digest(whole) for m in seal.manifests):
        problems.append("the manifest's plan is not the one run.json's settings make")
    return problems


def _plain_problems(config: RunConfig, manifest: SignedManifest) -> list[str]:
    problems = _field_problems(sealed_settings(config.model_dump(mode="json")), manifest.settings, set())
    if config.run_id != manifest.run_id:
        problems.append(f"run.json's run_id {config.run_id} is not the manifest's ({manifest.run_id})")
    if config.merged_run_ids:
        problems.append("run.json lists merged_run_ids, but its manifest is of one run, not a merge")
    return problems


def _merged_problems(config: RunConfig, manifests: list[SignedManifest]) -> list[str]:
    first = manifests[0]
    problems = _field_problems(
        sealed_settings(config.model_dump(mode="json")), first.settings, {"shard", "run"}
    )
    if config.shard is not None:
        problems.append("run.json of a merged run names a shard")
    for other in manifests[1:]:
        differing = [
            k
            for k in _keys(first.settings, other.settings) - PER_SHARD_SETTINGS
            if first.settings.get(k) != other.settings.get(k)
        ]
        if differing:
            problems.append(
                f"the merged runs {first.run_id} and {other.run_id} differ in "
                f"{', '.join(sorted(differing))}: "
                "only shards of one run merge"
            )
        if other.whole_plan_sha256 != first.whole_plan_sha256:
            problems.append(f"the merged runs {first.run_id} and {other.run_id} have different plans")
    problems += _shard_problems(manifests)
    listed = sorted(m.run_id for m in manifests)
    if sorted(config.merged_run_ids or []) != listed:
        problems.append(
            f"run.json's merged_run_ids {sorted(config.merged_run_ids or [])} are not the merged manifests' "
            f"run ids {listed}"
        )
    return problems


def _shard_problems(manifests: list[SignedManifest]) -> list[str]:
    """Every merged manifest is its own shard of the same count: two runs of one slice (or of the
    whole plan) would let a merge keep the better of two attempts."""
    seen: dict[tuple[int, int] | None, str] = {}
    problems = []
    for manifest in manifests:
        shard = manifest.shard
        if shard in seen and seen[shard] != manifest.run_id:
            what = f"shard {shard[0]}/{shard[1]}" if shard else "the whole plan"
            problems.append(
                f"runs {seen[shard]} and {manifest.run_id} both ran {what}: "
                "a merge may hold one run of each slice"
            )
        seen.setdefault(shard, manifest.run_id)
    counts = {shard[1] if shard else None for shard in seen}
    if len(counts) > 1:
        problems.append(f"the merged runs are shards of different counts ({sorted(map(str, counts))})")
    return problems


def _field_problems(ours: dict[str, Any], sealed: dict[str, Any], ignored: set[str]) -> list[str]:
    return [
        f"run.json's {key} {_short(ours.get(key))} is not the signed manifest's {_short(sealed.get(key))}"
        for key in sorted(_keys(ours, sealed) - ignored)
        if ours.get(key) != sealed.get(key)
    ]


def _keys(a: dict[str, Any], b: dict[str, Any]) -> set[str]:
    return set(a) | set(b)


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."
