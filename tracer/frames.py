"""The instruction writer's frames (`tracer/prose.py`): one bank per kind of sentence, each wide
enough that no frame stands in more than 10 % of a domain's instructions (issue 37, item 5;
`tracer/realism.py`, `top_frame_share`). A task uses one intro, identity, first need and ids
sentence, and up to three later needs, reasons and preferences, so those banks hold three times
as many frames. "Worth saying:" and "The thing is," were retired: a reviewer read them as the
template's voice.
"""

from __future__ import annotations

import re

INTROS = (
    "You are {name}, {persona}.",
    "You play {name}, {persona}.",
    "Your name is {name} and you are {persona}.",
    "Meet your role: {name}, {persona}.",
    "In this call you are {name}, {persona}.",
    "You take the part of {name}, {persona}.",
    "Picture yourself as {name}, {persona}.",
    "This time you are {name}, {persona}.",
    "Here you speak as {name}, {persona}.",
    "The customer you play is {name}, {persona}.",
    "Today you are {name}, {persona}.",
    "Step into the shoes of {name}, {persona}.",
    "For this call you become {name}, {persona}.",
    "Your character is {name}, {persona}.",
)
IDENTITIES = (
    "Your account can be found with your {facts}.",
    "If asked who you are, you share your {facts}.",
    "To be identified you offer your {facts}.",
    "Should the agent ask for your details, you provide your {facts}.",
    "The agent can find you by your {facts}.",
    "When the agent needs to look you up, you give your {facts}.",
    "You can confirm who you are with your {facts}.",
    "For identification you have your {facts} ready.",
    "To prove it is you, you can give your {facts}.",
    "Asked for details, you give your {facts}.",
    "The details on file that you can quote are your {facts}.",
    "You identify yourself with your {facts}.",
    "Your details for the agent are your {facts}.",
    "You are ready to give your {facts}.",
)
FIRST_NEEDS = (
    "What brings you here: {want}.",
    "First of all, {want}.",
    "To begin with, {want}.",
    "The first thing on your list: {want}.",
    "Your main reason for calling: {want}.",
    "Above all, {want}.",
    "First, {want}.",
    "Top of your list: {want}.",
    "You are calling because {want}.",
    "The call is mainly about this: {want}.",
    "Most of all, {want}.",
    "To start, {want}.",
    "Your first request: {want}.",
    "Right away, {want}.",
)
LATER_NEEDS = (
    "Besides, {want}.",
    "There is one more thing: {want}.",
    "Then, {want}.",
    "On top of that, {want}.",
    "While you are at it, {want}.",
    "Another matter: {want}.",
    "Once that is settled, {want}.",
    "After that, {want}.",
    "Next, {want}.",
    "In addition, {want}.",
    "Also, {want}.",
    "With that done, {want}.",
    "A further request: {want}.",
    "Beyond that, {want}.",
    "You have another request: {want}.",
    "Later in the call, {want}.",
    "Something else: {want}.",
    "As well as that, {want}.",
    "Moving on, {want}.",
    "Further, {want}.",
    "Your next point: {want}.",
    "What is more, {want}.",
    "Along with that, {want}.",
    "Apart from this, {want}.",
    "You also mention that {want}.",
    "Before you hang up, {want}.",
    "The other thing: {want}.",
    "In the same call, {want}.",
    "Once that is done, {want}.",
    "Additionally, {want}.",
    "One thing more: {want}.",
    "Following that, {want}.",
    "Your last point: {want}.",
    "Afterwards, {want}.",
    "On another note, {want}.",
    "Still on the line, {want}.",
)
REASONS = (
    "That is because {reason}.",
    "The reason: {reason}.",
    "As you will tell the agent, {reason}.",
    "You explain that {reason}.",
    "Your reason is simple: {reason}.",
    "This matters because {reason}.",
    "It comes down to this: {reason}.",
    "{Reason}.",
    "You say why: {reason}.",
    "The background is that {reason}.",
    "If asked why, {reason}.",
    "Here is why: {reason}.",
    "It is needed because {reason}.",
    "You mention that {reason}.",
    "Put simply, {reason}.",
    "Behind it: {reason}.",
    "The cause is plain: {reason}.",
    "As it happens, {reason}.",
    "You can tell the agent that {reason}.",
    "Your explanation: {reason}.",
    "The story is that {reason}.",
    "You would say that {reason}.",
    "What prompted it: {reason}.",
    "In short, {reason}.",
    "The point is that {reason}.",
    "You add that {reason}.",
    "All because {reason}.",
    "Reason being, {reason}.",
    "For context, {reason}.",
    "As you see it, {reason}.",
    "You point out that {reason}.",
    "It is simple: {reason}.",
    "Briefly, {reason}.",
    "You note that {reason}.",
    "Truth is, {reason}.",
    "The way you put it, {reason}.",
    "You give the reason: {reason}.",
    "What lies behind it: {reason}.",
    "Plainly, {reason}.",
    "Quite simply, {reason}.",
    "You tell the agent that {reason}.",
    "The motive: {reason}.",
    "You have a reason: {reason}.",
    "It is like this: {reason}.",
    "Your thinking is that {reason}.",
    "This comes up because {reason}.",
    "Simply put, {reason}.",
    "As you explain it, {reason}.",
)
PREFERENCES = (
    "One preference: {preference}.",
    "Keep in mind that {preference}.",
    "As for your preference, {preference}.",
    "If it comes up, {preference}.",
    "Note that {preference}.",
    "On this point, {preference}.",
    "{Preference}.",
    "A wish of yours: {preference}.",
    "Where it matters, {preference}.",
    "You also ask that {preference}.",
    "For this one, {preference}.",
    "Your preference: {preference}.",
    "Ideally, {preference}.",
    "You mention as well that {preference}.",
    "Remember that {preference}.",
    "A detail you care about: {preference}.",
    "If possible, {preference}.",
    "Importantly, {preference}.",
    "Mind you, {preference}.",
    "Something you care about: {preference}.",
    "You stress that {preference}.",
    "Preferably, {preference}.",
    "Bear in mind that {preference}.",
    "On the details, {preference}.",
    "You make clear that {preference}.",
    "For the record, {preference}.",
    "One more wish: {preference}.",
    "You let the agent know that {preference}.",
    "When it comes to it, {preference}.",
    "A small point: {preference}.",
    "Your one condition: {preference}.",
    "You add one thing: {preference}.",
    "To be clear, {preference}.",
    "By the way, {preference}.",
    "In this matter, {preference}.",
    "You say plainly that {preference}.",
    "One thing you ask: {preference}.",
    "You would add that {preference}.",
    "A request on the side: {preference}.",
    "Your wish here: {preference}.",
    "Above everything, {preference}.",
    "As a rule, {preference}.",
    "You care that {preference}.",
    "Let the agent know that {preference}.",
    "A point you raise: {preference}.",
    "On how it is done, {preference}.",
    "If you get the chance, {preference}.",
    "You ask one thing: {preference}.",
    "Whatever happens, {preference}.",
)
WISH_FRAMES = frozenset(
    (
        "You also ask that {preference}.",
        "Ideally, {preference}.",
        "If possible, {preference}.",
        "Preferably, {preference}.",
        "One thing you ask: {preference}.",
        "You ask one thing: {preference}.",
        "You care that {preference}.",
        "If you get the chance, {preference}.",
    )
)
"""Preference frames that say the wish themselves: they never wrap a preference with its own wish
("You also ask that you'd rather …")."""
WISH_LEAD = re.compile(
    r"(?:you(?:'d| would) (?:rather|like|love|prefer|want)|you (?:want|prefer|ask|wish|hope|insist)"
    r"|ideally|preferably|if possible)\b",
    re.IGNORECASE,
)
"""A preference (in the second person) that opens with its own wish."""
FALLBACK_LEAD = re.compile(r"(?:if|when|should|failing|where|unless|in case)\b", re.IGNORECASE)
"""A preference that opens with the case it is for ("if it can't be cancelled, …", "failing that, …")."""
UNCONDITIONAL_FRAMES = WISH_FRAMES | frozenset(
    ("Whatever happens, {preference}.", "Above everything, {preference}.", "As a rule, {preference}.")
)
"""Frames that say the wish holds anyway: never around a preference for one case only ("Preferably,
should the full sum be refused, …")."""


