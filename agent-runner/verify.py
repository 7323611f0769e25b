"""`taue verify`: does every record of a run hold what the servers observed?

For each record: its integrity block is there and names the record's own task, domain, seed, run,
termination and reward; the digests in it match the record's tool log, transcript and expected
outcome; the reward recomputed from the record's own tool log, expected outcome, final state hash and
policy violations (costing the reward where the run's domain and `--strict-policy` say so) is the
recorded one; the domain's task-set hash is the one recomputed from the tasks installed here;
and, given the key, both signatures are valid. For the run: its task-set hash recomputed from the tasks
it names, and every planned (task, trial) present exactly once.

Without the key a record can only be shown consistent, not authentic: whoever can write a results
file can write a consistent one. With it, a record passes only if a domain server and a scorer
holding the key made it (docs/reliability.md, "Integrity").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field, computed_field

from taue.contracts.integrity import SigningKey, observation_problems, transcript_digest
from taue.contracts.integrity import task_set_hash as hash_of_tasks
from taue.contracts.policy import policy_enforced
from taue.contracts.run import EpisodeRecord, RunConfig
from taue.contracts.run_seal import ManifestFile
from taue.runner.catalog import DomainCatalog, local_catalog
from taue.runner.embedded import run_key_file
from taue.runner.episode import episode_seed
from taue.runner.results import CONFIG, ResultsFile
from taue.runner.run_seal import SealError, key_for_id, manifest_problems, stored_seal
from taue.runner.runner import make_plan, stored_config
from taue.runner.storage import RunLocation
from taue.scorer.reward import score


class Episode(BaseModel):
    task_id: str
    trial: int


class BadRecord(BaseModel):
    where: str
    """The file and line (or object) of the record."""
    task_id: str
    trial: int
    problems: list[str]


class Verification(BaseModel):
    """What `taue verify` found (its `--json` output)."""

    run: str
    location: str
    records: int
    planned: int
    signatures_checked: bool
    """A key was given: every record's two signatures were checked with it."""
    key_id: str | None = None
    key_ids: list[str] = Field(default_factory=list)
    """Every key the signatures were checked with (a merged run's shards may have one each)."""
    key_file: str | None = None
    """The run's own key file the signatures were checked with, when no key was given."""
    bad_records: list[BadRecord] = Field(default_factory=list)
    missing: list[Episode] = Field(default_factory=list)
    duplicates: list[Episode] = Field(default_factory=list)
    unexpected: list[Episode] = Field(default_factory=list)
    run_problems: list[str] = Field(default_factory=list)

    @computed_field  # type: ignore[prop-decorator]  # pydantic's documented way to serialise a property
    @property
    def ok(self) -> bool:
        return not (
            self.bad_records or self.missing or self.duplicates or self.unexpected or self.run_problems
        )

    def lines(self) -> list[str]:
        """Every problem, one line each."""
        lines = [f"{self.location}: {problem}" for problem in self.run_problems]
        for bad in self.bad_records:
            lines += [f"{bad.where}: task {bad.task_id} trial {bad.trial}: {p}" for p in bad.problems]
        for name, episodes in (("missing", self.missing), ("duplicated", self.duplicates)):
            lines += [f"{self.location}: task {e.task_id} trial {e.trial} is {name}" for e in episodes]
        lines += [
            f"{self.location}: task {e.task_id} trial {e.trial} is not in the run's plan"
            for e in self.unexpected
        ]
        return lines


def own_key_files(location: str | RunLocation) -> list[Path]:
    """Every key of the embedded default this user holds for the run or the runs it merges (each shard
    of a local sharded run signs with its own)."""
    run = RunLocation.parse(location)
    if not run.exists(CONFIG):
        return []
    config = stored_config(run)
    ids = [config.run_id, *(config.merged_run_ids or [])]
    return [
        path
        for run_id in dict.fromkeys(ids)
        if run_id and _PLAIN_ID.fullmatch(run_id) and (path := run_key_file(run_id)).is_file()
    ]


_PLAIN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")


class VerifyError(ValueError):
    """A location that is not a run (no run.json, an unreadable results file): one line."""


