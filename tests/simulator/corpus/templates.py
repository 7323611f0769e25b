"""The team-written wordings of the dialogue-act corpus: at least 30 styles per act.

A template is a message with slots and the labels it carries. Slots are filled from a task (`fills`):
`{f1}`, `{f2}` are facts the agent asks for (in an agent's words), `{change}` (and its `_everyday`,
`_verbatim`, `_plain` forms) a write of one of the task's action goals with its key values, `{done}`,
`{done_everyday}`, `{passive}` its report, `{reason}` a policy reason, `{thing}` what a lookup is
about, `{value}` a value to tell. Styles: terse, verbose, empathetic, markdown, lists, tool names
verbatim, passive, second person, several acts in one message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from taue.contracts.tasks import Action, Goal, Task, matches
from taue.runner.agents.wordings import everyday, past, plain, tool_phrase

AGENT_WORDS = {
    "user_id": "user ID",
    "email": "email address",
    "zip": "ZIP code",
    "zip_code": "ZIP code",
    "reservation_id": "reservation number",
    "order_id": "order number",
    "date_of_birth": "date of birth",
    "full_name": "full name",
    "ssn_last_four": "last four digits of your SSN",
    "phone": "phone number",
    "pay_with": "payment method you'd like to use",
    "refund_to": "card the refund should go to",
    "cancel_reason": "reason for the cancellation",
    "cancel_because": "reason for cancelling",
    "student_number": "student number",
}
"""How an agent asks for a fact, where its name is not how people say it."""


@dataclass
class Fill:
    task: Task
    facts: list[tuple[str, str]] = field(default_factory=list)
    goal: Goal | None = None
    write: Action | None = None
    refusal: Goal | None = None
    value: str = ""
    thing: str = ""

    def slots(self) -> dict[str, str]:
        slots = {"thing": self.thing, "value": self.value}
        for index, (_, phrase) in enumerate(self.facts, 1):
            slots[f"f{index}"] = phrase
        if self.write is not None:
            slots.update(_change_slots(self.write, self.goal))
        if self.refusal is not None:
            slots["reason"] = self.refusal.refusal_reason[0]
            request = re.sub(_POLITE, "", _second_person(self.refusal.request), flags=re.IGNORECASE)
            slots["request"] = request.rstrip(".?!")
        return slots


def _key_values(goal: Goal | None, write: Action) -> str:
    keys = goal.targets[0].arguments if goal and goal.targets else write.arguments
    return ", ".join(plain(v) for v in keys.values())


def _change_slots(write: Action, goal: Goal | None) -> dict[str, str]:
    verb, obj = tool_phrase(write)
    every_verb, every_obj = everyday(write)
    keys = _key_values(goal, write)
    args = "; ".join(f"{n}: {plain(v)}" for n, v in write.arguments.items())
    return {
        "change": f"{verb} your {obj} ({keys})",
        "change_plain": f"{verb} the {obj} {keys}",
        "change_everyday": f"{every_verb} {every_obj} ({keys})",
        "change_verbatim": f"`{write.name}` ({args})",
        "done": f"{past(verb)} your {obj} ({keys})",
        "done_everyday": f"{past(every_verb)} {every_obj} ({keys})",
        "passive": f"your {obj} ({keys}) has been {past(verb)}",
        "obj": obj,
        "keys": keys,
    }


_POLITE = r"^(please|could you|can you|you'd like to|you want to|you would like to)\s+"


def _second_person(text: str) -> str:
    swaps = {"my": "your", "me": "you", "I": "you", "I'm": "you're", "I'd": "you'd", "mine": "yours"}
    return re.sub(r"\b(my|me|I|I'm|I'd|mine)\b", lambda m: swaps[m.group(0)], text)


def _agent_phrase(name: str) -> str:
    """How an agent asks for fact `name`: "trip_to_cancel" -> "trip you'd like to cancel"."""
    if name in AGENT_WORDS:
        return AGENT_WORDS[name]
    words = name.split("_")
    if "to" in words[1:]:
        at = words.index("to", 1)
        return f"{' '.join(words[:at])} you'd like to {' '.join(words[at + 1 :])}"
    if words[-1] in ("wanted", "wish"):
        return f"{' '.join(words[:-1])} you'd like"
    if words[0] in ("wanted", "new"):
        return f"new {' '.join(words[1:])} you'd like"
    return " ".join(words).replace(" id", " ID")


def _askable(task: Task) -> list[str]:
    scenario = task.user_scenario
    names = [n for n in scenario.known_info if n not in scenario.volunteered] + list(scenario.discoverable)
    return [n for n in names if not re.search(r"_\d+$", n) and not any(o.startswith(f"{n}_") for o in names)]


def fills(task: Task) -> Iterator[Fill]:
    """Ways to fill templates from `task`: one per action goal (with its gold write)."""
    askable = _askable(task)
    facts = [(n, _agent_phrase(n)) for n in askable[:2]]
    refusal = next((g for g in task.user_scenario.goals if g.refusal_expected), None)
    values = [*task.evaluation.outputs, *task.user_scenario.discoverable.values()]
    value = next((v for v in values if v.strip()), "")
    actions = [g for g in task.user_scenario.goals if g.kind == "action" and not g.refusal_expected]
    thing = "your account"
    for goal in actions:
        write = next(
            (a for a in task.evaluation.actions for t in goal.targets if matches(t, a.name, a.arguments)),
            None,
        )
        if write is not None:
            thing = f"your {tool_phrase(write)[1].split()[-1]}"
            yield Fill(task, facts, goal, write, refusal, value, thing)
    yield Fill(task, facts, None, None, refusal, value, thing)


@dataclass
class Template:
    text: str
    labels: dict = field(default_factory=dict)
    """Extra labels besides the act's own (e.g. `information`)."""
    act: str = ""

    def needs(self) -> set[str]:
        return set(re.findall(r"\{(\w+)\}", self.text))

    def fits(self, fill: Fill) -> bool:
        slots = fill.slots()
        return all(slots.get(name) for name in self.needs())

    def render(self, fill: Fill):
        from taue.simulator.corpus import Labels

        message = self.text.format(**fill.slots())
        message = message[:1].upper() + message[1:]
        labels = Labels(**self.labels)
        count = len({"f1", "f2"} & self.needs())
        if self.act == "fact_request":
            labels.facts = sorted(name for name, _ in fill.facts[:count])
        if self.act == "confirmation" and fill.goal is not None:
            labels.confirms = fill.goal.id
        return message, labels