def preference_frames(preference: str) -> tuple[str, ...]:
    """The preference frames that fit a (second-person) preference: no wish frame around its own
    wish, no frame of a wish that holds anyway around a wish for one case."""
    if FALLBACK_LEAD.match(preference):
        return tuple(f for f in PREFERENCES if f not in UNCONDITIONAL_FRAMES)
    if WISH_LEAD.match(preference):
        return tuple(f for f in PREFERENCES if f not in WISH_FRAMES)
    return PREFERENCES


def wish_on_wish(sentence: str) -> bool:
    """A sentence of a wish frame whose preference opens with a wish of its own."""
    for frame in WISH_FRAMES:
        head = frame.split("{", 1)[0]
        if sentence.startswith(head) and WISH_LEAD.match(sentence[len(head) :]):
            return True
    return False


CHALLENGE_ENDINGS = (
    "If the agent says it cannot be done, you want to hear why, and you accept a clear reason.",
    "Should the agent refuse, you ask for the reason and accept it if it is clear.",
    "A refusal with a clear reason is something you can live with.",
    "You can accept a no, as long as the agent tells you why.",
    "If the rules do not allow it, you want that explained, and then you let it go.",
    "Were the answer no, you would want to know the reason before you let it go.",
    "An honest no with its reason is better to you than a runaround.",
    "If it turns out to be impossible, the reason is all you ask for.",
)
CHALLENGE_ACCEPTS = (
    "If the agent says it cannot be done, you want to hear why, and then you take the other option.",
    "Should the agent refuse, you ask for the reason and then go with your second choice.",
    "A refusal with a clear reason is fine with you, as long as the other option gets done.",
    "You can accept a no if the agent tells you why and sees to your second choice instead.",
    "If the rules do not allow it, you want that explained, and then you settle for the other option.",
    "Were the answer no, you would want the reason, and then your second choice done.",
    "An honest no with its reason is fine, provided the other option goes ahead.",
    "If it turns out to be impossible, you ask for the reason and agree to your second choice.",
)
"""How a customer who accepts the allowed alternative takes the refusal (the challenge's accept
branch; the preference before it names the alternative)."""
NO_IDS = (
    "You do not know any ids; the agent can look them up.",
    "None of the ids are in front of you; the agent's tools can find them.",
    "You have no reference numbers to hand.",
    "Reference numbers are for the agent to find; you have none.",
    "You know no ids, so the agent will need to look them up.",
    "Any reference number has to come from the agent's side: you have none.",
    "No ids are at hand for you; the agent can find them.",
    "You cannot quote any reference numbers.",
    "You kept no reference numbers; the agent can look them up.",
    "Ids are not something you have with you; the agent's tools can find them.",
    "There are no reference numbers you can give; the agent can find them.",
    "You hold no ids at all; the agent's tools find them.",
)
SOME_IDS = (
    "Apart from {ids}, you do not know any ids; the agent can look them up.",
    "Besides {ids}, you have no reference numbers to hand.",
    "Of the reference numbers you only have {ids}; anything else the agent must find.",
    "You know {ids}, but no other ids: the agent can find the rest.",
    "Other than {ids}, reference numbers are for the agent to find.",
    "Aside from {ids}, the agent's tools can find every id.",
    "Only {ids} is at hand for you; the agent can look up the rest.",
    "Beyond {ids}, you cannot quote any reference numbers.",
    "Except for {ids}, you have no ids with you.",
    "Save for {ids}, the agent looks up any reference numbers.",
    "The only reference numbers you hold are {ids}; the agent finds the rest.",
    "You can quote {ids}, and no other ids.",
)
FEES_ACCEPTED = (
    "You accept {fee} if there is one.",
    "Should one apply, you are fine with {fee}.",
    "If the rules call for one, you will pay {fee}.",
    "You are willing to pay {fee} if one applies.",
    "In case there is one, you agree to {fee}.",
    "You don't mind {fee} if one is due.",
    "Where one applies, you are okay with {fee}.",
    "When asked, you approve {fee} if there is one.",
    "If it comes to that, you can pay {fee}.",
    "Paying is no problem: you accept {fee} should one be due.",
    "For your part, you agree to {fee} where the rules ask for one.",
    "Told of one, you say yes to {fee}.",
)
"""The customer accepts a fee, deposit or penalty a gold write pays, without its amount (the agent
says it): an LLM user told to approve only what it asked for would otherwise refuse it."""

