"""How fans put basketball's intents into words (docs/tracer.md, "Phrase banks"): one `Bank` per
intent, ticket intents here and the season-pass, store and camp intents in phrases_more.py.

Slots: `{tickets}` a ticket purchase ("2 lower-level seats for the Hawks at Lions game on March 3"),
`{target}` the game to move to, `{seats}`, `{game}` and `{pay}` for a purchase. No text names an
amount, a fee or a refund size: the agent works those out and tells the fan."""

from __future__ import annotations

from taue.envs.basketball.phrases_more import MORE
from taue.envs.runtime.authoring import Bank

FANS = (
    "a fan who follows the league closely",
    "an office worker who goes to a few games each season",
    "a longtime ticket buyer who knows the arena well",
    "a fan who plans every outing well in advance",
)

CONFIRM_FIRST = (
    "I'd like everything read back to me before anything is changed",
    "please tell me exactly what will happen before you go ahead",
    "I want to hear the details and give my okay before it's done",
    "nothing should be changed until I've said yes",
    "I'd appreciate a short summary of the change first",
    "please confirm the game and the seats with me before acting",
    "I'd rather go one step at a time, with a check before each change",
    "once it's done, I'd like to hear that it went through",
)

# ------------------------------------------------------------------------------------------ buying

BUY = Bank(
    requests=(
        "I'd like to buy {seats} for {game}, paid with my {pay}.",
        "Could you get me {seats} for {game}? Please charge my {pay}.",
        "I'm calling to buy {seats} for {game}, using my {pay}.",
        "Is it possible to book {seats} for {game}? I'll pay with my {pay}.",
        "Please put me down for {seats} for {game} and charge my {pay}.",
        "What I need is {seats} for {game}, on my {pay}.",
        "Can I buy {seats} for {game}? My {pay} should cover it.",
        "I want {seats} for {game}; the {pay} is the one to use.",
    ),
    wants=(
        "you want to buy {seats} for {game}, paid with your {pay}",
        "you are hoping to get {seats} for {game}, charged to your {pay}",
        "you would like {seats} for {game}, using your {pay}",
        "buying {seats} for {game} is what you need, with your {pay} paying for them",
        "you plan to pick up {seats} for {game} and pay with your {pay}",
        "you need {seats} for {game}, to be charged to your {pay}",
        "you have decided on {seats} for {game}, paid for with your {pay}",
        "you are after {seats} for {game}, and your {pay} is how you will pay",
    ),
    reasons={
        "": (
            "I've been meaning to see this matchup in person all season",
            "the date fits my schedule perfectly",
            "it's one of the few games I can make this month",
            "I promised myself I'd see a game before the season ends",
            "I'd rather go to a game than watch it at home for once",
            "I heard the atmosphere at this matchup is great",
            "this opponent is always worth watching live",
            "a free evening on that date is rare for me",
        ),
        "one": (
            "I like going to games on my own and picking my own seat",
            "I have a free evening that day and want to spend it at the arena",
            "I'm going solo this time and just need the one seat",
            "nobody else could make that date, so it's just me",
            "I'd like to treat myself after a long few weeks",
            "it's a quiet way for me to unwind after work",
            "I want to see this opponent live at least once",
            "a single seat is all I need for that night",
        ),
        "several": (
            "I'm organising the outing and said I'd sort the tickets",
            "a few people are coming along and asked me to book",
            "it's a group outing and I'm the one handling the seats",
            "I offered to get tickets for everyone going",
            "the people I'm going with want to sit together in that section",
            "I'm bringing company this time and we all want to go",
            "I'm treating the people coming with me to a night out",
            "we have been planning a group trip to a game for a while",
        ),
        "courtside": (
            "I've always wanted to sit courtside at least once",
            "it's a special treat and I want to be close to the action",
            "I saved up for courtside seats for this exact game",
            "sitting right by the floor has been on my list for years",
            "I want the best view in the building this time",
            "if I'm going to this one, I want to be as close as possible",
            "courtside is the whole point of this outing",
            "I'm splurging a little for a memorable night",
        ),
    },
    preferences=(
        "I'd like to hear the total before anything is charged",
        "please charge only the card I named, nothing else",
        "I want to confirm the game, section and number of seats before you buy",
        "if the section is the one I asked for, that's all that matters to me",
        "please read the purchase back to me before it goes through",
        "I'd like to know the ticket number once it's done",
        "I don't want any other section than the one I asked for",
        "one purchase is enough; please don't split it up",
    ),
    personas=(
        "a fan who watches most games on television",
        "a supporter who finally has a free evening",
        "a fan who likes to plan outings ahead",
    ),
)

