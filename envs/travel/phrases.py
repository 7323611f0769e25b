"""How travel-agency customers put their intents into words (docs/tracer.md, "Phrase banks"): one
`Bank` per intent of tracer.py. This file holds new bookings and changing or cancelling them;
phrases_more.py holds insurance, claims and the questions, and `BANKS` merges both.

Slots: `{itinerary}` a trip's title in quotes, `{hotel}`, `{room}`, `{city}`, `{stay}` and `{dates}`
spans ("June 10 to June 14 (2025-06-10 to 2025-06-14)"), `{rate}` ("flexible", "non-refundable"),
`{pay}` a card ("Visa card ending in 1234"), `{car}` ("an SUV from Hertz in Rome"), `{package}`,
`{day}` and `{date}` a departure, `{people}` and `{party}` the travellers in first and second person,
`{booking}` an existing booking ("stay at Linden Hotel from July 24"), `{span}` its new dates.

Reason keys: a new hotel or car's key is its rate; a package's is "solo" or "group"; a date change's
is "earlier" or "later"; a cancellation's is the booking's kind. No text names a price, a fee or a
refund, and none accepts a fee in advance: the agent states those."""

from __future__ import annotations

from taue.envs.runtime.authoring import Bank
from taue.envs.travel.phrases_more import MORE

TRAVELLERS = (
    "a teacher planning a trip around the school holidays",
    "a freelance designer who travels between projects",
    "a frequent traveller who knows the booking terms well",
    "a careful planner who double-checks every detail",
)
CONFIRM_FIRST = (
    "I'd like everything read back to me before it's booked",
    "I'd like to hear the total before anything is booked",
    "only the card I named should be charged, no other",
    "I want a confirmation with the booking number once it's done",
    "I'd rather go one step at a time, with a check before the booking",
    "please make sure the dates are exactly the ones I gave",
    "I'd like to hear the cancellation terms before I say yes",
    "please check it really goes into that trip and no other",
)

# ------------------------------------------------------------------------------------------- hotels

BOOK_HOTEL = Bank(
    requests=(
        "Could you book a {room} room at {hotel} from {stay} for my {itinerary} itinerary? The {rate} rate, "
        "on my {pay}.",
        "I need a {room} room at {hotel} from {stay}, added to my {itinerary} itinerary, at the {rate} "
        "rate and paid with my {pay}.",
        "Please reserve a {room} room at {hotel} from {stay} under my {itinerary} itinerary, {rate} rate, "
        "charged to my {pay}.",
        "I'd like a {room} room at {hotel} from {stay} for my {itinerary} itinerary, at the {rate} rate, "
        "paid with my {pay}.",
        "Is it possible to book {hotel} from {stay}? A {room} room at the {rate} rate for my {itinerary} "
        "trip, on my {pay}.",
        "I'm calling to add a hotel to my {itinerary} itinerary: a {room} room at {hotel} from {stay}, "
        "{rate} rate, using my {pay}.",
        "What I need is a {room} room at {hotel} from {stay}, in my {itinerary} itinerary, at the {rate} "
        "rate on my {pay}.",
        "Can we book a {room} room at {hotel} from {stay} for the {itinerary} itinerary? I'll take the "
        "{rate} rate and pay with my {pay}.",
    ),
    wants=(
        "you want a {room} room at {hotel} in {city} from {stay} added to your {itinerary} itinerary, "
        "at the {rate} rate, paid with your {pay}",
        "you need a {room} room at {hotel} from {stay} for your {itinerary} itinerary, {rate} rate, on "
        "your {pay}",
        "booking a {room} room at {hotel} in {city} from {stay} is what you ask for, in your "
        "{itinerary} itinerary at the {rate} rate, charged to your {pay}",
        "you would like {hotel} in {city} from {stay}, a {room} room at the {rate} rate, for your "
        "{itinerary} itinerary and paid with your {pay}",
        "you are asking for a {room} room at {hotel} from {stay}, {rate} rate, to go into your "
        "{itinerary} itinerary, with your {pay} paying",
        "you have picked {hotel} in {city} for {stay}: a {room} room at the {rate} rate, part of your "
        "{itinerary} itinerary, on your {pay}",
        "you want to stay at {hotel} from {stay} in a {room} room, {rate} rate, booked into your "
        "{itinerary} itinerary and charged to your {pay}",
        "getting a {room} room at {hotel} in {city} from {stay} onto your {itinerary} itinerary is what you "
        "need, at the {rate} rate with your {pay}",
    ),
    reasons={
        "flexible": (
            "my plans for those nights aren't completely fixed yet",
            "I want to be able to move the dates if something changes",
            "I still need somewhere to sleep for that part of the trip",
            "I'd rather keep my options open in case the trip shifts",
            "I like that hotel but may need to adjust the nights",
            "the rest of the trip is booked and those nights are still open",
            "I need a base in the city for a few nights",
            "I may have to adjust the dates, so flexibility matters",
        ),
        "non_refundable": (
            "my dates are fixed, so I'd rather pay less",
            "I'm certain about those nights and want the cheaper rate",
            "I won't be changing the dates and want to save a little",
            "the trip is settled, so the lower rate suits me",
            "I still need somewhere to sleep for that part of the trip, and my dates won't move",
            "I'm sure of the plan and don't need flexibility",
            "the rest of the trip is booked and those nights are certain",
            "saving a bit matters more to me than being able to change",
        ),
    },
    preferences=CONFIRM_FIRST,
    personas=TRAVELLERS,
)

