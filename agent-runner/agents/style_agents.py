"""Judge agents that work like real frontier agents write: they ask how a need is paid, lay out options,
announce a plan, word the policy their own way, talk warmly and at length — or over-claim.

Each does exactly the careful agents' calls, in the same order, one change at a time after a yes
(`judge_agents.CarefulAgent`); only what it says around them differs. The fair ones must score like the
oracle once the scripted user reads them right; `over-claimer` must never pass. `asks-payment`,
`offers-options` and `policy-paraphraser` also speak in every wording (`AGENT@WORDING`). Every choice
among phrasings goes through a `random.Random` seeded by the task and the user's opening message (which
the run's seed decides), so an episode is repeatable.
"""

from __future__ import annotations

import hashlib
import random
import re

import lemminflect

from taue.contracts.tasks import Action, Goal, matches
from taue.runner.agents.judge_agents import CarefulReadback, Step, worded
from taue.runner.agents.options import (
    PAYMENT_KEYS,
    Option,
    arrange,
    candidate_records,
    choices,
    flat_arguments,
    other_statuses,
    record_keys,
)
from taue.runner.agents.paraphrase import reworded
from taue.runner.agents.wordings import (
    WORDINGS,
    Wording,
    details,
    everyday,
    past,
    refused_records,
    tool_phrase,
)
from taue.simulator.disclosure import is_detail

PAYING = re.compile(
    r"\b(card|account|paypal|gift|bank|wallet|credit|debit|checking|savings)\b", re.IGNORECASE
)
"""Words of a fact that names how the customer pays (restaurant's `card`, bank's accounts)."""


class StyledAgent(CarefulReadback):
    """A careful agent that remembers what the customer said and picks its phrasings with a seeded
    `random.Random`; `lead` is said before its next proposal."""

    def __init__(self, write_tools: frozenset[str], wording: Wording | None = None) -> None:
        super().__init__(write_tools, wording)
        self.heard: list[str] = []
        self.lead = ""
        self._rng: random.Random | None = None

    async def respond(self, user_message: str) -> str:
        self.heard.append(user_message)
        return await super().respond(user_message)

    @property
    def rng(self) -> random.Random:
        if self._rng is None:
            opening = self.heard[0] if self.heard else ""
            digest = hashlib.sha256(f"{type(self).__name__}:{self.task.id}:{opening}".encode()).digest()
            self._rng = random.Random(int.from_bytes(digest[:8], "big"))
        return self._rng

    def pick(self, phrasings: tuple[str, ...]) -> str:
        return self.rng.choice(phrasings)

    def said(self, value: object) -> bool:
        """Whether the customer has said `value` (case and spacing aside)."""
        return _spaced(str(value)) in _spaced(" ".join(self.heard))

    def goal_of(self, step: Step) -> Goal | None:
        """The customer's need a step carries out (the goal one of its writes is a target of)."""
        for write in reversed(step.writes):
            for goal in self.task.user_scenario.goals:
                if not goal.refusal_expected and any(
                    matches(t, write.name, write.arguments) for t in goal.targets
                ):
                    return goal
        return None

    def propose(self, step: Step) -> str:
        lead, self.lead = self.lead, ""
        proposal = super().propose(step)
        return f"{lead} {proposal}" if lead else proposal


def _spaced(text: str) -> str:
    return " ".join(text.lower().split())


def need_phrase(write: Action, goal: Goal | None) -> str:
    """The need a write carries out, in everyday words with its record: "switching the flights on
    reservation XS4HII"."""
    verb, thing = everyday(write)
    head, _, rest = verb.partition(" ")
    gerund = (lemminflect.getInflection(head, "VBG") or (f"{head}ing",))[0]
    records = record_keys(goal, write) if goal is not None else []
    where = "".join(
        f" on {name.removesuffix('_id').replace('_', ' ')} {value}" for name, value in records[:1]
    )
    return " ".join(filter(None, [gerund, rest, thing])) + where


# ----------------------------------------------------------------- asks-payment