def verify_run(
    location: str | RunLocation, key: SigningKey | Sequence[SigningKey] | None = None
) -> Verification:
    """Verify the run at `location`; with keys, every signature is checked with the key of the id it
    names (a merged run's shards may each have their own), else with the first key."""
    keys = _keys(key)
    key = keys[0] if keys else None
    run = RunLocation.parse(location)
    if not run.exists(CONFIG):
        raise VerifyError(f"{run} is not a run directory (no {CONFIG})")
    config = stored_config(run)
    located = ResultsFile(run).located()
    catalogs, run_problems = _catalogs(config)
    try:
        seal = stored_seal(run)
    except SealError as exc:
        raise VerifyError(str(exc)) from None
    run_problems += _seal_problems(config, seal, keys, catalogs)
    context = _Context(config, keys, catalogs, seal)
    bad = [
        BadRecord(where=where, task_id=record.task_id, trial=record.trial, problems=problems)
        for where, record in located
        if (problems := context.problems(record))
    ]
    counts = Counter(record.key for _, record in located)
    planned = _planned(config, seal, catalogs)
    if catalogs is not None:
        found = hash_of_tasks({name: catalogs[name].tasks for name in config.domains})
        if config.task_set_hash != found:
            run_problems.append(
                f"run.json's task-set hash {str(config.task_set_hash)[:12]} is not the one of the tasks "
                f"it names ({found[:12]})"
            )
    return Verification(
        run=config.run,
        location=str(run),
        records=len(located),
        planned=len(planned or ()),
        signatures_checked=key is not None,
        key_id=key.id if key else None,
        key_ids=[k.id for k in keys],
        bad_records=bad,
        missing=_episodes(planned - set(counts)) if planned is not None else [],
        duplicates=_episodes({k for k, n in counts.items() if n > 1}),
        unexpected=_episodes(set(counts) - planned) if planned is not None else [],
        run_problems=run_problems,
    )


def _planned(
    config: RunConfig, seal: ManifestFile | None, catalogs: dict[str, DomainCatalog] | None
) -> set[tuple[str, int]] | None:
    """The (task, trial) pairs the run must hold: its manifests' plans (the signed ones), else the plan
    run.json's settings make; None when neither can be known."""
    if seal is not None:
        return {(task_id, trial) for manifest in seal.manifests for task_id, trial in manifest.planned}
    if catalogs is None:
        return None
    return {(t.id, trial) for _, t, trial in make_plan(config, catalogs).episodes}


def _seal_problems(
    config: RunConfig,
    seal: ManifestFile | None,
    keys: list[SigningKey],
    catalogs: dict[str, DomainCatalog] | None,
) -> list[str]:
    """run.json against its manifests, and each manifest's plan against the plan its own settings make
    from the tasks installed here (a manifest cannot plan fewer episodes than its settings say)."""
    whole = None
    if catalogs is not None:
        whole = [
            (t.id, trial)
            for _, t, trial in make_plan(config.model_copy(update={"shard": None}), catalogs).episodes
        ]
    problems = manifest_problems(config, seal, keys, whole)
    if seal is None or catalogs is None:
        return problems
    for manifest in seal.manifests:
        try:
            own = RunConfig.model_validate({**manifest.settings, "run_id": manifest.run_id})
            expected = sorted((t.id, trial) for _, t, trial in make_plan(own, catalogs).episodes)
        except (ValueError, LookupError) as exc:
            problems.append(f"the manifest of run {manifest.run_id} cannot be planned here: {exc}")
            continue
        if sorted(map(tuple, manifest.planned)) != expected:
            problems.append(
                f"the manifest of run {manifest.run_id} plans {len(manifest.planned)} episodes; its settings "
                f"plan {len(expected)}"
            )
    return problems


def _keys(given: SigningKey | Sequence[SigningKey] | None) -> list[SigningKey]:
    if given is None:
        return []
    return [given] if isinstance(given, SigningKey) else list(given)


def _episodes(keys: set[tuple[str, int]]) -> list[Episode]:
    return [Episode(task_id=task_id, trial=trial) for task_id, trial in sorted(keys)]


def _catalogs(config: RunConfig) -> tuple[dict[str, DomainCatalog] | None, list[str]]:
    """The run's domains as installed here, or why they cannot be read."""
    try:
        return {name: _local(name, config.split) for name in config.domains}, []
    except (LookupError, ValueError) as exc:
        return None, [f"cannot recompute the run's tasks: {exc}"]