# --------------------------------------------------------------------------------------------- cars

CAR_REQUESTS = (
    "Could you rent me {car} from {dates} for my {itinerary} itinerary? The {rate} rate, on my {pay}, and "
    "I'll be driving.",
    "I need {car} from {dates}, added to my {itinerary} itinerary at the {rate} rate and paid with my "
    "{pay}; I'm the driver.",
    "Please book {car} from {dates} under my {itinerary} itinerary, {rate} rate, charged to my {pay}. I'll "
    "drive it myself.",
    "I'd like to rent {car} from {dates} for my {itinerary} itinerary, at the {rate} rate, paid with "
    "my {pay}. I'll be the driver.",
    "Is it possible to get {car} from {dates}? It's for my {itinerary} itinerary, {rate} rate, on my {pay}, "
    "and I'm driving.",
    "I'm calling to add a rental car to my {itinerary} itinerary: {car} from {dates}, {rate} rate, on my "
    "{pay}, with me as the driver.",
    "What I need is {car} from {dates} in my {itinerary} itinerary, at the {rate} rate on my {pay}; "
    "I'll do the driving.",
    "Can we book {car} from {dates} for the {itinerary} itinerary? The {rate} rate, my {pay}, and I'm the "
    "one driving.",
)
CAR_WANTS = (
    "you want to rent {car} from {dates} for your {itinerary} itinerary, at the {rate} rate, paid "
    "with your {pay}; you will drive it yourself",
    "you need {car} from {dates} for your {itinerary} itinerary, {rate} rate, on your {pay}, with you as "
    "the driver",
    "renting {car} from {dates} is your request, in your {itinerary} itinerary at the {rate} "
    "rate, charged to your {pay}; you are the driver",
    "you would like {car} from {dates} for your {itinerary} itinerary, at the {rate} rate and paid with "
    "your {pay}, and you will be driving",
    "you are asking for {car} from {dates} to go into your {itinerary} itinerary, {rate} rate, your "
    "{pay} paying; you drive it yourself",
    "you have picked {car} for {dates}, part of your {itinerary} itinerary, at the {rate} rate on your "
    "{pay}, and you are the only driver",
    "you want {car} booked from {dates} into your {itinerary} itinerary, {rate} rate, charged to your "
    "{pay}; nobody but you will drive",
    "getting {car} from {dates} onto your {itinerary} itinerary is what you are hoping for, at the "
    "{rate} rate with "
    "your {pay}, and you will drive",
)
CAR_REASONS = {
    "flexible": (
        "I want to explore the area at my own pace",
        "public transport doesn't reach the places I want to see",
        "I may need to shift the dates, so I want to keep that open",
        "I'd rather drive than rely on taxis out there",
        "some of the places I'm going are far out of town",
        "my plans for those days could still move",
        "I like having a car for day trips",
        "I want the freedom to go where I like",
    ),
    "non_refundable": (
        "my dates are fixed, so I'd rather pay less",
        "I'm sure of those days and want the cheaper rate",
        "public transport doesn't reach the places I want to see, and my plan is set",
        "I won't be changing anything and want to save a little",
        "some of the places I'm going are far out of town, and the days are certain",
        "the plan is settled, so the lower rate suits me",
        "I like having a car for day trips and the dates won't move",
        "saving a bit matters more to me than flexibility",
    ),
}
CAR_PREFERENCES = (
    "I'd like everything read back to me before it's booked",
    "I'd like to hear the total before anything is booked",
    "only the card I named should be charged, no other",
    "I want a confirmation with the booking number once it's done",
    "please make sure the pick-up and drop-off dates are the ones I gave",
    "I'd like to hear the cancellation terms before I say yes",
    "please check it really goes into that trip and no other",
    "I'd rather go one step at a time, with a check before the booking",
)