def _templates(act: str, own: dict, texts: list[str | tuple[str, dict]]) -> list[Template]:
    made = []
    for item in texts:
        text, extra = (item, {}) if isinstance(item, str) else item
        made.append(Template(text, {**own, **extra}, act))
    return made


FACTS = [
    "Could you please provide your {f1}?",
    "What's your {f1}?",
    "I'll need your {f1} and your {f2} to continue.",
    "To get started, could you provide:\n1. Your {f1}\n2. Your {f2}",
    "**What is your {f1}?**",
    "May I have your {f1}, please?",
    "Please let me know your {f1}.",
    "{f1}?",
    "I'm sorry you're dealing with this. Can you share your {f1} so I can help?",
    "Before I can look into this, I need your {f1}.",
    "Could you tell me your {f1}? And your {f2} as well?",
    "Can you give me your {f1}?",
    "To locate your records, please send me your {f1}.",
    "Which {f1} should I use?",
    "- Your {f1}\n- Your {f2}\n\nPlease provide both of the above.",
    "Kindly provide your {f1}.",
    "I'd need your {f1} first.",
    "What {f1} do you have on file with us?",
    "Could you please provide the following:\n\n* {f1}\n* {f2}",
    "Thanks! Next, what is your {f1}?",
    "Do you have your {f1} handy?",
    "One more thing: your {f1}, please.",
    "Would you mind sharing your {f1}?",
    "Could you confirm your {f1} for me?",
    "I understand the urgency. Please provide your {f1} and I'll take it from there.",
    "Let me know your {f1} and {f2}, please.",
    "Please share your {f1}, and I'll get right on it.",
    "Can you tell me your {f1}, please? It helps me find the right record.",
    "### Details needed\n\n1. {f1}\n2. {f2}\n\nCould you provide these?",
    "Happy to help! First, what's your {f1}?",
    "Please provide your {f1}.",
    "Quick question: what is your {f1}?",
]
CONFIRMATIONS = [
    "Shall I {change}?",
    "Would you like me to {change}?",
    "I can {change}. Do you want me to go ahead?",
    "To confirm: I'll {change}. Is that correct?",
    "**Proposed:** {change_plain}\n\n**Shall I proceed?**",
    "Here's what I'll do:\n1. {change}\n\nShould I go ahead?",
    "{change_plain}? (yes/no)",
    "Just to double-check before I make any changes: you'd like me to {change}, right?",
    "I'm ready to {change_everyday}. Can I proceed?",
    "Would you like me to go ahead and {change_everyday}?",
    "I will run {change_verbatim}. Shall I go ahead?",
    "Proposed action: {change_verbatim}. Do you confirm (yes/no)?",
    "I understand how important this is. I can {change} right away. Would that be okay?",
    "OK to {change_plain}?",
    "Please confirm that you want me to {change}.",
    "Do you want me to {change_everyday}?",
    "I found what I need. Next step: {change}. May I proceed?",
    "Please confirm if you would like me to proceed with this: {change}.",
    "Can I go ahead and {change_plain}?",
    "### Summary of the change\n\n- {change_plain}\n\nReply **yes** to confirm.",
    "Should I {change_everyday} now?",
    "So you'd like me to {change}. Is that right?",
    "Great. Let me {change} for you. Sounds good?",
    "I'd suggest that I {change_everyday}. Shall we?",
    "Would it be alright if I {change}?",
    "Confirm: {change_plain}? Reply yes to proceed.",
    "I can take care of that now: {change_everyday}. Want me to do that?",
    "Thanks for your patience. Shall I proceed to {change}?",
    "Here is my plan: {change_verbatim}. Okay to proceed?",
    "Do you want to go ahead with this: {change_plain}?",
    "Is it okay if I {change}?",
    "Let me know if you'd like me to {change_everyday}.",
]
CLAIMS = [
    "You're all set: I've {done}.",
    "Done: {done}.",
    "I have {done}.",
    "{passive}.",
    "All done! I {done}.",
    "Your request is complete: I {done}.",
    "I've gone ahead and {done_everyday}.",
    "**Update:** {passive}.",
    "Great news: {passive}, successfully.",
    "We've {done}.",
    "Everything is taken care of: I {done}.",
    ("I just {done_everyday}. Is there anything else I can help with?", {"open_offer": True}),
    ("I've {done}. {value} is what I found for you.", {"information": True}),
    "Success! {passive}.",
    "That's sorted. I {done_everyday}.",
    "### Changes made\n\nI {done}.",
    "The change went through: I {done}.",
    "I {done_everyday}, so you're good to go.",
    "Thank you for waiting. I've now {done}.",
    "Your {obj} is now updated: {keys}.",
    "I completed the change: {done}.",
    "As requested, I {done_everyday}.",
    "Confirmed: {passive}.",
    "It's done. I {done}.",
    "I have successfully {done}.",
    "{passive}. You'll receive a confirmation shortly.",
    "Here is a summary of what I did:\n\n1. I {done}",
    "All set, I {done_everyday}.",
    "I understand this was stressful. Good news: I've {done}.",
    "Completed: {done}.",
    "I processed it: {done}.",
    "Your {obj} ({keys}) is now in place.",
]
NOT_CLAIMS = [
    ("I'm going to {change} later today, as we agreed.", {}),
    ("I couldn't {change} because of a system problem.", {}),
    ("I have found your {thing}.", {"information": True}),
    ("Once I {change}, you will get an email.", {}),
    ("I'm going to {change} next.", {}),
]
REFUSALS = [
    "I'm sorry, but I can't do that ({request}) because {reason}.",
    "Unfortunately, {reason}, so I'm unable to help with that request.",
    "Per our policy, {reason}; I cannot process this.",
    "I'm afraid that isn't possible: {reason}.",
    "I can't do that, since {reason}.",
    "That's not something I'm able to do. The rule is: {reason}.",
    "I understand your frustration, but I cannot make an exception: {reason}.",
    "**Not possible:** {reason}.",
    "Sorry, I'm not able to {request}, as {reason}.",
    "Unfortunately our policy does not allow it ({reason}).",
    "I wish I could help, but {reason}, which means I can't proceed.",
    "I can't: {reason}.",
    "Your request ({request}) isn't eligible, because {reason}.",
    "I'm unable to proceed with this, due to the following: {reason}.",
    "That request can't be fulfilled: our policy says {reason}.",
    (
        "I'm really sorry. I can't do that because {reason}. Anything else I can help with?",
        {"open_offer": True},
    ),
    "According to our policy, {reason}. For that reason I can't make this change.",
    "### Why I can't do this\n\n- {reason}",
    "Unfortunately, I won't be able to {request}: {reason}.",
    "I cannot process that because {reason}.",
    "This isn't allowed: {reason}.",
    "I'm sorry, {reason}, so that is not an option.",
    "No can do, I'm afraid: {reason}.",
    "I have to decline this one, because {reason}.",
    "Unfortunately, I'm not permitted to do that since {reason}.",
    "Our rules don't allow me to do that: {reason}.",
    "That can't be done, since {reason}.",
    "I can't help with that part: {reason}. I'm sorry.",
    "It's not possible to {request}, because {reason}.",
    "I'm afraid I can't. Reason: {reason}.",
    "I'm not able to make that change, as {reason}.",
]
UNREASONED = [
    "I'm sorry, I can't do that.",
    "Unfortunately I'm unable to help with that.",
    "I cannot do that for you.",
]
LOOKUPS = [
    "Would you like me to look up {thing}?",
    "Shall I check {thing} for you?",
    "I can pull up {thing}. Want me to?",
    "Do you want me to search for {thing}?",
    "Should I look into {thing}?",
    "Would you like me to check the status of {thing}?",
    "I could look up {thing} if that helps. Shall I?",
    "Want me to find {thing}?",
    "Can I check {thing} for you?",
    "Let me know if you'd like me to look up {thing}.",
    "Would it help if I reviewed {thing}?",
    "Shall I verify {thing}?",
    "Do you want me to pull the details of {thing}?",
    "**Shall I look up {thing}?**",
    "I can check {thing} right now. Would you like that?",
    "Should I retrieve {thing}?",
    "Would you like me to find out more about {thing}?",
    "I'm sorry for the trouble. Would you like me to check {thing}?",
    "Shall I go ahead and look up {thing}?",
    "Do you want me to look {thing} up?",
    "Would you like me to check whether {thing} is eligible?",
    "May I look up {thing}?",
    "Should I search our records for {thing}?",
    "I can review {thing} for you. Shall I?",
    "Want me to check on {thing}?",
    "Would you like me to pull up {thing}?",
    "Let me check {thing}, okay?",
    "Can I look into {thing} to see what happened?",
    "Shall I find {thing}?",
    "Would you like me to review the details of {thing}?",
    "Do you want me to check {thing} first?",
]
OPEN_OFFERS = [
    "Is there anything else I can help you with?",
    "Anything else?",
    "How else can I help today?",
    "Is there anything else you need?",
    "Can I help with anything else?",
    "Is there something else I can do for you?",
    "Anything else I can assist with?",
    "What else can I do for you?",
    "How can I help you today?",
    "How may I assist you?",
    "Do you need help with anything else?",
    "Is there any other request I can help with?",
    "Let me know if there's anything else.",
    "Any other questions?",
    "Was there anything else on your list?",
    "If there's anything else, just let me know!",
    "Anything further I can help you with?",
    "Is there anything more I can help with today?",
    "What can I do for you?",
    "Can I assist you with anything else today?",
    "**Anything else?**",
    "Is there anything else I can help with before you go?",
    "Need anything else?",
    "Happy to help further if you need anything else.",
    "How else may I help?",
    "Any further questions I can answer?",
    "Is there anything else on your mind?",
    "Do you have any other requests?",
    "Would you like help with anything else?",
    "Anything else you'd like me to look at?",
    "I'm here if you need anything else.",
]
INFORMATION = [
    "Here is what I found: {value}.",
    "The amount is {value}.",
    "According to our records: {value}.",
    "Here are the details:\n\n- {value}",
    "It shows {value}.",
    "The current status is {value}.",
    "Your {thing} shows {value}.",
    "**Result:** {value}",
    "I see {value} on your file.",
    "For your information: {value}.",
    "The total comes to {value}.",
    "Details: {value}.",
    "That would be {value}.",
    "There is {value} listed.",
    "You have {value}.",
    "The record says {value}.",
    "I looked it up: {value}.",
    "Here's the answer: {value}.",
    "What I can see is {value}.",
    "The value on file is {value}.",
    "### Details\n\n{value}",
    "Good news, it's {value}.",
    "It's currently {value}.",
    "It is listed as {value}.",
    "The system shows {value}.",
    "From what I can see, it's {value}.",
    "I checked: {value}.",
    "Result: {value}.",
    "The information you asked for: {value}.",
    "Per your account: {value}.",
    "I found {value} for you.",
]
SMALL_TALK = [
    "Thanks for reaching out!",
    "One moment, please.",
    "I'm happy to help with that.",
    "Have a wonderful day!",
    "Let me take a look.",
    "Thank you for your patience.",
    "I understand how frustrating this must be.",
    "Hello! Thanks for contacting us.",
    "Sure thing.",
    "Give me a second.",
    "I'm sorry to hear that.",
    "No problem at all.",
    "You're welcome!",
    "Take care!",
    "I appreciate you bearing with me.",
    "Absolutely, I'm on it.",
    "That sounds stressful; I'm here to help.",
    "Thanks for the details.",
    "Great, thank you.",
    "Please hold on while I work on this.",
    "Glad I could help!",
    "I see.",
    "Understood.",
    "Got it, thanks!",
    "Let me work on that for you.",
    "Hi there!",
    "I hear you, and I'm sorry for the trouble.",
    "Bear with me a moment.",
    "Certainly!",
    "Thank you for choosing us.",
    "Rest assured, I'm here for you.",
]

TEMPLATES: dict[str, list[Template]] = {
    "fact_request": _templates("fact_request", {}, FACTS),
    "confirmation": _templates("confirmation", {}, CONFIRMATIONS),
    "completion_claim": _templates("completion_claim", {"claim": True}, CLAIMS)
    + _templates("completion_claim", {}, NOT_CLAIMS),
    "refusal_with_reason": _templates("refusal_with_reason", {"refusal": True}, REFUSALS)
    + _templates("refusal_with_reason", {}, UNREASONED),
    "lookup_offer": _templates("lookup_offer", {"lookup_offer": True}, LOOKUPS),
    "open_offer": _templates("open_offer", {"open_offer": True}, OPEN_OFFERS),
    "information": _templates("information", {"information": True}, INFORMATION),
    "small_talk": _templates("small_talk", {"small_talk": True}, SMALL_TALK),
}
