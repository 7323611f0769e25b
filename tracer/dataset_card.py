"""The dataset card (README.md of an exported dataset): how to load it, how it was made, what is in it.

Its front matter is what `datasets.load_dataset(FOLDER)` reads (the data file of the train split);
the body gives the filter steps, the counts by domain, family, condition, reward and agent, and the
interaction statistics of the input and of what was kept.
"""

from __future__ import annotations

from typing import Any

from taue.tracer.export import DATA_FILE

TITLES = {
    "sft": "τ-Emotion-Bench trajectories for supervised fine-tuning",
    "preference": "τ-Emotion-Bench preference pairs",
}
FORMATS = {
    "sft": (
        "Each row is one episode that scored +1, as `messages` (system = the domain policy, user, "
        "assistant with `tool_calls`, tool) and `tools` (the domain's tools as OpenAI function schemas, "
        "a JSON string) — the conversational language-modelling format of TRL's `SFTTrainer`."
    ),
    "preference": (
        "Each row pairs two episodes of the same task and emotion condition: `chosen` scored +1, "
        "`rejected` scored 0 or −1. `prompt` is the conversation they share (system = the domain policy); "
        "`chosen` and `rejected` are the continuations, each starting with the agent's move; `tools` "
        "(a JSON string) as for SFT — the conversational preference format of TRL's `DPOTrainer`."
    ),
}
INTERACTION_COLUMNS = (
    ("episodes", "episodes", "d"),
    ("tool calls / episode", "tool_calls_per_episode", ".2f"),
    ("questions / episode", "questions_per_episode", ".2f"),
    ("tool calls / question", "tool_calls_per_question", ".2f"),
    ("more calls than questions", "more_calls_than_questions", ".1%"),
    ("needless questions / episode", "needless_questions_per_episode", ".2f"),
)


def render_card(stats: dict[str, Any]) -> str:
    kind = stats["format"]
    output = stats["output"]
    parts = [
        _front_matter(kind),
        f"# {TITLES[kind]}\n",
        f"{output['rows']} rows in `{DATA_FILE}`. Made by `taue tracer export` (τ-Emotion-Bench) from "
        f"{stats['input']['episodes']} rollout episodes.\n",
        "```python\nfrom datasets import load_dataset\n"
        f'dataset = load_dataset("json", data_files="path/to/folder/{DATA_FILE}", split="train")\n```\n\n'
        '(`load_dataset("path/to/folder")` works too, but caches by this card: after exporting '
        "again into the same folder it can return the old rows.)\n",
        f"## Format\n\n{FORMATS[kind]} The other columns describe where a row came from.\n",
        _options_section(stats["options"]),
        _table("## Filter steps", ("step", "count"), [(s["step"], s["count"]) for s in stats["steps"]]),
        _table("## Input episodes by reward", ("reward", "episodes"), stats["input"]["by_reward"].items()),
        _table(
            "## Input episodes by termination",
            ("termination", "episodes"),
            stats["input"]["by_termination"].items(),
        ),
        _agents_table(stats["input"]["by_agent"]),
    ]
    for key, title in (
        ("by_domain", "domain"),
        ("by_family", "emotion family"),
        ("by_reward", "reward"),
        ("by_agent", "agent"),
        ("by_condition", "emotion condition"),
    ):
        parts.append(_table(f"## Rows by {title}", (title, "rows"), output[key].items()))
    parts.append(_interaction_section(stats["interaction"]))
    return "\n".join(parts)


def _front_matter(kind: str) -> str:
    return (
        "---\n"
        "configs:\n"
        "- config_name: default\n"
        "  data_files:\n"
        "  - split: train\n"
        f"    path: {DATA_FILE}\n"
        "tags:\n- tool-calling\n- agents\n- emotion\n- tau-emotion-bench\n"
        f"- {'sft' if kind == 'sft' else 'dpo'}\n"
        "---\n"
    )


def _options_section(options: dict[str, Any]) -> str:
    shown = ", ".join(f"`{name}` = {value}" for name, value in sorted(options.items()))
    return f"## Options\n\n{shown}\n"


def _agents_table(by_agent: dict[str, dict[str, int]]) -> str:
    columns = sorted({name for counts in by_agent.values() for name in counts})
    rows = [(agent, *(counts.get(c, 0) for c in columns)) for agent, counts in by_agent.items()]
    return _table("## Input episodes by agent", ("agent", *columns), rows)


def _interaction_section(interaction: dict[str, Any]) -> str:
    header = ("group", *(title for title, _, _ in INTERACTION_COLUMNS))
    rows = []
    for label, stats in (("input", interaction["input"]), ("kept", interaction["kept"])):
        rows.append((f"{label}: all", *_figures(stats)))
        for key in ("by_domain", "by_family"):
            groups = stats[key].items()
            rows.extend((f"{label}: {key[3:]} {name}", *_figures(group)) for name, group in groups)
    note = (
        "A question is an agent message with a question mark. A needless question asks for a fact the "
        "tools could give, as the scripted user judged it (none for other user backends: `-`). For the "
        "kept rows of a preference set the figures are those of the chosen trajectories."
    )
    return _table("## Interaction statistics", header, rows) + f"\n{note}\n"


def _figures(stats: dict[str, Any]) -> list[str]:
    return ["-" if stats[key] is None else format(stats[key], form) for _, key, form in INTERACTION_COLUMNS]


def _table(title: str, header: tuple[str, ...], rows: Any) -> str:
    lines = [title, "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines.extend("| " + " | ".join(str(cell) for cell in row) + " |" for row in rows)
    return "\n".join(lines) + "\n"