BOOK_CAR = Bank(CAR_REQUESTS, CAR_WANTS, CAR_REASONS, CAR_PREFERENCES, TRAVELLERS)

CAR_INSTEAD = Bank(
    requests=(
        "If I'm too young for that one, could you book {car} from {dates} instead, {rate} rate, on my {pay}?",
        "Then please book {car} from {dates}, {rate} rate, with my {pay}.",
        "In that case, {car} from {dates} will do, {rate} rate, paid with my {pay}.",
        "Alright, could I have {car} from {dates} then? The {rate} rate, on my {pay}.",
        "If the age rule says no, I'll take {car} from {dates}, {rate} rate, on my {pay}.",
        "Then let's rent {car} from {dates} instead, {rate} rate, charged to my {pay}.",
        "Could you reserve {car} from {dates} then, {rate} rate? My {pay} pays. That's my second choice.",
        "Fine, {car} from {dates}, {rate} rate, on my {pay} works if the other car can't be had.",
    ),
    wants=("you would take {car} from {dates}, {rate} rate, paid with your {pay}",),
    reasons={"": ("",)},
    preferences=(
        "if I'm too young for that car, I'd settle for {car} for the same dates, {rate} rate, on my {pay}",
        "should the age rule rule it out, {car}, {rate} rate, on my {pay} works for me",
        "if that car isn't allowed for me, I'll take {car} instead, {rate} rate, paid with my {pay}",
        "failing that, {car} for the same dates is my second choice, {rate} rate, on my {pay}",
        "if the rules say no, renting {car}, {rate} rate, with my {pay} is fine",
        "when that car is ruled out, {car} for the same days suits me, {rate} rate, on my {pay}",
        "if it has to be another car, I'd have {car}, {rate} rate, charged to my {pay}",
        "if my first pick is refused, {car} is the one I'd rent, {rate} rate, on my {pay}",
    ),
)

YOUNG_DRIVER = Bank(
    requests=CAR_REQUESTS,
    wants=CAR_WANTS,
    reasons=CAR_REASONS,
    preferences=(
        "if I can't rent that car, I'd like to know why",
        "if there's an age rule, please explain it plainly",
        "if it isn't allowed, I'd like to hear what I can rent instead",
        "I'd rather hear the truth than be told it will work out",
        "if the answer is no, a short explanation is enough",
        "I don't want to be transferred; just tell me what is possible",
        "please check my details before telling me no",
        "if that car is off the table, I'll think about another one later",
    ),
    personas=(
        "a university student on a first road trip",
        "a young graduate planning a first holiday abroad",
        "an apprentice saving up for a summer trip",
    ),
)