# --------------------------------------------------------------------------------------- cancelling

CANCEL_REQUESTS = (
    "Please cancel my {tickets}.",
    "I need to cancel my {tickets}.",
    "Could you cancel my {tickets}, please?",
    "I'm calling to cancel my {tickets}.",
    "I'd like my {tickets} cancelled.",
    "Is it possible to cancel my {tickets}?",
    "What I need today is to cancel my {tickets}.",
    "Can we cancel my {tickets}?",
)
CANCEL_WANTS = (
    "you want your {tickets} cancelled",
    "you need to cancel your {tickets}",
    "you have decided to give up your {tickets}",
    "you would like to cancel your {tickets}",
    "cancelling your {tickets} is what you want",
    "you are calling off your {tickets}",
    "you no longer want your {tickets} and want them cancelled",
    "you want to drop your {tickets}",
)

CANCEL = Bank(
    requests=CANCEL_REQUESTS,
    wants=CANCEL_WANTS,
    reasons={
        "": (
            "I have a work trip that week and can't be there",
            "my schedule changed and that evening is no longer free",
            "I double-booked myself that night",
            "I've taken on an evening class that clashes with the game",
            "a family commitment came up for that date",
            "I bought them in a rush and realised I can't go",
            "I'm moving house around then and won't have the time",
            "I won't be in town that day after all",
        ),
        "several": (
            "the people I bought them for can no longer make it",
            "the group outing fell through",
            "nobody in my group is free that night any more",
            "the others pulled out and I don't want to go alone",
            "the outing I planned for that night has been called off",
            "the people coming with me have a clash that evening",
            "my group decided to pick a different night",
            "the plans for that evening changed for everyone",
        ),
    },
    preferences=(
        "I'd like to know what I'll get back before you cancel",
        "please tell me the terms before anything is cancelled",
        "the refund should go back to the card I paid with",
        *CONFIRM_FIRST[:5],
    ),
    personas=FANS,
)

REFUND_DISRUPTED = Bank(
    requests=(
        "My game was moved, so I'd like to cancel my {tickets}.",
        "Since the game has been disrupted, please cancel my {tickets}.",
        "I need to cancel my {tickets}; the game isn't going ahead as planned.",
        "Could you cancel my {tickets}? The date got changed.",
        "I'm calling about my {tickets}: the game was moved and I want to cancel.",
        "Is it possible to cancel my {tickets} now that the game has moved?",
        "What I'd like is to cancel my {tickets}, as the game isn't on its original date.",
        "Please cancel my {tickets}; the game won't happen when it was supposed to.",
    ),
    wants=(
        "since the game of your {tickets} is no longer on its original date, you want them cancelled",
        "you want to cancel your {tickets} now that the game was moved",
        "you have decided to cancel your {tickets} after the game was disrupted",
        "you would rather cancel your {tickets} than keep them for the moved game",
        "cancelling your {tickets} is what you ask for, since the game was moved",
        "you need your {tickets} cancelled because the game is off its original date",
        "you are giving up your {tickets} now that the game has been moved",
        "you want out of your {tickets}, the game having been moved",
    ),
    reasons={
        "": (
            "the change threw my plans off",
            "I'd rather not hold tickets for a game whose timing keeps changing",
            "I bought them for that specific evening",
            "the original date was the only one that suited me",
            "I can't plan around the change",
            "it's simpler for me to step away from this one",
            "the move makes it awkward for me to attend",
            "I'd prefer to decide later whether to buy for another game",
        ),
        "postponed": (
            "there is no new date yet and I can't keep waiting",
            "I don't want to hold tickets for a game with no date",
            "with no new date announced, I can't plan anything",
            "I'd rather not wait to find out when it will be played",
            "nobody can tell me when it will happen, so I'll step away",
            "an open-ended postponement doesn't work for me",
            "I can't commit to a date that doesn't exist yet",
            "I'd prefer a clean break to waiting on an announcement",
        ),
        "rescheduled": (
            "the new date doesn't work for me",
            "I'm away on the new date",
            "I already have plans on the day it was moved to",
            "the new tip-off clashes with my work schedule",
            "I can make the original date but not the new one",
            "the rescheduled date is during a trip I booked",
            "the new evening is taken by a family commitment",
            "the move put the game on a night I can't do",
        ),
    },
    preferences=(
        "I'd like to hear what comes back to me before you cancel",
        "the money should go back to the card I bought them with",
        "please cancel the whole purchase, not part of it",
        *CONFIRM_FIRST[:5],
    ),
    personas=FANS,
)

