"""Lumen phrase banks, continued (phrases.py): refunds and memberships; phrases.py merges them into
`BANKS`. No text here names or accepts a refund fee, a refund amount or the credits a change loses:
the agent must tell those.

Reason keys: a refund's are how close the show is ("soon": within two days, "later"); a late
refund's are whether the show has started ("past") or starts within two hours ("imminent"); a tier
change's are "upgrade" or "downgrade"."""

from __future__ import annotations

from taue.envs.runtime.authoring import Bank

# ------------------------------------------------------------------------------------------- refunds

REFUND_REQUESTS = (
    "Could you refund {mine}?",
    "I need a refund for {mine}.",
    "Please refund {mine} for me.",
    "I'd like to get my money back for {mine}.",
    "Is it possible to refund {mine}?",
    "I'm calling to ask for a refund of {mine}.",
    "What I want is a refund for {mine}.",
    "Can you cancel {mine} and give me my money back?",
)
REFUND_WANTS = (
    "you want a refund for {yours}",
    "you need {yours} refunded",
    "getting {yours} refunded is what you are after",
    "you would like your money back for {yours}",
    "you have decided to ask for a refund of {yours}",
    "you want {yours} cancelled and refunded",
    "a refund of {yours} is what you have in mind",
    "you are asking for {yours} to be refunded",
)
REFUND_PERSONAS = (
    "a college student on a tight budget",
    "a busy lawyer booking between meetings",
    "a film fan who books well ahead",
    "a retiree who plans outings carefully",
)

REFUND_TICKETS = Bank(
    requests=REFUND_REQUESTS,
    wants=REFUND_WANTS,
    reasons={
        "soon": (
            "I've come down with something",
            "an urgent matter came up for that day",
            "my plans for that day fell apart",
            "I can't get away that day after all",
            "I won't make it back into town in time",
            "I've got a clash I can't move",
            "I'm not well enough to go",
            "something came up at the last minute",
        ),
        "later": (
            "I'll be away that week",
            "I booked the wrong day",
            "my plans for that day have changed",
            "something else has been scheduled for that day",
            "I've decided not to see it after all",
            "I won't be able to make it that day",
            "I picked the wrong show when booking",
            "a trip came up for that week",
        ),
        "": (
            "I won't be able to make it that day",
            "my plans have changed",
            "I can't use the tickets after all",
            "something came up",
            "I've decided not to go",
            "the day doesn't work for me any more",
            "I booked it too hastily",
            "I won't be around for the show",
        ),
    },
    preferences=(
        "I'd like to know exactly how much comes back before I agree",
        "please tell me where the money goes back to",
        "I'd like the order read back before it's refunded",
        "I want the whole order refunded, not part of it",
        "I'd like to hear when the money should arrive",
        "please confirm which order it is first",
        "I'd like a confirmation once the refund is done",
        "please explain any deductions before going ahead",
    ),
    personas=REFUND_PERSONAS,
)

REFUND_TOO_LATE = Bank(
    requests=REFUND_REQUESTS,
    wants=REFUND_WANTS,
    reasons={
        "past": (
            "I couldn't make it to the show",
            "I missed the show because of a delay on the way",
            "I got stuck in traffic and missed it",
            "I was ill that day and couldn't go",
            "something came up and I never got there",
            "I missed it and the seats went unused",
            "I got the time wrong and missed it",
            "I wasn't able to attend",
        ),
        "imminent": (
            "I can't make it today after all",
            "something came up and I won't get there in time",
            "I'm stuck and can't get to the theatre",
            "I've just been called away",
            "I'm not feeling well enough to go today",
            "my plans for today just fell apart",
            "I'm running far too late to make it",
            "an emergency came up this morning",
        ),
        "": (
            "I can't use the tickets",
            "I couldn't go to the show",
            "something came up and I couldn't attend",
            "my plans fell apart",
            "the seats went unused",
            "I wasn't able to make it",
            "I was held up and missed it",
            "it didn't work out for me to go",
        ),
    },
    preferences=(
        "if it can't be refunded, I'd like to know why",
        "if it's too late, I'll accept that",
        "if there's a rule against it, please explain it plainly",
        "I'd like to hear the order's status first",
        "I'm not after vouchers or anything else, just an honest answer",
        "if nothing can be done, please just tell me",
        "I'd rather know the rule than be passed around",
        "if you can't refund it, I'll leave it there",
    ),
    personas=REFUND_PERSONAS,
)

# --------------------------------------------------------------------------------------- memberships

