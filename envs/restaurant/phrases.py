"""How guests put restaurant intents into words (docs/tracer.md, "Phrase banks"): one `Bank` per
intent; reservations here, takeaway orders, points and allergens in phrases_more.py.

Slots: `{party}`/`{party_you}` ("4 people", "just me"/"just yourself"), `{when}`/`{when_you}` and
`{where}`/`{where_you}` (the request's and the instruction's wording), `{card}`; `{booking}` a
reservation ("the table for 4 at Midtown on Friday, June 20 at 19:00"), `{wish}` the change asked
for, `{occasion}` the occasion the reservation records. No text names a deposit, fee or refund, and
no text accepts one in advance: the agent must tell the guest."""

from __future__ import annotations

from taue.envs.restaurant.phrases_more import MORE
from taue.envs.runtime.authoring import Bank

DINERS = (
    "a guest who eats out a few times a month",
    "an office worker who books dinners for after work",
    "a regular who likes things arranged properly",
    "a visitor who plans evenings ahead",
)
# ------------------------------------------------------------------------------------------ booking

BOOK_REQUESTS = (
    "I'd like a table for {party} {when}, at {where}, guaranteed with my {card}.",
    "Could you book a table for {party} {when} at {where}? Please use my {card} as the guarantee.",
    "I'm calling to reserve a table for {party} at {where}, {when}; my {card} can hold it.",
    "Is it possible to get a table for {party} {when} at {where}? Guarantee it with my {card}.",
    "Please reserve {where} for {party} {when}, on my {card}.",
    "What I need is a table at {where} for {party}, {when}, held on my {card}.",
    "Can we book {where} for {party} {when}? The {card} is the one to use.",
    "I need a reservation for {party} at {where} {when}, with my {card} as guarantee.",
)
BOOK_WANTS = (
    "you want to book a table for {party_you} {when_you}, at {where_you}, guaranteed with your {card}",
    "you would like a table at {where_you} for {party_you} {when_you}, held on your {card}",
    "reserving a table for {party_you} at {where_you} {when_you} is why you are calling, guaranteed "
    "with your {card}",
    "you need a reservation for {party_you} {when_you} at {where_you}, with your {card} as guarantee",
    "you hope to get a table at {where_you} {when_you} for {party_you}, on your {card}",
    "you have decided to book {where_you} for {party_you} {when_you}, using your {card}",
    "you are after a table for {party_you} {when_you} at {where_you}, guaranteed by your {card}",
    "you plan to reserve a table for {party_you} at {where_you} {when_you}, holding it with your {card}",
)
BOOK_PREFERENCES = (
    "I'd like to hear what the booking involves before it's confirmed",
    "please use only the card I named",
    "if that exact time is taken, I'd like to know before anything is booked",
    "I'd like the booking read back to me before you make it",
    "please tell me if anything is charged now",
    "I'd like the reservation number once it's made",
    "I only want the one booking, nothing else",
    "please confirm the location and date with me first",
)

BOOK = Bank(
    requests=BOOK_REQUESTS,
    wants=BOOK_WANTS,
    reasons={
        "": (
            "I've heard good things about the food there",
            "it's close to where I'll be that evening",
            "I'd like a proper meal out for a change",
            "the menu looks like just what I'm in the mood for",
            "I want to try the place before recommending it",
            "it's an easy spot to meet after work",
            "I want a relaxed evening out",
            "a colleague recommended it to me",
        ),
        "one": (
            "I'll be on my own that evening and want a good dinner",
            "I'm in town by myself and don't want to eat in my hotel",
            "I like a quiet meal alone now and then",
            "I've got an evening free and want to treat myself",
            "I'm travelling for work and eating solo",
            "I'd rather sit down for dinner than grab takeaway",
            "I want a calm meal to end a long day",
            "it's just me this time, and I fancy their menu",
        ),
        "two": (
            "a friend and I have been meaning to catch up",
            "I'm meeting an old colleague for dinner",
            "I want somewhere nice to take a guest",
            "it's a dinner for two that I've been planning",
            "a friend is visiting and I want to show them the place",
            "I promised someone dinner out",
            "I'm meeting a client and need a reliable spot",
            "two of us want a relaxed evening",
        ),
        "group": (
            "I'm organising a small get-together",
            "a few friends want to meet up for dinner",
            "I offered to book for the group",
            "our little team wants a dinner after work",
            "some relatives are in town and I want to take them out",
            "a small group of us meets up every so often",
            "I'm hosting a few visitors that evening",
            "I said I'd sort out a table for everyone",
        ),
        "large": (
            "I'm organising a big group dinner",
            "the whole team is coming out for a meal",
            "I'm hosting a large gathering and need one table",
            "a lot of people are coming and I said I'd book",
            "it's a big group and everyone wants to sit together",
            "I volunteered to book for the whole crowd",
            "our club is meeting for dinner",
            "there are quite a few of us this time",
        ),
    },
    preferences=BOOK_PREFERENCES,
    personas=DINERS,
)