WANT_TAILS = (
    "is what you are after",
    "is what you have in mind",
    "is what you are calling about",
    "is what you came for",
    "is on your list",
    "is what you would like",
    "is why you are calling",
    "is your goal",
    "is your aim",
    "is what you need",
    "is what you want",
    "is what you ask for",
    "is your request",
    "is what you are hoping for",
    "is the point of your call",
    "is the plan",
    "is what you are ringing about",
    "is what you are looking for",
    "is the task for today",
    "is your hope",
    "is what you are asking for",
    "is the thing to sort out",
    "is the main point",
    "is what you called about",
)
"""The endings of the domains' gerund wants ("cancelling {order} is what you are after",
`envs/*/phrases*.py`): the writer gives a want that ends so the split's least used ending, as it
gives a frame (`tracer/prose.py`), and counts the endings as frames."""

BANKS = (
    INTROS,
    IDENTITIES,
    FIRST_NEEDS,
    LATER_NEEDS,
    REASONS,
    PREFERENCES,
    CHALLENGE_ENDINGS,
    CHALLENGE_ACCEPTS,
)
"""The banks whose frames `frame_of` names (the ids and fee sentences are counted apart: their
share follows the scenario, not the draw)."""
_SLOT = re.compile(r"\{(\w+)\}")


def _pattern(frame: str) -> re.Pattern[str] | None:
    """A frame as a pattern over one sentence; None for a bare slot ("{Reason}.")."""
    if not _SLOT.sub("", frame).strip(" ."):
        return None
    parts = _SLOT.split(frame)
    body = "".join(re.escape(p) if i % 2 == 0 else ".+" for i, p in enumerate(parts))
    return re.compile(rf"^{body}$")


FRAME_PATTERNS = {
    frame: p
    for frame in sorted((f for bank in BANKS for f in bank), key=lambda f: -len(_SLOT.sub("", f)))
    if (p := _pattern(frame)) is not None
}
"""Most specific first: "You are calling because {want}." is no intro ("You are {name}, {persona}.")."""


def frame_of(sentence: str) -> str | None:
    """The frame a sentence was written from, or None (a bare slot, or a refined sentence)."""
    return next((frame for frame, pattern in FRAME_PATTERNS.items() if pattern.match(sentence)), None)


def frames_in(sentences: list[str]) -> set[str]:
    """The writer's frames and the want endings an instruction's sentences use."""
    text = " ".join(sentences)
    used = {frame for s in sentences if (frame := frame_of(s))}
    return used | {f"… {tail}" for tail in WANT_TAILS if re.search(rf"\b{tail}\b", text)}
