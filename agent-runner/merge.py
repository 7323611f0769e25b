"""Combining the results of several runs (the shards of one run) into one run directory."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from taue.runner.catalog import local_catalog
from taue.runner.results import CONFIG, EpisodeRecord, ResultsFile
from taue.runner.runner import RunConfig, make_plan


class MergeError(ValueError):
    pass


@dataclass
class MergeReport:
    episodes: int
    missing: int


def merge_runs(run_dirs: list[Path], out: Path) -> MergeReport:
    """Merge `run_dirs` into `out`; every input must be a shard (or copy) of the same run."""
    configs = [_config(run_dir) for run_dir in run_dirs]
    base = configs[0].model_copy(update={"shard": None})
    for run_dir, config in zip(run_dirs, configs, strict=True):
        if config.task_set_hash != base.task_set_hash:
            raise MergeError(
                f"{run_dir} was run on other tasks than {run_dirs[0]} (task-set hashes "
                f"{str(config.task_set_hash)[:12]} and {str(base.task_set_hash)[:12]})"
            )
        if config.model_copy(update={"shard": None}) != base:
            raise MergeError(f"{run_dir} has other settings than {run_dirs[0]}; only shards of one run merge")
    records: dict[tuple[str, int], EpisodeRecord] = {}
    for run_dir in run_dirs:
        for record in ResultsFile(run_dir).load():
            records.setdefault(record.key, record)
    out.mkdir(parents=True, exist_ok=True)
    (out / CONFIG).write_text(json.dumps(base.model_dump(mode="json"), indent=2, sort_keys=True) + "\n")
    results = ResultsFile(out)
    results.path.unlink(missing_ok=True)
    for record in records.values():
        results.append(record)
    results.compact()
    catalogs = {name: local_catalog(name, base.split) for name in base.domains}
    planned = {(task.id, trial) for _, task, trial in make_plan(base, catalogs).episodes}
    return MergeReport(episodes=len(records), missing=len(planned - set(records)))


def _config(run_dir: Path) -> RunConfig:
    path = run_dir / CONFIG
    if not path.exists():
        raise MergeError(f"{run_dir} is not a run directory (no {CONFIG})")
    return RunConfig.model_validate_json(path.read_text())
