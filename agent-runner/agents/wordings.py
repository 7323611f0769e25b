"""Nine ways a fair agent words the same work, for the judge's wording matrix.

Each wording says the same things — a proposal of a change, the report of a change made, a final
report with the information asked for, a refusal with the policy's reason — in the style of a real
agent team: a one-shot natural report, step by step, a markdown summary, tool names verbatim,
everyday verbs, terse, empathetic, numbered questions, and details read back as a statement with
reports that name no one (the plain style of many service assistants). The judge agents
(`judge_agents.py`) do exactly the oracle's calls in any wording; only the words differ, so every
wording must score like the oracle.
"""

from __future__ import annotations

from typing import Any

import lemminflect

from taue.contracts.tasks import Action, Goal, Task

EVERYDAY: dict[str, tuple[str, str]] = {
    "book_reservation": ("reserve", "it for you"),
    "cancel_reservation": ("call off", "the booking"),
    "send_certificate": ("give", "you a travel voucher"),
    "update_reservation_baggages": ("change", "the checked bags"),
    "update_reservation_flights": ("switch", "the flights"),
    "update_reservation_passengers": ("fix", "the traveller details"),
    "change_loan_payment_date": ("move", "the loan's due date"),
    "file_dispute": ("open", "a dispute on the charge"),
    "freeze_card": ("lock", "the card"),
    "internal_transfer": ("move", "the money"),
    "make_loan_payment": ("put", "a payment toward the loan"),
    "pay_payee": ("send", "the payment to the payee"),
    "report_card_lost": ("report", "the card missing"),
    "unfreeze_card": ("reactivate", "the card"),
    "update_card_limit": ("adjust", "the card's daily limit"),
    "buy_tickets": ("get", "you the seats"),
    "cancel_tickets": ("call off", "the seats"),
    "exchange_tickets": ("swap", "the seats"),
    "pause_season_pass": ("put", "the season pass on hold"),
    "register_camp_player": ("sign", "the player up for camp"),
    "return_order_items": ("send back", "the items"),
    "change_membership": ("switch", "the membership"),
    "purchase_tickets": ("get", "you the seats"),
    "refund_order": ("give back", "the money for the order"),
    "cancel_order": ("call off", "the order"),
    "modify_reservation": ("move", "the table booking"),
    "redeem_points": ("use", "your points"),
    "cancel_pending_order": ("call off", "the order"),
    "exchange_delivered_order_items": ("swap", "the items"),
    "modify_pending_order_address": ("change", "where the order ships"),
    "modify_pending_order_items": ("swap", "the items in the order"),
    "modify_pending_order_payment": ("switch", "how the order is paid"),
    "modify_user_address": ("change", "your address on file"),
    "return_delivered_order_items": ("send back", "the items for a refund"),
    "drop_section": ("take", "you off the section"),
    "make_payment": ("pay", "the invoice"),
    "refund_credit_balance": ("pay back", "the credit balance"),
    "register_for_section": ("sign", "you up for the section"),
    "request_transcript": ("order", "the transcript"),
    "swap_section": ("switch", "you to the other section"),
    "add_device": ("register", "the new device"),
    "create_support_ticket": ("open", "a support case"),
    "manage_billing": ("change", "the billing setting"),
    "manage_service": ("change", "the plan"),
    "modify_support_ticket": ("change", "the support case"),
    "record_payment": ("log", "the payment"),
    "cancel_appointment": ("call off", "the visit"),
    "reschedule_appointment": ("move", "the visit"),
    "schedule_appointment": ("set up", "the visit"),
    "update_medical_record_note": ("add", "the note to your record"),
    "update_prescription_supplier": ("switch", "the pharmacy for the prescription"),
    "add_travel_insurance": ("put", "insurance on the booking"),
    "book_car_rental": ("reserve", "the car"),
    "book_holiday_package": ("reserve", "the package"),
    "book_hotel": ("reserve", "the hotel"),
    "cancel_booking": ("call off", "the booking"),
    "change_booking_dates": ("move", "the booking's dates"),
    "file_insurance_claim": ("submit", "the insurance claim"),
}
"""How a person would say each write of the ten domains, in words the tool's name does not use."""
WORDINGS = (
    "natural", "stepwise", "markdown", "verbatim", "everyday", "terse", "empathetic", "numbered", "readback",
)  # fmt: skip