# ----------------------------------------------------------------------------------------- packages

BOOK_PACKAGE = Bank(
    requests=(
        "Could you book the {package} package departing {day} for {people}? It's for my {itinerary} "
        "trip, on my {pay}.",
        "I need the {package} package on the {day} departure for {people}, added to my {itinerary} "
        "itinerary and paid with my {pay}.",
        "Please book {package}, departing {day}, for {people} under my {itinerary} itinerary, charged to my "
        "{pay}.",
        "I'd like the {package} package departing {day} for {people}, in my {itinerary} itinerary, paid "
        "with my {pay}.",
        "Is it possible to book the {day} departure of {package} for {people}? It goes with my "
        "{itinerary} itinerary, on my {pay}.",
        "I'm calling to add the {package} package to my {itinerary} itinerary: the {day} departure, for "
        "{people}, on my {pay}.",
        "What I need is the {package} package departing {day}, for {people}, in my {itinerary} "
        "itinerary, paid with my {pay}.",
        "Can we book {package} on {day} for {people}? It's part of my {itinerary} itinerary and my "
        "{pay} pays.",
    ),
    wants=(
        "you want the {package} holiday package departing {day} ({date}) for {party}, added to your "
        "{itinerary} itinerary and paid with your {pay}",
        "you need the {day} ({date}) departure of {package} for {party}, in your {itinerary} itinerary, on "
        "your {pay}",
        "booking {package} departing {day} ({date}) for {party} is the point of your call, in your "
        "{itinerary} itinerary and charged to your {pay}",
        "you would like the {package} package on {day} ({date}) for {party}, part of your {itinerary} "
        "trip, paid with your {pay}",
        "you are asking for {package}, departing {day} ({date}), for {party}, to go into your "
        "{itinerary} itinerary with your {pay} paying",
        "you have chosen the {day} ({date}) departure of {package} for {party}, for your {itinerary} "
        "trip, on your {pay}",
        "you want {package} booked for {party} on the {day} ({date}) departure, in your {itinerary} "
        "itinerary and charged to your {pay}",
        "getting the {package} package departing {day} ({date}) for {party} onto your {itinerary} itinerary "
        "is the plan, with your {pay}",
    ),
    reasons={
        "solo": (
            "I want a few days where everything is organised for me",
            "I'd like a break without planning every detail",
            "the package covers the things I wanted to see anyway",
            "travelling alone, I like having a set programme",
            "it's a simple way to see the area on my own",
            "I don't want to organise the sights myself",
            "the programme looks like good value for one person",
            "I've wanted to do that tour for a long time",
        ),
        "group": (
            "some friends are joining me and we want it all arranged",
            "I'm bringing company and the package suits everyone",
            "it's easier to book one package for all of the group",
            "the others travelling with me liked the programme",
            "I want a shared outing that's organised for the group",
            "the package covers what the whole group wants to see",
            "travelling with others, I'd rather have it all planned",
            "it's a treat for the people coming with me",
        ),
    },
    preferences=(
        "I'd like the total read back to me before it's booked",
        "please confirm the departure date with me before booking",
        "only the card I named should be charged, no other",
        "I want a confirmation with the booking number once it's done",
        "please check there are enough seats on that departure first",
        "I'd like to hear the cancellation terms before I say yes",
        "I'd rather go one step at a time, with a check before the booking",
        "please make sure it's added to the right trip",
    ),
    personas=TRAVELLERS,
)

# ------------------------------------------------------------------------------------ changing dates

