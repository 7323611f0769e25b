"""Colouring the scripted user's words by the emotion condition, deterministically.

Only the wording changes with the condition: the emotion picks the feeling lines, politeness the
greetings, thanks and length, urgency the hurry markers, trust the doubts. What the user says
(facts, requests, answers) comes from the scenario alone. All choices go through one
`random.Random(seed)`, so the same seed gives the same words.
"""

from __future__ import annotations

import random
import re

EMOTION_LINES: dict[str, tuple[str, ...]] = {
    "annoyance": (
        "This is a bit irritating, honestly.",
        "I'm somewhat annoyed that I have to call about this.",
    ),
    "frustration": ("I'm honestly fed up with this.", "This whole process is wearing me down."),
    "argumentativeness": (
        "I want this done properly, and I won't accept excuses.",
        "Let's be clear from the start: I know what I'm asking for.",
    ),
    "bitterness": (
        "Of course this had to happen to me.",
        "I've come to expect this kind of thing from you.",
    ),
    "exasperation": ("I have had it with this.", "I can't believe I have to deal with this."),
    "anxiety": ("I'm really worried about this.", "This has me on edge, I keep thinking it will go wrong."),
    "nervousness": (
        "I'm a little nervous about this.",
        "I'm not great with these things and it makes me nervous.",
    ),
    "dread": ("I've been dreading making this call.", "I have a bad feeling about how this will turn out."),
    "desperation": (
        "I really need this to work, I'm running out of options.",
        "Please, you're my last hope here.",
    ),
    "dislike": ("I don't much like how this was handled.", "Not my favourite kind of call to make."),
    "aversion": (
        "I'd rather not spend long on this.",
        "I really don't enjoy dealing with this sort of thing.",
    ),
    "distaste": ("Frankly, this whole thing is unpleasant.", "I find this situation rather distasteful."),
    "repugnance": ("Honestly, the way this went is appalling.", "This whole affair disgusts me."),
    "disappointment": ("I'm pretty disappointed, to be honest.", "I expected better than this."),
    "discouragement": (
        "I'm starting to feel this isn't worth the effort.",
        "I've about lost heart with this.",
    ),
    "helplessness": ("I don't know how to fix this myself.", "I feel stuck and I don't know what to do."),
    "hopelessness": (
        "I doubt anything can be done, but I'm trying anyway.",
        "Nothing seems to go right lately.",
    ),
    "sorrow": ("It's been a sad week, and this doesn't help.", "I'm feeling rather low about all this."),
    "relief": ("What a relief to reach someone.", "I'm glad I got through to you."),
    "pride": (
        "I've already worked out what I need.",
        "I like to keep my affairs in order, so let's do this right.",
    ),
    "peace": ("No stress on my side.", "I'm quite relaxed about it."),
    "excitement": ("I'm excited to get this sorted!", "Good news on my side today!"),
}
REASSURANCE_ASKS = (
    "Please tell me this can be sorted out.",
    "I just need to know it's going to be okay.",
    "Can you reassure me this will work out?",
)
REASSURANCE_NUDGES = (
    "I'm really worried about this, you know.",
    "This matters a lot to me.",
    "I'd feel better if you told me it will be fine.",
)
GREETINGS = {
    "warm": ("Hi there, thanks so much for helping.", "Hello! I appreciate your help."),
    "neutral": ("Hello.", "Hi."),
    "cold": ("", "Listen."),
}
REPLY_OPENERS = {"warm": ("Sure!", "Of course.", ""), "neutral": ("", "OK."), "cold": ("",)}
URGENCY_MARKERS = {
    "low": ("", "No rush."),
    "moderate": ("", "I'd like this done soon."),
    "high": ("I need this done right now.", "Please hurry, this is urgent.", "I'm short on time."),
}
TRUST_MARKERS = {
    "trusting": ("", "I'm sure you can sort this out."),
    "cautious": ("", "Please double-check everything."),
    "skeptical": ("I hope you actually get this right.", "I'm not convinced this will work."),
}
DOUBTS = (
    "I'll be checking that, by the way.",
    "I hope that's actually right.",
    "Let's see if it really went through.",
)
THANKS = {
    "warm": ("Thank you so much!", "That's wonderful, thank you!"),
    "neutral": ("Thanks.", "Thank you."),
    "cold": ("Fine.", "OK."),
}
ANNOYED = {
    "warm": "I'm sorry, but I already told you that: ",
    "neutral": "I already said that: ",
    "cold": "I told you already: ",
}
NOT_AT_HAND = {
    "warm": "I'm sorry, I don't have that at hand. Could you look that up on your side?",
    "neutral": "I don't have that at hand. Can't you look that up?",
    "cold": "I don't have that. Look that up yourself.",
}
DONT_KNOW = {
    "warm": "I'm sorry, I don't know that.",
    "neutral": "I don't know that, sorry.",
    "cold": "I don't know that.",
}
WHICH_DETAILS = {
    "warm": "Sorry, which details do you need from me?",
    "neutral": "Sorry, which details do you need?",
    "cold": "Which details do you need?",
}
COMPLAINTS = {
    "needless_question_discoverable": "You keep asking me for things you could look up yourself.",
    "needless_question_answered": "I've already told you all of that.",
    "repeated_message": "We're going around in circles.",
    "stall": "Nothing is getting done.",
    "error_shown": "Your system keeps failing.",
    "distress_ignored": "You don't seem to care how stressful this is for me.",
    "unconfirmed_claim": "You keep telling me things are done when they aren't.",
    "unjustified_refusal": "You won't even do what I'm asking.",
}
NOT_CONFIRMED = {
    "warm": "Hmm, I haven't received any confirmation of that yet.",
    "neutral": "I haven't received any confirmation of that.",
    "cold": "I have no confirmation of that. Don't tell me it's done when it isn't.",
}
DECLINE = {
    "warm": "No, thank you, that's not what I asked for.",
    "neutral": "No, that's not what I asked for.",
    "cold": "No. That's not what I asked for.",
}
LEAVING = {
    "warm": "I'm sorry, but this isn't working for me and I need to go.",
    "neutral": "This isn't working. I'm done here.",
    "cold": "Forget it. I'm done here.",
}
IDENTIFIER_ENDINGS = ("id", "ids", "email", "zip", "number", "numbers", "code", "codes", "name", "dob")
OWN_LABELS = {
    "ssn_last_four": "the last four digits of my SSN are",
    "dob": "my date of birth is",
    "date_of_birth": "my date of birth is",
    "full_name": "my name is",
    "zip": "my zip code is",
    "zip_code": "my zip code is",
    "phone": "my phone number is",
    "email": "my email is",
}
"""How a customer says its own details (the rest: "My user id is …")."""
_SUFFIX = re.compile(r"_\d+$")