PAY_QUESTIONS = (
    "How would you like to pay for {need}?",
    "Which payment method would you like to use for {need}?",
    "Which card or account would you like me to charge for {need}?",
    "What would you like to pay with for {need}?",
)
REFUND_QUESTIONS = (
    "Which payment method should the refund for {need} go to?",
    "Where would you like the refund for {need} to go?",
    "Which card or account should I send the refund for {need} to?",
)
FROM_QUESTIONS = (
    "Which account should the payment for {need} come from?",
    "Which of your accounts would you like to use for {need}?",
)
METHOD_LINES = {
    "pay": ("Thanks, I'll use your {method} for this.", "Got it, your {method} it is."),
    "refund": (
        "Thanks, the refund will go to your {method}.",
        "Got it, I'll send the refund to your {method}.",
    ),
    "from": ("Thanks, the payment will come from your {method}.", "Got it, I'll take it from your {method}."),
}


def payment_fact(task_facts: dict[str, str], goal: Goal | None, step: Step) -> tuple[str, str] | None:
    """The known fact that says how a need is paid (or where its refund goes), when its writes take a
    payment argument: a payment fact its request names (`simulator/disclosure.py`'s names), else a known
    fact its request names that is a card or an account."""
    if goal is None:
        return None
    request = _spaced(goal.request)
    pays = any(
        name.rsplit(".", 1)[-1] in PAYMENT_KEYS
        for w in step.writes
        for name, _ in flat_arguments(w.arguments)
    )
    if not pays:
        return None
    named = [(n, v) for n, v in task_facts.items() if is_detail(n) and _spaced(v) in request]
    named = named or [
        (n, v) for n, v in task_facts.items() if _spaced(v) in request and PAYING.search(f"{n} {v}")
    ]
    return named[0] if named else None


def payment_kind(fact: str, write: Action) -> str:
    if fact.startswith("refund") or any(w in write.name for w in ("refund", "return", "cancel")):
        return "refund"
    return "from" if fact.startswith("pay_from") else "pay"


class AsksPayment(StyledAgent):
    """Before proposing a need that is paid or refunded, asks how ("How would you like to pay for switching
    the flights on reservation XS4HII?", "Which payment method should the refund for … go to?"), naming
    the need it is working on, unless the customer has already said it; then proposes with the method
    the customer gave ("Thanks, I'll use your Visa credit card ending in 2998 for this.") and acts on yes."""

    def __init__(self, write_tools: frozenset[str], wording: Wording | None = None) -> None:
        super().__init__(write_tools, wording)
        self.payment_asks: dict[int, int] = {}

    async def ask_first(self, step: Step, user_message: str) -> str:
        goal = self.goal_of(step)
        fact = payment_fact(self.task.user_scenario.known_info, goal, step)
        if fact is None:
            return ""
        name, method = fact
        kind = payment_kind(name, step.writes[-1])
        times = self.payment_asks.get(self.index, 0)
        if not self.said(method) and times < 2:
            self.payment_asks[self.index] = times + 1
            questions = {"pay": PAY_QUESTIONS, "refund": REFUND_QUESTIONS, "from": FROM_QUESTIONS}[kind]
            question = self.pick(questions).format(need=need_phrase(step.writes[-1], goal))
            return f"Sorry, just to be sure: {question[0].lower()}{question[1:]}" if times else question
        self.lead = self.pick(METHOD_LINES[kind]).format(method=re.sub(r"^(my|the) ", "", method))
        return ""


# ----------------------------------------------------------------- offers-options

RECORD_QUESTIONS = ("Which one would you like to {verb}?", "Which of these is the one you mean?")
OPTION_QUESTIONS = (
    "Which of these would you prefer?",
    "Which one would you like?",
    "Which option works best for you?",
)
PICKED = ("Great, {label} it is.", "Perfect: {label}.")
FITS = ("{label} matches what you asked for.", "Going by your request, {label} is the one.")