TIER_REQUESTS = (
    "I'd like to {word} my membership to {plan}.",
    "Could you move my membership to {plan}?",
    "I need my membership changed to {plan}.",
    "Please switch my membership to {plan}.",
    "Is it possible to {word} to {plan}?",
    "I'm calling to {word} my membership to {plan}.",
    "What I want is to be on {plan} from now on.",
    "Can we change my plan to {plan}?",
)
TIER_WANTS = (
    "you want to {word} your membership to {plan}",
    "you need your membership moved to {plan}",
    "switching your membership to {plan} is what you are calling about",
    "you would like your plan changed to {plan}",
    "you have decided to {word} to {plan}",
    "you want to be on {plan} instead of your current plan",
    "changing your membership to {plan} is what you came for",
    "you are asking for your membership to become {plan}",
)
TIER_REASONS = {
    "upgrade": (
        "I'm going to the cinema more often these days",
        "I'd like more ticket credits each month",
        "two credits a month is not enough for me",
        "I've got more free time for films now",
        "I'd like to make the most of the membership",
        "I want to treat myself to more films this year",
        "I see most new releases and want the bigger plan",
        "the bigger plan suits how often I go",
    ),
    "downgrade": (
        "I don't use all my credits",
        "I'd like to spend less each month",
        "I go to the cinema less than I used to",
        "the smaller plan is enough for how often I go",
        "I'm cutting back on monthly subscriptions",
        "I have less free time for films now",
        "money is a bit tighter right now",
        "I'd rather pay less and still keep a membership",
    ),
}
TIER_REASONS[""] = TIER_REASONS["downgrade"]
TIER_PERSONAS = (
    "a film fan who goes most weekends",
    "an office worker who watches films to unwind",
    "a retiree with plenty of free afternoons",
)

CHANGE_TIER = Bank(
    requests=TIER_REQUESTS,
    wants=TIER_WANTS,
    reasons=TIER_REASONS,
    preferences=(
        "I'd like to know what happens to my credits before I agree",
        "please tell me when the new monthly fee starts",
        "I'd like to hear whether my booked tickets are affected",
        "please explain the change before making it",
        "I'd like a confirmation once the plan is changed",
        "please read the new plan back to me first",
        "I'd like to hear how many credits I'll have afterwards",
        "I'd rather have everything explained before I say yes",
    ),
    personas=TIER_PERSONAS,
)

CHANGE_TIER_TOO_SOON = Bank(
    requests=TIER_REQUESTS,
    wants=TIER_WANTS,
    reasons=TIER_REASONS,
    preferences=(
        "if it can't change yet, I'd like to know when it can",
        "if there's a waiting period, please explain it",
        "if it's too soon, I'll accept that and wait",
        "I'd like the rule explained plainly",
        "if nothing can be done today, just say so",
        "I don't want anything else changed instead",
        "if it isn't allowed, I'll call back later",
        "I'd rather hear the rule than be passed around",
    ),
    personas=TIER_PERSONAS,
)

CANCEL_REQUESTS = (
    "Please cancel my {plan} membership.",
    "Could you cancel my {plan} membership?",
    "I need to end my {plan} membership.",
    "I'd like to cancel my {plan} membership.",
    "Is it possible to cancel my {plan} membership today?",
    "I'm calling to cancel my {plan} membership.",
    "What I want is to stop my {plan} membership.",
    "Can we close my {plan} membership?",
)
CANCEL_WANTS = (
    "you want your {plan} membership cancelled",
    "you need to end your {plan} membership",
    "cancelling your {plan} membership is on your list",
    "you would like your {plan} membership stopped",
    "you have decided to cancel your {plan} membership",
    "you want to be done with your {plan} membership",
    "ending your {plan} membership is what you would like",
    "you are asking for your {plan} membership to be cancelled",
)
CANCEL_REASONS = {
    "": (
        "I'm moving away",
        "I rarely go to the movies now",
        "money is tight",
        "I'm cutting down on subscriptions",
        "I don't use it enough to justify it",
        "the nearest Lumen theatre is too far for me now",
        "my schedule leaves no time for films",
        "I'd rather pay for tickets as I go",
    )
}
CANCEL_PERSONAS = (
    "a graduate student cutting back on spending",
    "a remote worker who rarely goes out",
    "a retiree who is tidying up monthly bills",
)

CANCEL_MEMBERSHIP = Bank(
    requests=CANCEL_REQUESTS,
    wants=CANCEL_WANTS,
    reasons=CANCEL_REASONS,
    preferences=(
        "I'd like to know what happens to my remaining credits",
        "please tell me whether my booked tickets are affected",
        "I'd like a confirmation that no more monthly fees will be taken",
        "please explain what changes for me before cancelling",
        "I'd like a confirmation once it's cancelled",
        "please check the membership details before doing anything",
        "I'd like everything explained before I say yes",
        "I'd rather get it done in this call",
    ),
    personas=CANCEL_PERSONAS,
)

CANCEL_IN_MINIMUM_TERM = Bank(
    requests=CANCEL_REQUESTS,
    wants=CANCEL_WANTS,
    reasons=CANCEL_REASONS,
    preferences=(
        "if it can't be cancelled yet, I'd like to know when it can",
        "if there's a minimum period, please explain it",
        "if it's too early, I'll accept that",
        "I don't want the plan changed instead",
        "if nothing can be done today, just say so",
        "I'd like the rule explained plainly",
        "if it isn't allowed, I'll call back when it is",
        "I'd rather hear the rule than be passed around",
    ),
    personas=CANCEL_PERSONAS,
)