CANCEL_LATE = Bank(
    requests=CANCEL_REQUESTS,
    wants=CANCEL_WANTS,
    reasons={
        "": (
            "something came up at the last minute",
            "I've come down with something and won't be going",
            "work just called me in for that evening",
            "my car broke down and I can't get to the arena",
            "a last-minute work trip came up",
            "I have to look after a relative who took ill",
            "I got an urgent deadline for that evening",
            "my plans for the next couple of days fell apart",
        ),
        "several": (
            "the people going with me just cancelled on me",
            "everyone in my group dropped out at the last minute",
            "the outing fell apart at short notice",
            "the others can't make it after all, and I won't go alone",
            "half of my group got sick this week",
            "my group just told me they can't come",
            "the plans for that night collapsed at short notice",
            "the people I bought them for have a sudden clash",
        ),
    },
    preferences=(
        "if cancelling is not possible, I'll keep the tickets",
        "if they can't be cancelled, I'd like to know why",
        "I'd rather keep the seats than pay for something else",
        "if it can't be done, I'll try to find someone to use them",
        "please don't change anything else on my account",
        "I only want the cancellation if the rules allow it",
        "I'd like a straight answer either way",
        "please keep it short; I'm in a hurry",
    ),
    personas=FANS,
)

# --------------------------------------------------------------------------------------- exchanging

MOVE_REQUESTS = (
    "I'd like to move my {tickets} to {target} instead.",
    "Could you switch my {tickets} to {target}?",
    "Please exchange my {tickets} for {target}.",
    "I'm calling to swap my {tickets} to {target}.",
    "Is it possible to move my {tickets} over to {target}?",
    "What I want is my {tickets} moved to {target}.",
    "Can we change my {tickets} to {target}?",
    "I need my {tickets} exchanged for {target}.",
)
MOVE_WANTS = (
    "you want your {tickets} moved to {target}, same section and number of seats",
    "you would like to exchange your {tickets} for {target}, keeping the section and seat count",
    "you hope to swap your {tickets} to {target}, in the same section",
    "moving your {tickets} to {target} is your request, with the same seat count and section",
    "you need your {tickets} switched to {target}, same section, same number of seats",
    "you have settled on {target} and want your {tickets} moved there, section unchanged",
    "you want to trade your {tickets} for seats at {target} in the same section",
    "you would like your {tickets} exchanged for {target}, keeping everything else the same",
)
MOVE_PREFERENCES = (
    "I want to keep the same section and the same number of seats",
    "please check there are enough seats left in my section first",
    "I'd like to hear the new game details before you make the switch",
    "it's {target} I want, not another date",
    *CONFIRM_FIRST[:4],
)

EXCHANGE_DISRUPTED = Bank(
    requests=MOVE_REQUESTS,
    wants=MOVE_WANTS,
    reasons={
        "": (
            "the game I had was moved and the other date suits me better",
            "I'd still like to see a game, just on a date that works",
            "I don't want to lose the outing because the date moved",
            "the disruption messed up my plans but I still want to go",
            "the game I picked is on a date I know I can make",
            "I'd rather go to another game than give up the seats",
            "I want to keep a game on my calendar despite the move",
            "a date I can count on matters more to me than the opponent",
        ),
        "postponed": (
            "nobody knows when my game will be played and I want a firm date",
            "I'd rather have a fixed date than wait for an announcement",
            "the postponement left me with nothing to plan around",
            "the game I picked has a date I can actually put in my calendar",
            "I don't want to wait for a new date that may never suit me",
            "a postponed game with no date is no use to me",
            "I want to know exactly when I'm going",
            "the open-ended delay makes it impossible to plan",
        ),
        "sooner": (
            "the game I picked comes sooner and I'd rather not wait",
            "the new date is later than I'd like",
            "an earlier game fits me better than the moved one",
            "I'm free before the new date but not on it",
            "I'd like to go sooner rather than later",
            "the moved game is too far off for me",
            "I'll be travelling around the new date, so an earlier game works better",
            "the sooner date lines up with my days off",
        ),
        "later": (
            "the new date comes too soon for me",
            "I'm busy around the new date and free later on",
            "a later game fits my calendar better",
            "I'll be away until after the new date",
            "I'd rather go later in the season",
            "the moved date clashes with something, but the later game is clear",
            "my schedule opens up after the new date",
            "a little later suits me much better",
        ),
    },
    preferences=MOVE_PREFERENCES,
    personas=FANS,
)