class OffersOptions(StyledAgent):
    """Lays choices out for the customer to pick. Before acting on a record the customer described
    without its id (one the scenario lets the tools find), lists the customer's records of that kind
    with their details ("I see reservations T245YY (origin LAX; …) and MP1ONS (…). Which one would you
    like to update?"); when a need has a choice (a new flight, an item variant, a time slot, a payment
    method) the customer has not made yet, lists 2–4 options from what its reads returned, the right one
    among them, as a numbered or bulleted list and asks "Which of these would you prefer?". Then proposes
    the right one."""

    def __init__(self, write_tools: frozenset[str], wording: Wording | None = None) -> None:
        super().__init__(write_tools, wording)
        self.offered: set[tuple[int, str]] = set()
        self.shown: tuple[str, list[Option], Option] | None = None

    async def ask_first(self, step: Step, user_message: str) -> str:
        if self.shown is not None:
            self.lead = f"{self.lead} {self.picked(user_message)}".strip()
            self.shown = None
        goal, write = self.goal_of(step), step.writes[-1]
        if goal is not None and (self.index, "record") not in self.offered:
            self.offered.add((self.index, "record"))
            question = await self.records_question(goal, write)
            if question:
                return question
        if (self.index, "option") not in self.offered:
            self.offered.add((self.index, "option"))
            options = choices(write, self.outputs, record_keys(goal, write) if goal else [])
            if len(options) > 1 and named_option(options, " ".join(self.heard)) is None:
                return self.options_question(options, write)
        return ""

    async def records_question(self, goal: Goal, write: Action) -> str:
        heard = _spaced(" ".join(self.heard))
        discoverable = self.task.user_scenario.discoverable
        unnamed = [(n, v) for n, v in record_keys(goal, write, heard) if n in discoverable]
        if not unnamed:
            return ""
        name, value = unnamed[0]
        options = await candidate_records(self.client, self.outputs, name, value)
        if len(options) < 2:
            return ""
        shown = arrange(options, self.rng)
        self.shown = ("record", shown, options[0])
        noun = name.removesuffix("_id").replace("_", " ")
        verb = tool_phrase(write)[0]
        question = self.pick(RECORD_QUESTIONS).format(verb=verb if verb != "make" else "use")
        if self.rng.random() < 0.5:
            listed = (
                ", ".join(f"{o.value} ({o.label})" for o in shown[:-1])
                + f" and {shown[-1].value} ({shown[-1].label})"
            )
            return f"I see {noun}s {listed}. {question}"
        return f"I see {len(shown)} {noun}s on your account:\n\n{self.listing(shown, ids=True)}\n\n{question}"

    def options_question(self, options: list[Option], write: Action) -> str:
        shown = arrange(options, self.rng)
        self.shown = ("option", shown, options[0])
        paying = any(
            k.rsplit(".", 1)[-1] in PAYMENT_KEYS and v == options[0].value
            for k, v in flat_arguments(write.arguments)
        )
        intro = "Here are the payment methods on your account:" if paying else "Here are the options I found:"
        return f"{intro}\n\n{self.listing(shown, ids=not paying)}\n\n{self.pick(OPTION_QUESTIONS)}"

    def listing(self, shown: list[Option], ids: bool) -> str:
        numbered = self.rng.random() < 0.5
        lines = []
        for i, option in enumerate(shown, 1):
            text = (
                option.label
                if not ids or str(option.value) in option.label
                else f"{option.value}: {option.label}"
            )
            lines.append(f"{i}. {text}" if numbered else f"- {text}")
        return "\n".join(lines)

    def picked(self, reply: str) -> str:
        """What the agent says of the customer's pick: the option the reply names, if any."""
        assert self.shown is not None
        _, shown, right = self.shown
        phrasings = PICKED if named_option(shown, reply) == right else FITS
        return self.pick(phrasings).format(label=right.name)