@cache
def _local(name: str, split: str) -> DomainCatalog:
    return local_catalog(name, split)


class _Context:
    def __init__(
        self,
        config: RunConfig,
        keys: list[SigningKey],
        catalogs: dict[str, DomainCatalog] | None,
        seal: ManifestFile | None,
    ) -> None:
        self.config = config
        self.keys = keys
        self.run_ids = {config.run_id, *(config.merged_run_ids or [])} - {None}
        self.manifests = {m.digest(): m for m in seal.manifests} if seal is not None else {}
        self.planned = {
            digest: {(task_id, trial) for task_id, trial in m.planned} for digest, m in self.manifests.items()
        }
        self.domain_hashes = (
            {name: hash_of_tasks({name: catalog.tasks}) for name, catalog in catalogs.items()}
            if catalogs is not None
            else None
        )
        self.enforced = (
            {name: policy_enforced(catalog.card, config.strict_policy) for name, catalog in catalogs.items()}
            if catalogs is not None
            else {}
        )

    def problems(self, record: EpisodeRecord) -> list[str]:
        integrity, expected = record.integrity, record.expected
        if integrity is None or expected is None:
            return ["no integrity block: not made by servers that sign what they observe"]
        problems = self._identity(record)
        problems += observation_problems(
            integrity.observation(), record.task_id, integrity.final_hash, record.tool_log, expected
        )
        if integrity.transcript_sha256 != transcript_digest(record.transcript):
            problems.append("the transcript differs from the one the scorer sealed")
        breakdown = record.breakdown
        recomputed = score(
            expected,
            integrity.final_hash,
            record.transcript,
            record.tool_log,
            integrity.termination,
            breakdown.policy_violations,
            self.enforced.get(record.domain, breakdown.policy_enforced),
        )
        if recomputed.reward != record.reward or record.breakdown.reward != record.reward:
            problems.append(
                f"the reward is {record.reward}, but the record's own tool log, expected outcome and final "
                f"state give {recomputed.reward}"
            )
        if self.keys:
            problems += integrity.signature_problems(key_for_id(self.keys, integrity.key_id))
        return problems

    def _identity(self, record: EpisodeRecord) -> list[str]:
        integrity = record.integrity
        assert integrity is not None
        problems = []
        if (integrity.task_id, integrity.domain) != (record.task_id, record.domain):
            problems.append(f"the integrity block is of task {integrity.task_id} in {integrity.domain}")
        if integrity.seed != record.seed or record.seed != episode_seed(
            self.config.seed, record.task_id, record.trial
        ):
            problems.append("the episode's seed is not the run's seed for this task and trial")
        if integrity.run_id not in self.run_ids:
            problems.append(f"made by another run (run id {integrity.run_id})")
        problems += self._manifest(record)
        if (integrity.termination, integrity.reward) != (record.termination, record.reward):
            problems.append(
                f"the record says {record.termination} with reward {record.reward}; the scorer sealed "
                f"{integrity.termination} with reward {integrity.reward}"
            )
        if self.domain_hashes is not None:
            expected_hash = self.domain_hashes.get(record.domain)
            if expected_hash is None:
                problems.append(f"domain {record.domain} is not one of the run's")
            elif integrity.task_set_hash != expected_hash:
                problems.append(f"played on another task set ({integrity.task_set_hash[:12]})")
        return problems

    def _manifest(self, record: EpisodeRecord) -> list[str]:
        """The record names one of the run's manifests, of its own run, that plans its (task, trial)."""
        if not self.manifests:
            return []  # a run problem already: no manifest
        integrity = record.integrity
        assert integrity is not None
        manifest = self.manifests.get(integrity.manifest_sha256 or "")
        if manifest is None:
            named = (integrity.manifest_sha256 or "none")[:12]
            return [f"made under another run's manifest ({named}), not this run's"]
        problems = []
        if integrity.run_id != manifest.run_id:
            problems.append(f"made by run {integrity.run_id}, but its manifest is of run {manifest.run_id}")
        if record.key not in self.planned[integrity.manifest_sha256 or ""]:
            problems.append(f"not in the plan of its manifest (run {manifest.run_id})")
        return problems