EXCHANGE_REGULAR = Bank(
    requests=MOVE_REQUESTS,
    wants=MOVE_WANTS,
    reasons={
        "": (
            "the date I bought for doesn't work for me any more",
            "my plans changed and the other game fits better",
            "I have a clash on the original evening",
            "I'd rather see the team on another night",
            "the game I picked is on a night I'm free",
            "work moved my shifts around that week",
            "I got the dates mixed up when I bought them",
            "I'd prefer a different game of the same team",
        ),
        "sooner": (
            "I'd like to go sooner than the game I bought for",
            "an earlier game suits my calendar better",
            "I'll be away around the original date, but I'm free before it",
            "the game I picked comes earlier and I'd rather not wait",
            "I'm free earlier in the month and busy after",
            "the original date is too far off for me now",
            "I want to catch a game before a busy stretch at work",
            "going earlier fits my plans much better",
        ),
        "later": (
            "I'd rather go later than the game I bought for",
            "a later game suits my calendar better",
            "I'm busy around the original date and free afterwards",
            "the game I picked comes later, when I have more time",
            "I'll be travelling when the original game is on",
            "my schedule only opens up after the original date",
            "I need a bit more time before I can go",
            "a later date fits my plans much better",
        ),
    },
    preferences=(
        "if it can't be moved, I'll keep the tickets I have",
        "I don't want the tickets cancelled, only moved",
        "if the swap isn't allowed, I'd like to hear why",
        "please don't change anything unless the swap itself works",
        "I'd like to keep the same section and seat count",
        "I only want {target}, no other game",
        "if there's no way to swap, leave the tickets as they are",
        "I'd like a clear answer on whether a swap is possible",
    ),
    personas=FANS,
)

# -------------------------------------------------------------------------------------- information

NEW_DATE = Bank(
    requests=(
        "My game was moved: what is the new date of the game of my {tickets}?",
        "Could you tell me the new date for the game of my {tickets}?",
        "I heard the game of my {tickets} was rescheduled. When is it now?",
        "I'm calling to find out when the game of my {tickets} will be played now.",
        "Please tell me the new date of the game for my {tickets}.",
        "I'd like to know the new date of the game my {tickets} are for.",
        "What's the new date for the game of my {tickets}?",
        "Can you check when the game of my {tickets} was moved to?",
    ),
    wants=(
        "you heard that the game of your {tickets} was moved and you want to know its new date; you do "
        "not want to change anything",
        "you want to find out the new date of the game of your {tickets}, without changing the tickets",
        "you only want the new date of the game for your {tickets}; nothing should be changed",
        "learning when the game of your {tickets} will now be played is all you need",
        "you are checking the new date of the game of your {tickets}, and you want to keep the tickets",
        "you need the new date of the game your {tickets} are for; you are not changing anything",
        "you want to be told the new date of the game for your {tickets}, and nothing more",
        "finding out the rescheduled date of the game of your {tickets} is what you are hoping for; "
        "the tickets stay as "
        "they are",
    ),
    reasons={
        "": (
            "I saw a notice that the game had moved but missed the new date",
            "I need to plan my week around it",
            "I have to ask for the evening off work",
            "I want to put the right date in my calendar",
            "a friend mentioned it had moved and I want to check",
            "I need to arrange a sitter for that night",
            "I'm deciding whether to book travel to the arena",
            "the email I got didn't show the new date clearly",
        ),
    },
    preferences=(
        "I don't want anything changed on the tickets",
        "please just tell me the date; I'll decide the rest myself",
        "I'd like the new tip-off time as well, if you have it",
        "I'm keeping the tickets, so no cancellation please",
        "I only need the information for now",
        "please don't exchange or cancel anything",
        "a quick answer is all I need",
        "I'd like the date read back clearly so I can write it down",
    ),
    personas=FANS,
)

BANKS: dict[str, Bank] = {
    "buy_seats": BUY,
    "cancel_ticket": CANCEL,
    "refund_disrupted": REFUND_DISRUPTED,
    "cancel_late": CANCEL_LATE,
    "exchange_disrupted": EXCHANGE_DISRUPTED,
    "exchange_regular": EXCHANGE_REGULAR,
    "new_date": NEW_DATE,
    **MORE,
}