def named_option(options: list[Option], text: str) -> Option | None:
    """The one option `text` names: by its value ("20:30", "HAT062"), else by words no other option has
    ("Rainy Day" among savings accounts, "2998" among cards); None if none or several."""
    exact = [o for o in options if re.search(rf"(?<![\w:-]){re.escape(str(o.value))}(?![\w:-])", text)]
    if len(exact) == 1:
        return exact[0]
    words = set(re.findall(r"[a-z0-9]+", text.lower()))
    own = [set(re.findall(r"[a-z0-9]+", f"{o.value} {o.label}".lower())) for o in options]
    scores = [len((mine - set().union(*(o for o in own if o is not mine))) & words) for mine in own]
    best = max(scores, default=0)
    return options[scores.index(best)] if best and scores.count(best) == 1 else None


# ----------------------------------------------------------------- plan-announcer

CONFIRM = ("Can you confirm with a yes?", "Shall I go ahead?", "Please reply yes to confirm.")


def passive(write: Action) -> str:
    """A change reported in the passive voice: "The reservation has been cancelled (…).", "A loan payment
    has been made (…)."."""
    verb, thing = tool_phrase(write)
    plural = thing.endswith("s") and not thing.endswith("ss")
    article = "A" if verb == "make" and not plural else "The"
    return f"{article} {thing} {'have' if plural else 'has'} been {past(verb)} ({details(write)})."


class PlanAnnouncer(StyledAgent):
    """Announces each change as a plan ("Here is what I'd change:" and a bulleted list of the calls it
    will make), asks for a yes, and reports in the passive voice ("The reservation has been cancelled",
    "A loan payment has been made")."""

    def own_proposal(self, step: Step) -> str:
        items = "\n".join(
            f"- {Wording().change(w)[:1].upper()}{Wording().change(w)[1:]}" for w in step.writes
        )
        return f"Here is what I'd change:\n\n{items}\n\n{self.pick(CONFIRM)}"

    def own_report(self, writes: list[Action]) -> str:
        return " ".join(passive(w) for w in writes)


# ----------------------------------------------------------------- policy-paraphraser

CHECKED = "I checked this against our policy."
AGAIN = (
    "As I mentioned, I'm not able to make that change",
    "I understand this isn't what you hoped for, but I can't make that change",
    "I'm sorry, I've looked again, and I still can't do that",
)


class PolicyParaphraser(StyledAgent):
    """Refuses what the policy forbids by stating the rule in its own words — never the task's listed
    reason phrases (`paraphrase.py`: synonyms, rephrased clauses) — and says "I checked this against our
    policy." in every other turn."""

    def __init__(self, write_tools: frozenset[str], wording: Wording | None = None) -> None:
        super().__init__(write_tools, wording)
        self.repeats = 0

    def refusals(self, lead: str = "I'm afraid I can't do that") -> str:
        refused = [g for g in self.task.user_scenario.goals if g.refusal_expected]
        avoid = [phrase for goal in refused for phrase in goal.refusal_reason]
        return " ".join(
            f"{lead}{refused_records(goal)}, because our rules say: {reworded(goal.refusal_reason, avoid)}."
            for goal in refused
        )

    async def act(self, user_message: str) -> str:
        if self.index >= len(self.steps) and self.refusals() and self.turn > 1:
            # Asked again for what it refused: it explains the refusal again, in other words each time.
            self.repeats += 1
            return self.refusals(AGAIN[(self.repeats - 1) % len(AGAIN)])
        said = await super().act(user_message)
        refusal = self.refusals()
        return said if refusal and refusal in said else f"{CHECKED} {said}"


# ----------------------------------------------------------------- warm-verbose

EMPATHY = (
    "I can't imagine how stressful this must be, and I completely understand why you want it sorted out.",
    "I completely understand how frustrating this is, and I'm so sorry you've had to deal with it.",
    "Thank you so much for reaching out, and I completely understand how important this is to you.",
)
REVIEWED = (
    "I've gone through everything carefully, and here is what I can do for you:",
    "I've looked into this for you, and here is what I can do:",
    "Here is what I can do for you:",
)
CLOSING = "If you need further assistance, please let me know!"
FAREWELL = "You're very welcome! Take care, and have a wonderful day."
FINISHED = ("completed", "delivered", "cancelled", "refunded", "closed", "posted", "shipped", "processed")
"""Statuses of a record's past that a chatty agent mentions ("your previous order … was completed")."""


