"""`RunSummary`, the `taue summary --json` object as a model: its JSON is the command's, byte for byte,
and every reader of a run goes through `load_run`."""

from __future__ import annotations

import json
from pathlib import Path

from taue.contracts.run import FailureCategories, JudgeBlock, LoadedRun, RunConfig, RunSummary
from taue.report.failures import attribute_records, failure_categories
from taue.report.run_data import open_infra_errors
from taue.runner.interaction import interaction_stats
from taue.runner.results import load_run
from taue.scorer.metrics import summarize
from tests.report.conftest import taue

SAVED = Path(__file__).parent / "data" / "summary-liar.json"
"""`taue summary --json` of the liar's report run, printed before the summary was a model."""


def dict_summary(run: LoadedRun) -> str:
    """The summary as `taue summary --json` built it before `RunSummary`: the dicts, merged and dumped."""
    failures = attribute_records(run.records, run.split)
    extra = {
        "interaction": interaction_stats(run.records),
        "failure_categories": failure_categories(failures, len(open_infra_errors(run, run.records))),
        "retries": run.retries,
    }
    metrics = summarize(record.outcome() for record in run.records).model_dump()
    return json.dumps({**metrics, **extra}, indent=2, sort_keys=True)


def test_the_summary_json_is_the_models_dump_byte_for_byte(report_runs) -> None:
    """The keys of before, unchanged, and the run's verification status beside them."""
    for agent, path in report_runs.items():
        printed = taue("summary", str(path), "--json")
        assert printed.exit_code == 0, printed.output
        run = load_run(path)
        verification = json.loads(printed.output)["verification"]
        before = json.loads(dict_summary(run))
        assert (
            printed.output
            == json.dumps({**before, "verification": verification}, indent=2, sort_keys=True) + "\n"
        )
        assert verification["label"] == "self-signed" and verification["problems"] == [], agent
        assert RunSummary.model_validate_json(printed.output).to_json() + "\n" == printed.output


def test_a_saved_summary_reads_and_dumps_unchanged() -> None:
    saved = SAVED.read_text()
    summary = RunSummary.model_validate_json(saved)
    assert summary.to_json() + "\n" == saved
    assert summary.headline == "emotional" and summary.by_domain["airline"].trials == 2
    assert (
        summary.failure_categories.llm_judge is None
        and "llm_judge" not in json.loads(saved)["failure_categories"]
    )


def test_the_judge_block_is_dumped_only_when_the_judge_was_asked() -> None:
    block = JudgeBlock(
        model="m", judged=2, errors=0, counts={"intent_misread": 1}, shares={"intent_misread": 0.5}
    )
    categories = {"failed": 2, "counts": {}, "shares": {}, "labels": {}, "unsatisfied_reasons": {}}
    assert "llm_judge" not in FailureCategories(**categories).model_dump(mode="json")
    judged = FailureCategories(**categories, llm_judge=block).model_dump(mode="json")
    assert judged["llm_judge"] == block.model_dump()


def test_load_run_reads_settings_records_and_errors(report_runs, tmp_path: Path) -> None:
    run = load_run(report_runs["liar"])
    assert isinstance(run.config, RunConfig) and run.config.agent == "liar" and run.config.trials == 2
    assert len(run.records) == 16 and run.errors == [] and run.retries == 0 and run.split == "eval"
    (tmp_path / "results.jsonl").write_bytes((report_runs["liar"] / "results.jsonl").read_bytes())
    (tmp_path / "errors.jsonl").write_text('{"kind": "retry", "task_id": "t", "trial": 0}\n')
    copied = load_run(tmp_path)  # results without run.json
    assert copied.config is None and copied.split == "eval" and copied.retries == 1
