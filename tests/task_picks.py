"""Tasks tests pick by what they need, not by id: the Tracer rebuilds the sets, so an id's content
changes with them."""

from __future__ import annotations

from taue.envs.runtime.discovery import get_domain


def plain_task_id(domain_name: str, neutral: bool = False) -> str:
    """The first task whose goals are all ordinary action goals (nothing to refuse, nothing to tell):
    replaying its gold calls and reporting the writes solves it."""
    for task in get_domain(domain_name).tasks:
        if (task.emotion is None) != neutral:
            continue
        goals = task.user_scenario.goals
        if all(g.kind == "action" and not g.refusal_expected for g in goals) and not task.evaluation.outputs:
            return task.id
    raise AssertionError(f"no plain {domain_name} task")


def pester_task_id(domain_name: str, leaves: bool) -> str:
    """The emotional task whose user tolerates the fewest needless questions (`leaves`: the pester
    agent, which asks for every argument, exhausts that user) or the most (pester is borne)."""
    from taue.simulator.satisfaction import tolerated_needless_questions

    def tolerance(task) -> int:
        e = task.emotion
        return tolerated_needless_questions(e.politeness, e.urgency, e.trust, e.emotion)

    tasks = [t for t in get_domain(domain_name).tasks if t.emotion is not None]
    return (min if leaves else max)(tasks, key=tolerance).id
