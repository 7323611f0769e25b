"""Telecom phrase banks for support tickets a customer already has (merged into `BANKS` by
phrases.py). No text names a ticket priority: the policy decides it."""

from __future__ import annotations

from taue.envs.runtime.authoring import Bank

REOPEN_TICKET = Bank(
    requests=(
        "Ticket {ticket_id} was closed, but the problem is back. Could you reopen it?",
        "Please reopen ticket {ticket_id}.",
        "I'd like ticket {ticket_id} opened up again.",
        "I'm calling about ticket {ticket_id}; it was closed and I need it reopened.",
        "Is it possible to reopen support ticket {ticket_id}?",
        "What I need is ticket {ticket_id} reopened, please.",
        "Can we reopen ticket {ticket_id} rather than start over?",
        "I need ticket {ticket_id} put back to open.",
    ),
    wants=(
        "you want your closed support ticket {ticket_id} reopened",
        "you are calling to have ticket {ticket_id} set back to open",
        "getting ticket {ticket_id} reopened is what you are calling about",
        "you would like support ticket {ticket_id} opened up again",
        "you have decided ticket {ticket_id} should not stay closed and want it reopened",
        "you need ticket {ticket_id} back in the open state",
        "reopening ticket {ticket_id} is the goal",
        "you want ticket {ticket_id}, which was closed, to be open again",
    ),
    reasons={
        "": (
            "the problem it was about has come back",
            "the fix didn't last",
            "it was closed before the issue was really solved",
            "the same fault turned up a few days after it was closed",
            "I'd rather keep the history in one ticket than start a new one",
            "nobody checked with me before it was closed",
            "whatever was done only helped for a short while",
            "the issue is happening exactly as before",
        ),
    },
    preferences=(
        "only the status should change, nothing else on the ticket",
        "I'd rather not open a brand-new ticket",
        "please confirm the ticket's new status when it's done",
        "I'd like to hear what will change before you do it",
        "please keep the rest of the ticket as it is",
        "I don't need a new ticket number",
        "I want it reopened today",
        "please read the ticket details back to me first",
    ),
    personas=(
        "a customer who keeps the ticket numbers written down",
        "someone who expected the first fix to last",
        "a methodical person who follows up on everything",
    ),
)

RESOLVE_TICKET = Bank(
    requests=(
        "The problem on ticket {ticket_id} is fixed, so please mark it {status}.",
        "Could you set ticket {ticket_id} to {status}?",
        "I'd like ticket {ticket_id} marked {status}, please.",
        "I'm calling to have ticket {ticket_id} marked {status}; all is working now.",
        "Is it possible to change ticket {ticket_id} to {status}?",
        "Please mark support ticket {ticket_id} as {status}.",
        "What I want is ticket {ticket_id} set to {status}.",
        "Can we mark ticket {ticket_id} {status}? It's sorted.",
    ),
    wants=(
        "the problem behind your support ticket {ticket_id} is fixed and you want it marked {status}",
        "you want ticket {ticket_id} set to {status}",
        "marking ticket {ticket_id} as {status} is what you came for",
        "you are calling to have support ticket {ticket_id} changed to {status}",
        "you would like ticket {ticket_id} put to {status} now that things work",
        "you have no more need for ticket {ticket_id} and want it {status}",
        "getting ticket {ticket_id} marked {status} is the goal",
        "you want support ticket {ticket_id} recorded as {status}",
    ),
    reasons={
        "": (
            "everything has worked fine for days now",
            "the problem sorted itself out",
            "I fixed it myself with a restart",
            "I don't want someone calling about a problem I no longer have",
            "the fault hasn't come back since the weekend",
            "a technician is no longer needed",
            "I'd rather not leave an open ticket hanging around",
            "it turned out to be a loose cable on my side",
        ),
    },
    preferences=(
        "only the status should change",
        "please leave everything else on the ticket as it is",
        "I'd like a quick confirmation once it's done",
        "no follow-up call is needed",
        "please read back the change before making it",
        "I don't want a new ticket opened",
        "I want nothing changed except the status",
        "I'd like to hear the ticket's status afterwards",
    ),
    personas=(
        "a considerate customer who tidies up after a fix",
        "someone who likes loose ends tied up",
        "a customer who keeps the ticket numbers written down",
    ),
)

ESCALATE_TICKET = Bank(
    requests=(
        "Ticket {ticket_id} is about my {device}, which has no service at all. Could you raise its priority?",
        "My {device} has no service, and ticket {ticket_id} is for it. Please give it more priority.",
        "I'd like ticket {ticket_id} moved up the queue; my {device} has no service at all.",
        "I'm calling about ticket {ticket_id}: my {device} has no service, so the priority should go up.",
        "Is it possible to raise the priority of ticket {ticket_id}? My {device} has no service at all.",
        "What I need is ticket {ticket_id} bumped up, because my {device} has no service.",
        "Can we raise ticket {ticket_id}? My {device} has no service at all.",
        "Please escalate ticket {ticket_id}; it's for my {device}, which has no service.",
    ),
    wants=(
        "ticket {ticket_id} covers your {device}, which has no service at all; you want its priority raised",
        "you want ticket {ticket_id} moved up the queue because your {device} has no service",
        "getting ticket {ticket_id} escalated is on your list, as your {device} has no service at all",
        "you are calling to have the priority of ticket {ticket_id} raised; your {device} has no service",
        "you would like ticket {ticket_id} bumped up, since your {device} has no service at all",
        "your {device} has no service and ticket {ticket_id} covers it; you want it given more weight",
        "raising the priority of ticket {ticket_id} is the goal, because your {device} has no service",
        "you need ticket {ticket_id} treated as more pressing, with your {device} having no service at all",
    ),
    reasons={
        "": (
            "a device with no service at all can't wait in the normal queue",
            "I'm cut off until it's fixed",
            "the ticket is filed as if it were a minor issue",
            "nothing has happened on it yet",
            "I can't use the service at all until it's fixed",
            "I need it working for work this week",
            "the ticket doesn't reflect how bad the problem is",
            "I've tried everything on my side already",
        ),
    },
    preferences=(
        "I'd rather not open a second ticket for the same problem",
        "the ticket should stay open while it's worked on",
        "please tell me the new priority once it's changed",
        "I'll go through the troubleshooting steps again if that helps",
        "please read back the change before you make it",
        "I want the status left as it is",
        "I'd like to know what happens next",
        "the ticket must not be closed",
    ),
    personas=(
        "a customer who has waited patiently so far",
        "someone who depends on the service for work",
        "a practical person who wants the problem sorted out",
    ),
)

TICKETS: dict[str, Bank] = {
    "reopen_ticket": REOPEN_TICKET,
    "resolve_ticket": RESOLVE_TICKET,
    "escalate_ticket": ESCALATE_TICKET,
}