BOOK_AGAIN = Bank(
    requests=BOOK_REQUESTS,
    wants=BOOK_WANTS,
    reasons={
        "": (
            "I enjoyed my last meal there",
            "the food was excellent on my last visit",
            "I liked the place and want to go back",
            "the service was lovely last time",
            "I've been thinking about that meal ever since",
            "I promised myself I'd return soon",
            "I want to try more of the menu",
            "it was the best dinner I've had in a while",
        ),
    },
    preferences=BOOK_PREFERENCES,
    personas=(
        "a guest who returns to places they like",
        "a diner who enjoyed a recent visit",
        "a regular who likes familiar places",
    ),
)

# ------------------------------------------------------------------------------------------ changing

CHANGE_REQUESTS = (
    "Could {booking} be {wish}?",
    "I'd like {booking} {wish}, please.",
    "Please have {booking} {wish}.",
    "I'm calling about {booking}: I'd like it {wish}.",
    "Is it possible to have {booking} {wish}?",
    "What I need is {booking} {wish}.",
    "Can we get {booking} {wish}?",
    "I need {booking} {wish}.",
)
CHANGE_WANTS = (
    "you want {booking} {wish}",
    "you would like {booking} {wish}",
    "you need {booking} {wish}",
    "you are asking for {booking} to be {wish}",
    "you hope to have {booking} {wish}",
    "getting {booking} {wish} is your goal",
    "you have decided you want {booking} {wish}",
    "you are calling to have {booking} {wish}",
)
CHANGE_REASONS = {
    "": (
        "my plans for that day shifted",
        "something else came up around the booking",
        "the original arrangement no longer works",
        "it suits me better this way",
        "my schedule changed",
        "it fits the evening better this way",
        "I made the booking before my plans were settled",
        "a small change makes the evening easier",
    ),
    "later": (
        "I'm stuck at work until later that day",
        "my train gets in later than I thought",
        "I can't get there that early after all",
        "I have an appointment that runs into the evening",
        "a later start gives me time to get across town",
        "the original time is too early for me now",
        "I finish a meeting later than planned",
        "I'd rather not rush there straight from work",
    ),
    "earlier": (
        "I need to be home earlier that night",
        "I have an early start the next morning",
        "I'd like to eat sooner that evening",
        "I have a show to catch afterwards",
        "the original time is too late for me now",
        "I'd like to finish dinner before a late commitment",
        "getting home late is a problem that night",
        "an earlier slot fits around my plans",
    ),
    "later_day": (
        "I'm away on the original day",
        "something came up that day, and a later date is free",
        "the later date is the first free evening I have",
        "I'm travelling until after the original date",
        "a later date gives me time to plan",
        "my schedule frees up a bit later",
        "the original day turned out to be busy",
        "I'd rather push it back a little",
    ),
    "earlier_day": (
        "I'll be away by the original date",
        "an earlier day suits me better",
        "I have a trip starting on the original day",
        "I leave town before the original date",
        "I'd rather not wait that long",
        "the original day is now taken by work",
        "an earlier date fits around my schedule",
        "moving it up a bit makes things simpler",
    ),
    "bigger": (
        "more people want to come along",
        "a couple of extra guests said yes",
        "I invited a few more people",
        "the group grew since I booked",
        "someone I didn't expect is joining",
        "more of my colleagues want to join",
        "some friends who were unsure can now come",
        "the guest list got longer",
    ),
    "smaller": (
        "a few people dropped out",
        "not everyone can make it after all",
        "someone in the group has a clash that night",
        "the group got smaller since I booked",
        "a couple of guests cancelled on me",
        "fewer people are coming than I planned",
        "one of the guests fell ill",
        "some of the group have other plans now",
    ),
    "occasion_party": (
        "the guest list for {occasion} changed",
        "the number of people coming to {occasion} is different now",
        "I've finalised who is coming to {occasion}",
        "the plans for {occasion} have firmed up",
        "I've heard back from everyone about {occasion}",
        "the headcount for {occasion} moved",
        "{occasion} ended up with a different group",
        "I now know exactly who is joining for {occasion}",
    ),
    "occasion_time": (
        "the plans around {occasion} shifted",
        "{occasion} had to be moved around other commitments",
        "the timing of {occasion} changed",
        "the guest of honour for {occasion} needs a different time",
        "I'm rearranging {occasion} to suit everyone",
        "{occasion} works better at another time",
        "the arrangements for {occasion} changed",
        "I had to fit {occasion} around a new commitment",
    ),
}
CHANGE_PREFERENCES = (
    "please tell me if the change costs anything before making it",
    "I'd like to keep the same location",
    "I'd like the updated booking read back to me before you save it",
    "please don't change anything else on the reservation",
    "I'd like to hear that the change went through",
    "if the change isn't possible, leave the booking as it is",
    "I want to confirm the new details before anything changes",
    "please check the new time is actually free first",
)

