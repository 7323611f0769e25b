"""Task sets: published τ-bench-family tasks and databases imported into our format, run as domains.

A task set is a folder `<TAUE_TASK_SETS_DIR or ./task-sets>/<NAME>/` holding `task_set.json` (what
it is and where it came from), `tasks.json` (our task schema), `policy.md` (the imported policy
document) and `db/*.json` (the database in the published layout).
`envs.runtime.registry.get_domain(NAME)` resolves it to its base domain's tools and tables over that
database, so the runner, the servers and the scorer treat it like any other domain.

Modules: `storage` (folders and `task_set.json`), `published` (the published task shape and JSON
task files), `pyparse` (safe reading of Python task files), `scenario` (structured user scenarios
derived from published tasks, with `statements` (what the instruction says the user knows),
`requests` (what it asks for), `refusals` (refusal-expected goals for what no gold write does),
`policy_reasons` (their reasons, from the policy) and `wording` (word stems and kinds of change)),
`importer` (`taue import tau-bench`), `loader` (task set -> Domain),
`exporter` (our state -> the published JSON layout).
"""