DATES_REASONS = {
    "earlier": (
        "my flight was moved to an earlier day",
        "I'm arriving sooner than I planned",
        "the event I'm travelling for was brought forward",
        "I can get away a little earlier than expected",
        "my plans at the destination now start sooner",
        "I want to be there ahead of the busy days",
        "my schedule opened up earlier",
        "I'd like to avoid travelling on the original day",
    ),
    "later": (
        "my flight was moved to a later day",
        "I'm arriving later than I planned",
        "the event I'm travelling for was pushed back",
        "I can't get away as early as I hoped",
        "my plans at the destination now start later",
        "something came up that keeps me home a bit longer",
        "my schedule slipped by a few days",
        "I'd like to avoid travelling on the original day",
    ),
}
DATES_REASONS[""] = DATES_REASONS["later"]

CHANGE_DATES = Bank(
    requests=(
        "Could you move my {booking} so that it runs {span}?",
        "I need my {booking} changed so that it runs {span}.",
        "Please shift my {booking} so it runs {span}.",
        "I'd like my {booking} moved to the dates {span}.",
        "Is it possible to change the dates of my {booking}? The new ones are {span}.",
        "I'm calling to move my {booking}; the new dates are {span}.",
        "What I want is my {booking} rebooked for {span}.",
        "Can we change my {booking} to the dates {span}?",
    ),
    wants=(
        "you want your {booking} moved so that it runs {span}",
        "you need the dates of your {booking} changed to {span}",
        "moving your {booking} to the dates {span} is what you are ringing about",
        "you would like your {booking} to run {span} instead",
        "you are asking for your {booking} to be shifted to the dates {span}",
        "you have to change your {booking} so it runs {span}",
        "you want the new dates of your {booking} to be {span}",
        "getting your {booking} onto {span} is what you are looking for",
    ),
    reasons=DATES_REASONS,
    preferences=(
        "I'd like to hear the new total before anything changes",
        "please read the new dates back to me first",
        "nothing else about the booking should change",
        "I want a confirmation once the dates are moved",
        "I'd rather go one step at a time, with a check before the change",
        "I'd like the booking checked first so the right one is changed",
        "I'd like to know which card any difference goes to before I agree",
        "please make sure the dates are exactly the ones I gave",
    ),
    personas=TRAVELLERS,
)

CHANGE_PACKAGE = Bank(
    requests=(
        "Could you move my {booking} to the {day} departure?",
        "I need my {booking} changed to the {day} departure.",
        "Please switch my {booking} to the departure on {day}.",
        "I'd like my {booking} moved to the {day} departure instead.",
        "Is it possible to put my {booking} on the {day} departure?",
        "I'm calling to change my {booking} to the {day} departure.",
        "What I want is my {booking} on the {day} departure rather than the one I booked.",
        "Can we move my {booking} to {day}?",
    ),
    wants=(
        "you want your {booking} moved to the package's {day} ({date}) departure",
        "you need your {booking} changed to the {day} ({date}) departure",
        "moving your {booking} to the {day} ({date}) departure is the task for today",
        "you would like your {booking} to leave on {day} ({date}) instead",
        "you are asking for your {booking} to be switched to the {day} ({date}) departure",
        "you have to get your {booking} onto the {day} ({date}) departure",
        "you want the {day} ({date}) departure for your {booking} instead of the booked one",
        "getting your {booking} onto the {day} ({date}) departure is your hope",
    ),
    reasons=DATES_REASONS,
    preferences=(
        "if the date can't be changed, I'd like to know why",
        "if it isn't allowed, I'd like to hear what my options are",
        "if the rules say no, please just tell me plainly",
        "I'd rather hear the truth than be told it will work out",
        "if the package can't move, I'll keep it for now and think",
        "I don't want to be transferred; just tell me what is possible",
        "please check the booking before telling me no",
        "if it's not possible, a short explanation is enough",
    ),
    personas=TRAVELLERS,
)

# --------------------------------------------------------------------------------------- cancelling