def fact_label(name: str) -> str:
    return _SUFFIX.sub("", name).replace("_", " ")


def state_fact(name: str, value: str) -> str:
    """A fact in the customer's words: "My email is X.", "I'd like to pay with Y.", "The reason is Z."."""
    base = _SUFFIX.sub("", name)
    label = fact_label(name)
    words = label.split()
    if base in OWN_LABELS:
        return _sentence(f"{OWN_LABELS[base]} {value}")
    if words[-1] in IDENTIFIER_ENDINGS:
        return f"My {label} is {value}."
    if words[:2] in (["pay", "with"], ["pay", "from"]):
        return f"I'd like to {label} {value}."
    if words[:2] == ["refund", "to"]:
        return f"I'd like the refund to go to {value}."
    if "reason" in words or "because" in words:
        return f"The reason is: {value}."
    if "to" in words[1:]:
        noun = words[0]
        verb = "are" if noun.endswith("s") else "is"
        return f"The {noun} I mean {verb} {value}."
    return f"The {label} is {value}."


def _sentence(text: str) -> str:
    return f"{text[:1].upper()}{text[1:]}."


class Voice:
    """The condition-dependent wording of one simulated user; same seed, same words."""

    def __init__(
        self,
        family: str,
        politeness: str,
        urgency: str,
        trust: str,
        seed: int,
        emotion: str | None = None,
        reassurance: bool = False,
    ) -> None:
        self.family, self.emotion = family, emotion
        self.politeness, self.urgency, self.trust = politeness, urgency, trust
        self.reassurance = reassurance
        self._rng = random.Random(seed)

    def _pick(self, options: tuple[str, ...]) -> str:
        return self._rng.choice(options)

    def opening(self, body: str) -> str:
        parts = [
            self._pick(GREETINGS[self.politeness]),
            self._pick(EMOTION_LINES[self.emotion]) if self.emotion else "",
            body,
            self._pick(URGENCY_MARKERS[self.urgency]),
            self._pick(TRUST_MARKERS[self.trust]),
        ]
        if self.reassurance:
            parts.append(self._pick(REASSURANCE_ASKS))
        return _join(parts)

    def reply(self, body: str) -> str:
        """A reply: an opener by politeness, the body, and a hurry marker when urgency is high."""
        opener = self._pick(REPLY_OPENERS[self.politeness])
        marker = self._pick(URGENCY_MARKERS[self.urgency]) if self.urgency == "high" else ""
        return _join([opener, body, marker])

    def thanks(self) -> str:
        thanks = self._pick(THANKS[self.politeness])
        return _join([thanks, self._pick(DOUBTS)]) if self.trust == "skeptical" else thanks

    def goodbye(self) -> str:
        return _join([self._pick(THANKS[self.politeness]), "That's everything I needed."])

    def already_said(self, statement: str) -> str:
        return ANNOYED[self.politeness] + statement

    def not_at_hand(self) -> str:
        return NOT_AT_HAND[self.politeness]

    def dont_know(self) -> str:
        return DONT_KNOW[self.politeness]

    def which_details(self) -> str:
        """A question the user cannot place: it asks back, as a customer would."""
        return WHICH_DETAILS[self.politeness]

    def can_tell(self, statements: list[str]) -> str:
        """What the user does know, offered after a fact it lacks."""
        return _join(["What I can tell you:", *statements]) if statements else ""

    def yes_look(self) -> str:
        """An offer to look something up: yes, please."""
        return {"warm": "Yes, please check.", "neutral": "Yes, please check.", "cold": "Yes, check."}[
            self.politeness
        ]

    def reassurance_nudge(self) -> str:
        return self._pick(REASSURANCE_NUDGES)

    def ask_details(self) -> str:
        if self.trust == "skeptical":
            return "I need the exact details of what you did before I believe it."
        return "What exactly did you do? Please give me the details."

    def not_confirmed(self) -> str:
        return NOT_CONFIRMED[self.politeness]

    def approve(self, request: str) -> str:
        """An explicit yes that names what is approved (the goal's request)."""
        return f'Yes, please go ahead with that, it is what I asked for: "{request}"'

    def decline(self) -> str:
        return DECLINE[self.politeness]

    def choose(self, labels: list[str]) -> str:
        """The options picked from the agent's list, one per list, in the agent's own labels."""
        picked = " and ".join(f'"{label}"' for label in labels)
        return {
            "warm": f"I'd like {picked}, please.",
            "neutral": f"I'll take {picked}.",
            "cold": f"{picked}.",
        }[self.politeness]

    def no_reason(self) -> str:
        """Asked for a reason the scenario does not give: the customer has none to add."""
        return (
            "I don't have a particular reason to give."
            if self.politeness != "cold"
            else "No particular reason."
        )

    def none_fits(self) -> str:
        """None of the listed options is what the user wants: it says what it wants instead."""
        return {
            "warm": "None of those is quite what I'm after.",
            "neutral": "None of those is what I want.",
            "cold": "None of those.",
        }[self.politeness]

    def stay(self) -> str:
        """An offer to hand the user over to a person, while the user still wants the agent's help."""
        return "No, I'd rather you help me with this." if self.politeness != "cold" else "No. You handle it."

    def ask_outcome(self) -> str:
        """Confirmations arrived but the agent said nothing about them."""
        return "I just got a confirmation message. Is it all done? Please tell me what you did."

    def restate(self, request: str, times_asked: int) -> str:
        if times_asked == 0:
            return request
        return f"Again: {request}" if self.politeness == "cold" else f"As I said, {_lower_first(request)}"

    def leaving_unsatisfied(self, complaint: str | None = None) -> str:
        return _join([COMPLAINTS.get(complaint or "", ""), LEAVING[self.politeness]])


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2] != "I " and not text[:2].isupper() else text


def _join(parts: list[str]) -> str:
    return " ".join(part for part in parts if part)
