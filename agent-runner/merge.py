"""Combining the results of several runs (the shards of one run) into one run directory.

Every input is verified first (agent-runner/verify.py: signatures with the key when one is given,
digests, rewards recomputed, task sets, duplicates); a record that fails, or one (task, trial) held by
two inputs with different records, stops the merge unless `allow_unverified`."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taue.contracts.integrity import SigningKey
from taue.contracts.run import EpisodeRecord, RunConfig
from taue.contracts.run_seal import ManifestFile, SignedManifest
from taue.runner.catalog import local_catalog
from taue.runner.results import CONFIG, ResultsFile, load_run
from taue.runner.run_seal import SealError, manifest_problems, stored_seal, write_seal
from taue.runner.runner import make_plan
from taue.runner.storage import RunLocation
from taue.runner.verify import verify_run

PER_SHARD = frozenset({"shard", "run", "manifest", "run_id", "merged_run_ids", "endpoint_changes"})
"""Settings that may differ between shards of one run: the slice, the name (which defaults to each
shard's --out folder), the manifest (each shard's pod and version; the merged run keeps the
first shard's) and the run id (each run directory's own; the merged one gets a new one)."""


class MergeError(ValueError):
    pass


@dataclass
class MergeReport:
    episodes: int
    missing: int
    run: str
    unverified: list[str]
    """The verification problems let through (`allow_unverified`), one line each."""


def merge_runs(
    run_dirs: Sequence[Path | RunLocation],
    out: Path | RunLocation,
    name: str | None = None,
    key: SigningKey | None = None,
    allow_unverified: bool = False,
) -> MergeReport:
    """Merge `run_dirs` into `out`; every input must be a shard (or copy) of the same run. Each may
    be a local folder or a prefix in an object store (agent-runner/storage.py).

    The merged run is named `name`, else the shards' common name, else `out`'s folder name (as
    `taue run` names a run); every merged record carries that name.
    """
    runs = [_run(run_dir) for run_dir in run_dirs]
    configs = [config for config, _ in runs]
    for run_dir, config in zip(run_dirs[1:], configs[1:], strict=True):
        _check_same_run(run_dirs[0], configs[0], run_dir, config)
    unverified = _unverified(run_dirs, key)
    seal = _merged_seal(run_dirs)
    merged = {
        "shard": None,
        "run": name or _merged_name(configs, out),
        "run_id": uuid.uuid4().hex,
        "merged_run_ids": sorted({m.run_id for m in seal.manifests}) if seal else [],
    }
    base = configs[0].model_copy(update=merged)
    if seal is not None:
        unverified += [f"{out}: {problem}" for problem in manifest_problems(base, seal, [], None)]
    records: dict[tuple[str, int], EpisodeRecord] = {}
    for run_dir, (_, loaded) in zip(run_dirs, runs, strict=True):
        for record in loaded:
            kept = records.setdefault(record.key, record.model_copy(update={"run": base.run}))
            if _episode_id(kept) != _episode_id(record):
                unverified.append(
                    f"{run_dir}: task {record.key[0]} trial {record.key[1]} is also in another input"
                )
    if unverified and not allow_unverified:
        raise MergeError(
            "records that fail verification (--allow-unverified merges them anyway):\n"
            + "\n".join(unverified)
        )
    _write(out, base, list(records.values()), seal)
    catalogs = {domain: local_catalog(domain, base.split) for domain in base.domains}
    planned = {(task.id, trial) for _, task, trial in make_plan(base, catalogs).episodes}
    return MergeReport(
        episodes=len(records), missing=len(planned - set(records)), run=base.run, unverified=unverified
    )


def _unverified(run_dirs: Sequence[Path | RunLocation], key: SigningKey | None) -> list[str]:
    """Every verification problem of the inputs but missing episodes (a shard may be rerun later)."""
    lines = []
    for run_dir in run_dirs:
        found = verify_run(RunLocation.parse(run_dir), key).model_copy(update={"missing": []})
        lines += found.lines()
    return lines


def _episode_id(record: EpisodeRecord) -> str | None:
    return record.integrity.episode_id if record.integrity else None


def _check_same_run(
    first_dir: Path | RunLocation, first: RunConfig, run_dir: Path | RunLocation, config: RunConfig
) -> None:
    if config.task_set_hash != first.task_set_hash:
        raise MergeError(
            f"{run_dir} was run on other tasks than {first_dir} (task-set hashes "
            f"{str(config.task_set_hash)[:12]} and {str(first.task_set_hash)[:12]})"
        )
    theirs, ours = config.model_dump(mode="json"), first.model_dump(mode="json")
    differing = [key for key in ours if key not in PER_SHARD and ours[key] != theirs[key]]
    if differing:
        changes = ", ".join(f"{key} {_short(theirs[key])} vs {_short(ours[key])}" for key in differing)
        raise MergeError(
            f"{run_dir} has other settings than {first_dir}: {changes}; only shards of one run merge"
        )


def _merged_name(configs: list[RunConfig], out: Path | RunLocation) -> str:
    names = {config.run for config in configs}
    if len(names) == 1:
        return names.pop()
    folder = RunLocation.parse(out).local
    return folder.resolve().name if folder is not None else RunLocation.parse(out).name


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 40 else text[:37] + "..."


def _merged_seal(run_dirs: Sequence[Path | RunLocation]) -> ManifestFile | None:
    """The manifests of every input (a merged input brings its own), once each; None when an input
    has none (its verification problem says so)."""
    manifests: dict[str, SignedManifest] = {}
    for run_dir in run_dirs:
        try:
            seal = stored_seal(RunLocation.parse(run_dir))
        except SealError as exc:
            raise MergeError(str(exc)) from None
        if seal is None:
            return None
        for manifest in seal.manifests:
            manifests.setdefault(manifest.digest(), manifest)
    ordered = sorted(manifests.values(), key=lambda m: (m.shard or (0, 0), m.run_id))
    return ManifestFile(manifests=ordered, merged=True)


def _write(
    out: Path | RunLocation, config: RunConfig, records: list[EpisodeRecord], seal: ManifestFile | None
) -> None:
    location = RunLocation.parse(out)
    location.make()
    if seal is not None:
        write_seal(location, seal)
    location.write_text(CONFIG, json.dumps(config.model_dump(mode="json"), indent=2, sort_keys=True) + "\n")
    ResultsFile(location).replace(records)


def _run(run_dir: Path | RunLocation) -> tuple[RunConfig, list[EpisodeRecord]]:
    """A run to merge: its run.json and records."""
    location = RunLocation.parse(run_dir)
    if not location.exists(CONFIG):
        raise MergeError(f"{run_dir} is not a run directory (no {CONFIG})")
    run = load_run(location)
    assert run.config is not None  # checked above
    return run.config, run.records