CANCEL_REQUESTS = (
    "Could you cancel my {booking}?",
    "I need my {booking} cancelled, please.",
    "Please cancel my {booking}.",
    "I'd like to cancel my {booking}.",
    "Is it possible to cancel my {booking}?",
    "I'm calling to cancel my {booking}.",
    "What I want is my {booking} cancelled.",
    "Can we cancel my {booking}? I won't be using it.",
)
CANCEL_WANTS = (
    "you want your {booking} cancelled",
    "you have decided to call off your {booking}",
    "cancelling your {booking} is what you are asking for",
    "you mean to have your {booking} cancelled",
    "you need the agent to cancel your {booking}",
    "you are asking for your {booking} to be cancelled",
    "you no longer want your {booking} and want it cancelled",
    "getting your {booking} cancelled is the thing to sort out",
)
CANCEL_REASONS = {
    "hotel": (
        "I've found somewhere to stay with friends",
        "I'm cutting that part of the trip",
        "I've decided to stay in a different part of the region",
        "my plans changed and I won't need the room",
        "I'll be staying with family there instead",
        "the trip got shorter and those nights aren't needed",
        "I'd rather stay somewhere closer to the centre",
        "I've booked somewhere else for those nights",
    ),
    "car": (
        "I won't need a car after all",
        "a friend is lending me a car for those days",
        "I've decided to get around by train",
        "my plans changed and I'll stay in the city",
        "I've arranged a transfer service instead",
        "I'd rather not drive on that trip",
        "the places I wanted to drive to are off the plan",
        "public transport turns out to be enough",
    ),
    "package": (
        "my plans changed and the tour no longer fits",
        "I've found a tour that suits me better",
        "I've decided to see the area on my own",
        "the dates clash with something I can't move",
        "I won't be travelling that week after all",
        "the programme turned out not to suit me",
        "I'd rather spend the trip somewhere else",
        "I need to be at home that week",
    ),
}
CANCEL_REASONS[""] = CANCEL_REASONS["hotel"]

CANCEL_BOOKING = Bank(
    requests=CANCEL_REQUESTS,
    wants=CANCEL_WANTS,
    reasons=CANCEL_REASONS,
    preferences=(
        "I'd like to hear what happens to my money before it's cancelled",
        "please read the booking back to me before cancelling",
        "I want a clear confirmation once it's cancelled",
        "I'd like to know when anything owed to me will show up",
        "I'd like the booking checked first so the right one is cancelled",
        "I'd rather go one step at a time, with a check before the cancellation",
        "I'd like to hear the booking number once it's found",
        "I'd like the terms explained before I say yes",
    ),
    personas=TRAVELLERS,
)

CANCEL_NONREFUNDABLE = Bank(
    requests=CANCEL_REQUESTS,
    wants=CANCEL_WANTS,
    reasons={
        "": (
            "my plans changed and I won't be going",
            "the trip has been called off",
            "I've decided to travel another time",
            "the dates no longer work for me",
            "something came up that keeps me at home",
            "I no longer need that part of the booking",
            "I've made other arrangements",
            "the reason for going has fallen through",
        )
    },
    preferences=(
        "if it can't be cancelled, I'd like to know why",
        "if the rate doesn't allow it, please just say so plainly",
        "if cancelling isn't possible, I'd like to hear what I can do",
        "I'd rather hear the truth than be given false hope",
        "if it can't be done, I'll keep the booking for now",
        "I don't want to be transferred; just tell me what is possible",
        "please check the booking before telling me no",
        "if it's not possible, a short explanation is enough",
    ),
    personas=TRAVELLERS,
)

BANKS: dict[str, Bank] = {
    "book_hotel": BOOK_HOTEL,
    "book_car": BOOK_CAR,
    "young_driver": YOUNG_DRIVER,
    "car_instead": CAR_INSTEAD,
    "book_package": BOOK_PACKAGE,
    "change_dates": CHANGE_DATES,
    "change_package": CHANGE_PACKAGE,
    "cancel_booking": CANCEL_BOOKING,
    "cancel_nonrefundable": CANCEL_NONREFUNDABLE,
    **MORE,
}