CHANGE = Bank(
    requests=CHANGE_REQUESTS,
    wants=CHANGE_WANTS,
    reasons=CHANGE_REASONS,
    preferences=CHANGE_PREFERENCES,
    personas=DINERS,
)

REFUSED_CHANGE = (
    "if it can't be changed, I'll keep the booking as it is",
    "I don't want the reservation cancelled, only changed",
    "if the change isn't allowed, I'd like to know why",
    "please don't touch anything else on the booking",
    "I'd like a clear answer on whether it can be done",
    "if it's a no, please just say so",
    "I only want the change if the rules allow it",
    "I'd like to keep my current table if nothing else works",
)

CHANGE_AFTER_HOURS = Bank(
    requests=CHANGE_REQUESTS,
    wants=CHANGE_WANTS,
    reasons=CHANGE_REASONS,
    preferences=REFUSED_CHANGE,
    personas=DINERS,
)

OVERSIZE_PARTY = Bank(
    requests=CHANGE_REQUESTS,
    wants=CHANGE_WANTS,
    reasons=CHANGE_REASONS,
    preferences=(
        *REFUSED_CHANGE[:3],
        "I don't want the booking split into separate tables",
        "everyone should be at one table at the same place",
        "I'd like to keep the same location and time",
        *REFUSED_CHANGE[4:6],
    ),
    personas=DINERS,
)

# ---------------------------------------------------------------------------------------- cancelling

CANCEL_REQUESTS = (
    "Please cancel {booking}.",
    "I need to cancel {booking}.",
    "Could you cancel {booking}, please?",
    "I'm calling to cancel {booking}.",
    "I'd like {booking} cancelled.",
    "Is it possible to cancel {booking}?",
    "What I need is to cancel {booking}.",
    "Can we cancel {booking}?",
)
CANCEL_WANTS = (
    "you want {booking} cancelled",
    "you need to cancel {booking}",
    "you have decided to call off {booking}",
    "you would like to cancel {booking}",
    "cancelling {booking} is your aim",
    "you are calling to cancel {booking}",
    "you no longer need {booking} and want it cancelled",
    "you want to give up {booking}",
)

CANCEL = Bank(
    requests=CANCEL_REQUESTS,
    wants=CANCEL_WANTS,
    reasons={
        "": (
            "my plans for that evening changed",
            "I double-booked myself that evening",
            "the get-together was moved to another week",
            "I have to work late that day",
            "I need to be somewhere else that evening",
            "I'll be out of town then",
            "I decided to do something else that evening",
            "the evening no longer works for me",
        ),
        "soon": (
            "something came up at the last minute",
            "I'm feeling unwell today",
            "work just kept me late",
            "a family matter came up today",
            "I've been called away unexpectedly",
            "my evening fell apart at the last minute",
            "I'm stuck with an urgent problem at home",
            "my ride fell through for tonight",
        ),
        "occasion": (
            "{occasion} is no longer happening",
            "{occasion} has been called off",
            "the plans for {occasion} fell through",
            "{occasion} is being held somewhere else now",
            "{occasion} was postponed",
            "I'm marking {occasion} another way",
            "the guests for {occasion} can't make it",
            "{occasion} has moved to another week",
        ),
    },
    preferences=(
        "please tell me if cancelling costs anything before you do it",
        "I'd like to hear what happens to my card before it's cancelled",
        "I'd like a confirmation once it's cancelled",
        "please cancel only this booking, nothing else",
        "I want to hear the terms before I say yes",
        "I'd like the cancellation read back to me first",
        "please be clear about any charge before going ahead",
        "I don't want to rebook for now, only cancel",
    ),
    personas=DINERS,
)

CANCEL_NO_SHOW = Bank(
    requests=CANCEL_REQUESTS,
    wants=CANCEL_WANTS,
    reasons={
        "": (
            "I couldn't make it that evening",
            "I got held up at work and missed it",
            "I forgot to call ahead when my plans changed",
            "something came up and I never made it there",
            "I was unwell that evening and didn't go",
            "I missed it and would like it off my record",
            "my plans fell through that evening",
            "I had to deal with an emergency that night",
        ),
    },
    preferences=(
        "if it can't be cancelled now, I'll accept that",
        "I'd like to understand why it can't be changed, if it can't",
        "please don't change anything else on my profile",
        "I only want it cancelled if the rules allow it",
        "I'd like a clear answer either way",
        "if it's a no, please just say so",
        "I'm not asking for anything else, just the cancellation",
        "I'd like to keep my other bookings as they are",
    ),
    personas=DINERS,
)

BANKS: dict[str, Bank] = {
    "book_table": BOOK,
    "book_again": BOOK_AGAIN,
    "change_booking": CHANGE,
    "change_after_hours": CHANGE_AFTER_HOURS,
    "oversize_party": OVERSIZE_PARTY,
    "cancel_booking": CANCEL,
    "cancel_no_show": CANCEL_NO_SHOW,
    **MORE,
}