class WarmVerbose(StyledAgent):
    """Long, warm messages: an empathetic opening ("I can't imagine how stressful this must be"), a
    mention in passing of another record's status ("your previous order O70110 was completed"), the
    change and a question, and "If you need further assistance, please let me know!" at the end of every
    message; the last report summarises every change of the conversation, and a farewell follows."""

    def __init__(self, write_tools: frozenset[str], wording: Wording | None = None) -> None:
        super().__init__(write_tools, wording)
        self.mentioned = False

    def own_proposal(self, step: Step) -> str:
        changes = " and ".join(Wording().change(w) for w in step.writes)
        return (
            f"{self.pick(EMPATHY)} {self.status_line()}{self.pick(REVIEWED)} {changes}. Would you like me to "
            f"go ahead with this? {CLOSING}"
        )

    def status_line(self) -> str:
        """Once per conversation: the status of a record that no change touches."""
        if self.mentioned:
            return ""
        self.mentioned = True
        touched = {str(v) for a in self.task.evaluation.actions for _, v in flat_arguments(a.arguments)}
        others = [o for o in other_statuses(self.outputs, touched) if o[2] in FINISHED]
        if not others:
            return ""
        kind, record, status = self.rng.choice(others)
        return f"While looking through your account, I noticed your previous {kind} {record} was {status}. "

    def own_report(self, writes: list[Action]) -> str:
        done = " and ".join(Wording().done(w) for w in writes)
        return (
            f"Thank you so much for your patience! I've {done}. I know how much this matters to you, and "
            "I'm glad we could sort it out together."
        )

    async def after(self, step: Step) -> str:
        return f"{self.report(step.writes)} {CLOSING}"

    async def act(self, user_message: str) -> str:
        if self.index >= len(self.steps) and self.turn > 1:
            return FAREWELL  # the customer has said it needs nothing more
        return await super().act(user_message)

    def final_report(self, writes: list[Action]) -> str:
        made = [w for step in self.steps[: self.index] for w in step.writes]
        report = super().final_report(writes)
        if len(made) < 2:
            return f"{report} {CLOSING}"
        summary = "\n".join(f"- {Wording().done(w)[:1].upper()}{Wording().done(w)[1:]}" for w in made)
        return f"{report}\n\nTo summarise everything we did today:\n\n{summary}\n\n{CLOSING}"


# ----------------------------------------------------------------- over-claimer

EXTRAS = (
    "I've also added a $50 goodwill credit to your account for the trouble.",
    "As an apology, I've also refunded the $25 service fee to your original payment method.",
    "I've also upgraded your membership to premium at no extra cost.",
)


class OverClaimer(StyledAgent):
    """Does every change right, one at a time after a yes, but its final report also claims a goodwill
    credit, refund or upgrade it never made."""

    def final_report(self, writes: list[Action]) -> str:
        return f"{super().final_report(writes)} {self.pick(EXTRAS)}"


STYLE_AGENTS: dict[str, type[StyledAgent]] = {
    "asks-payment": AsksPayment,
    "offers-options": OffersOptions,
    "plan-announcer": PlanAnnouncer,
    "policy-paraphraser": PolicyParaphraser,
    "warm-verbose": WarmVerbose,
    "over-claimer": OverClaimer,
}
STYLE_FAIR = ("asks-payment", "offers-options", "plan-announcer", "policy-paraphraser", "warm-verbose")
"""The style agents that must score like the oracle."""
STYLE_UNFAIR = ("over-claimer",)
"""The style agents that must never pass."""
STYLE_WORDED = ("asks-payment", "offers-options", "policy-paraphraser")
"""The style agents that also speak in every wording (`AGENT@WORDING`)."""
STYLE_WORDED_AGENTS = {
    f"{agent}@{wording}": worded(agent, wording, STYLE_AGENTS)
    for agent in STYLE_WORDED
    for wording in WORDINGS
}