def plain(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(plain(item) for item in value)
    if isinstance(value, dict):
        return " ".join(f"{k.replace('_', ' ')} {plain(v)}" for k, v in value.items())
    return str(value)


def details(action: Action, sep: str = ", ", spell=lambda name: name.replace("_", " ")) -> str:
    return sep.join(f"{spell(name)} {plain(value)}" for name, value in action.arguments.items())


def past(verb: str) -> str:
    """The past participle of the first word of a verb phrase ("call off" -> "called off",
    "unfreeze" -> "unfrozen")."""
    head, _, rest = verb.partition(" ")
    prefix = head[:2] if head[:2] in ("un", "re") and _is_verb(head[2:]) and not _known(head) else ""
    forms = lemminflect.getInflection(head[len(prefix) :], "VBN") or (head + "ed",)
    return f"{prefix}{forms[0]} {rest}".strip()


def _known(word: str) -> bool:
    return bool(lemminflect.getAllInflections(word, "VERB"))


def _is_verb(word: str) -> bool:
    return "VERB" in lemminflect.getAllLemmas(word) or _known(word)


def tool_phrase(action: Action) -> tuple[str, str]:
    """(verb, object) from the tool's name: `cancel_reservation` -> ("cancel", "reservation"); a name
    that does not start with a verb is made: `internal_transfer` -> ("make", "internal transfer")."""
    verb, _, rest = action.name.partition("_")
    if not _is_verb(verb) and not _is_verb(verb.removeprefix("un")):
        return "make", action.name.replace("_", " ")
    return verb, rest.replace("_", " ")


def everyday(action: Action) -> tuple[str, str]:
    verb, obj = tool_phrase(action)
    return EVERYDAY.get(action.name, (verb, f"the {obj}"))


def numbered(writes: list[Action], line) -> str:
    """A numbered list of writes, each `line(verb, object, write)`."""
    return "\n".join(f"{i}. {line(*tool_phrase(w), w)}" for i, w in enumerate(writes, 1))


class Wording:
    """The plain wording every style starts from; subclasses change what they change."""

    name = "plain"

    def phrase(self, action: Action) -> tuple[str, str]:
        """(verb, object) of a write in this wording."""
        verb, obj = tool_phrase(action)
        return verb, f"your {obj}"

    def change(self, action: Action) -> str:
        verb, obj = self.phrase(action)
        return f"{verb} {obj} ({details(action)})"

    def done(self, action: Action) -> str:
        verb, obj = self.phrase(action)
        return f"{past(verb)} {obj} ({details(action)})"

    def propose(self, writes: list[Action]) -> str:
        return f"I can {' and '.join(self.change(w) for w in writes)}. Would you like me to go ahead?"

    def report(self, writes: list[Action]) -> str:
        return f"You're all set: I've {' and '.join(self.done(w) for w in writes)}."

    def outputs(self, outputs: list[str]) -> str:
        return f" Here is what you asked about: {'; '.join(outputs)}." if outputs else ""

    def final(self, writes: list[Action], outputs: list[str]) -> str:
        head = self.report(writes) if writes else "I've looked into everything you asked about."
        return head + self.outputs(outputs)

    def refuse(self, goal: Goal) -> str:
        return (
            f"I'm sorry, but I can't make that change{refused_records(goal)} because our policy "
            f"doesn't allow it: {'; '.join(goal.refusal_reason)}."
        )

    def combined(self, report: str, proposal: str) -> str:
        return f"{report} {proposal}"

    def opening_questions(self, task: Task) -> str:
        """Numbered questions before the work starts (only the numbered wording asks any)."""
        return ""

    def follow_up(self) -> str:
        return "Is there anything else I can help you with?"


class Natural(Wording):
    name = "natural"


class Stepwise(Wording):
    name = "stepwise"

    def propose(self, writes: list[Action]) -> str:
        steps = " ".join(f"Step {i}: I'll {self.change(w)}." for i, w in enumerate(writes, 1))
        return f"Here's the plan. {steps} Okay to proceed?"

    def report(self, writes: list[Action]) -> str:
        steps = " ".join(f"Step {i} is complete: I {self.done(w)}." for i, w in enumerate(writes, 1))
        return steps


class Markdown(Wording):
    name = "markdown"

    def propose(self, writes: list[Action]) -> str:
        items = "\n".join(
            f"- **{verb.title()}** your {obj}: {details(w)}" for w in writes for verb, obj in [tool_phrase(w)]
        )
        return f"### Proposed change\n\n{items}\n\n**Shall I proceed?**Please reply yes or no."

    def report(self, writes: list[Action]) -> str:
        items = numbered(writes, lambda verb, obj, w: f"**{past(verb).title()}** your {obj} — `{details(w)}`")
        return f"**All done!** Here is a summary of the changes:\n\n{items}\n"

    def outputs(self, outputs: list[str]) -> str:
        return "\n### What you asked about\n\n" + "\n".join(f"- {o}" for o in outputs) if outputs else ""


class Verbatim(Wording):
    name = "verbatim"

    def change(self, action: Action) -> str:
        return f"`{action.name}` ({details(action, '; ', lambda n: n)})"

    def propose(self, writes: list[Action]) -> str:
        return f"I will run {' and then '.join(self.change(w) for w in writes)}. Shall I go ahead?"

    def report(self, writes: list[Action]) -> str:
        return f"{' and '.join(self.change(w) for w in writes)} completed successfully."


class Everyday(Wording):
    name = "everyday"

    def phrase(self, action: Action) -> tuple[str, str]:
        return everyday(action)

    def propose(self, writes: list[Action]) -> str:
        return f"I can {' and '.join(self.change(w) for w in writes)}. Want me to do that?"

    def report(self, writes: list[Action]) -> str:
        return f"I've {' and '.join(self.done(w) for w in writes)}."


class Terse(Wording):
    name = "terse"

    def propose(self, writes: list[Action]) -> str:
        text = f"{'; '.join(self.change(w) for w in writes)}? (yes/no)"
        return text[:1].upper() + text[1:]

    def report(self, writes: list[Action]) -> str:
        return f"Done: {'; '.join(self.done(w) for w in writes)}."

    def outputs(self, outputs: list[str]) -> str:
        return f" Info: {'; '.join(outputs)}." if outputs else ""

    def refuse(self, goal: Goal) -> str:
        return f"Can't do that: {'; '.join(goal.refusal_reason)}."

    def follow_up(self) -> str:
        return "Anything else?"


class Empathetic(Wording):
    name = "empathetic"

    def propose(self, writes: list[Action]) -> str:
        return (
            "I completely understand how stressful this must be, and I'm here to help. To sort it out, "
            f"I can {' and '.join(self.change(w) for w in writes)}. Would that be alright with you?"
        )

    def report(self, writes: list[Action]) -> str:
        return (
            "Thank you so much for your patience. I've taken care of it: I "
            f"{' and '.join(self.done(w) for w in writes)}, so you can rest easy now."
        )

    def refuse(self, goal: Goal) -> str:
        return (
            "I'm truly sorry, I know this isn't what you hoped to hear. I'm not able to make that "
            f"change{refused_records(goal)}, as our policy says: {'; '.join(goal.refusal_reason)}."
        )


class Numbered(Wording):
    name = "numbered"

    def propose(self, writes: list[Action]) -> str:
        items = "\n".join(f"{i}. Do you want me to {self.change(w)}?" for i, w in enumerate(writes, 1))
        return f"Before I go ahead, please confirm:\n\n{items}"

    def report(self, writes: list[Action]) -> str:
        items = numbered(writes, lambda verb, obj, w: f"{past(verb).capitalize()} your {obj} ({details(w)})")
        return f"I have made these changes:\n\n{items}\n\n"

    def opening_questions(self, task: Task) -> str:
        scenario = task.user_scenario
        wanted = [n for n in scenario.known_info if n not in scenario.volunteered][:3]
        if not wanted:
            return ""
        items = "\n".join(f"{i}. Your {name.replace('_', ' ')}" for i, name in enumerate(wanted, 1))
        return f"I can help with that. To get started, could you provide:\n\n{items}"


class Readback(Wording):
    """Details read back as a statement, no question mark ("Just to check, you want me to …"), reports
    with no "I" ("Your reservation is now cancelled."), failures said as what is not available."""

    name = "readback"

    def propose(self, writes: list[Action]) -> str:
        return f"Just to check, you want me to {' and '.join(self.change(w) for w in writes)}."

    def report(self, writes: list[Action]) -> str:
        return " ".join(f"{self.state(w)}." for w in writes)

    def state(self, action: Action) -> str:
        verb, obj = self.phrase(action)
        return f"{obj[:1].upper()}{obj[1:]} is {past(verb)} ({details(action)})"

    def refuse(self, goal: Goal) -> str:
        return f"Sorry, that change isn't available{refused_records(goal)}: {'; '.join(goal.refusal_reason)}."

    def follow_up(self) -> str:
        return "Can I help with anything else today?"


WORDING_CLASSES: dict[str, type[Wording]] = {
    cls.name: cls
    for cls in (Natural, Stepwise, Markdown, Verbatim, Everyday, Terse, Empathetic, Numbered, Readback)
}


def refused_records(goal: Goal) -> str:
    """The records a refused change is about (" for ZXQLNZ"), so a refusal names what it declines
    without quoting the customer's request back (its first-person clauses read as questions)."""
    records = [str(v) for t in goal.targets for k, v in t.arguments.items() if k == "id" or k.endswith("_id")]
    return f" for {', '.join(dict.fromkeys(records))}" if records else ""


def refusals(task: Task, wording: Wording) -> str:
    return " ".join(wording.refuse(goal) for goal in task.user_scenario.goals if goal.refusal_expected)
