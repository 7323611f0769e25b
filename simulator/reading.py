"""What the scripted user took from one agent message (`read_message` in `simulator/understanding.py`
fills it): the questions and the acts they hold, the statements and what they claim or refuse."""

from __future__ import annotations

from dataclasses import dataclass, field

from taue.simulator.choices import Option
from taue.simulator.claims import Claim


@dataclass
class Reading:
    """What the scripted user took from one agent message."""

    questions: list[str] = field(default_factory=list)
    facts_asked: list[str] = field(default_factory=list)
    """Facts the agent asks the user for, in the order asked, one list entry per fact."""
    asked_by_question: list[list[str]] = field(default_factory=list)
    """The facts each fact-asking question asks for (one inner list per question): those the user
    knows when it names any, else all it names."""
    requested: list[str] = field(default_factory=list)
    """Every fact a fact-asking question names, known to the user or not."""
    asks_confirmation: bool = False
    verified: list[str] = field(default_factory=list)
    """Facts whose value a question states back to the user (a check, not a request)."""
    open_questions: int = 0
    """Questions the user cannot map to a fact or a confirmation."""
    offers: int = 0
    """Open offers of help asked as questions ("Anything else?", "How can I help?")."""
    statement_offers: int = 0
    """Open offers said as statements ("Let me know if you need anything else.")."""
    handover_offers: int = 0
    """Offers to hand the user over to a person ("Would you like me to transfer you to a human agent?")."""
    lookup_offers: int = 0
    """Offers to look something up ("Would you like me to check your order?"): no write proposed."""
    identity_questions: int = 0
    """Questions about who the user is that name no fact ("so that I can locate your account")."""
    guessed: list[str] = field(default_factory=list)
    """Known facts a vague wh-question most likely means (answered, never charged)."""
    choices: list[tuple[str, str]] = field(default_factory=list)
    """Choice questions ("Mastercard or Visa?") answered from a known fact: (option, fact name)."""
    offers_choice: bool = False
    """The message lays out options (a list, a table, "A or B", "either of these") and asks the user
    to pick one."""
    options: tuple[Option, ...] = ()
    """The options it lays out (`simulator/choices.py`); beside a fact request ("What kind of event?
    Music or sports?") they are seen, and the fact answers."""
    unheld: int = 0
    """Requests for something in particular the scenario does not give the user (a booking's cabin,
    whether it was booked in the last day): answered "I don't have that", free of charge."""
    wish_questions: int = 0
    """Questions asking what the user wants done ("What changes would you like to make?", "How would
    you like to proceed?"): answered with the need itself."""
    statements: list[str] = field(default_factory=list)
    """The sentences that are not questions: where completion claims, information and refusals count."""
    claim: Claim = Claim.NONE
    refuses: bool = False
    refusal_reasoned: bool = False
    """A refusal statement that gives a reason ("because", "our policy", "not eligible", …)."""
    acknowledges: bool = False
    leaks_error: bool = False
    found_nothing: bool = False
    """A search that came back empty ("I couldn't find any other flights"): a lookup's outcome, no
    refusal; the user goes on with its need."""
    informs: bool = False
    """A statement that tells the user something: a value, a state, a finding, a policy."""

    @property
    def claims_completion(self) -> bool:
        return self.claim >= Claim.WEAK

    @property
    def offers_help(self) -> bool:
        return bool(self.offers or self.statement_offers)

    @property
    def verifies(self) -> bool:
        return bool(self.verified)

    @property
    def asks_anything(self) -> bool:
        """Any question other than an open offer of further help."""
        return len(self.questions) > self.offers
