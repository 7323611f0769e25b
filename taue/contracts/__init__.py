"""The contracts every part of τ-Emotion-Bench shares, and which depend on no other part.

| module | what |
|---|---|
| `emotions` | the emotion taxonomy: 5 families, 22 emotions, 594 conditions |
| `tasks` | the task schema (scenario, goals and their targets, evaluation) and target matching |
| `episode` | messages, the tool-log entry, terminations, the user's view of a turn, the reward breakdown |
| `run` | the run format: run.json (`RunConfig`), a results record (`EpisodeRecord`), `RunSummary` |
| `timeline` | an episode as one ordered list of events |
| `policy` | confirmation discipline: the violations an episode records and when they cost its reward |
| `text` | matching values in free text by tokens, numbers by value |
"""
