"""Airline phrase banks, second part (see phrases.py): travellers, booking a trip, compensation for
a cancelled flight and the two questions. `MORE` is merged into `phrases.BANKS`.

Slots: `{trip}` a reservation, `{old}` the traveller who leaves, `{traveller}` the traveller whose
birth date is wrong, `{new}` a new traveller and `{dob}` a date of birth, `{route}` ("from Boston
(BOS) to Denver (DEN)"), `{cabin}`, `{day}` and `{date}`, `{bags}` ("1 checked bag"), `{pay}`, and
`{flight}` a flight ("flight HAT045"). Compensation texts never name an amount: the policy decides it.

Reason keys: compensation's key is "past" or "upcoming" (when the cancelled flight was due); a fare
question's key is "earlier" or "later" than the booked day."""

from __future__ import annotations

from taue.envs.runtime.authoring import Bank

FLYERS = (
    "a consultant who flies most weeks for work",
    "a retiree who travels a few times a year",
    "a frequent flyer who knows the booking rules",
    "a careful traveller who double-checks every booking",
)
CONFIRM_FIRST = (
    "I'd like the change read back to me before anything is saved",
    "I'd like the names spelled back to me before it's updated",
    "nothing else on the reservation should change",
    "I want to hear the full list of travellers before it's done",
    "I'd like a confirmation once it's updated",
    "I'd like the reservation checked first so the right one is changed",
    "I'd rather go one step at a time, with a check before the change",
    "the other travellers should stay exactly as they are",
)

# ---------------------------------------------------------------------------------------- travellers

REPLACE_PASSENGER = Bank(
    requests=(
        "Could you put {new} (born {dob}) on {trip} in place of {old}?",
        "I need {old} replaced by {new}, born {dob}, on {trip}.",
        "Please swap {old} for {new} (date of birth {dob}) on {trip}.",
        "I'd like {new}, born {dob}, to take the seat of {old} on {trip}.",
        "Is it possible to change a traveller on {trip}? {new}, born {dob}, instead of {old}.",
        "I'm calling to replace {old} with {new} (born {dob}) on {trip}.",
        "What I want is {new}, date of birth {dob}, travelling instead of {old} on {trip}.",
        "Can we take {old} off {trip} and put {new} (born {dob}) on instead?",
    ),
    wants=(
        "you want {new} (born {dob}) to travel instead of {old} on {trip}",
        "you need {old} replaced by {new}, born {dob}, on {trip}",
        "swapping {old} for {new} (born {dob}) on {trip} is what you need",
        "you would like {new}, whose date of birth is {dob}, to take the place of {old} on {trip}",
        "you are asking for {old} to come off {trip} and {new} (born {dob}) to go on in that place",
        "you have arranged for {new} (born {dob}) to fly instead of {old} on {trip}",
        "you want the traveller {old} on {trip} changed to {new}, born {dob}",
        "getting {new} (born {dob}) onto {trip} in place of {old} is what you want",
    ),
    reasons={
        "": (
            "{old} can't make the trip any more",
            "{old} has a clash on those dates and {new} will go instead",
            "{old} dropped out and {new} is taking the place",
            "the plans changed and {new} is the one travelling now",
            "{old} has to stay behind for work",
            "{new} is going in place of {old}, who is unwell",
            "{old} decided not to come, so the seat goes to {new}",
            "it makes more sense for {new} to go this time",
        )
    },
    preferences=CONFIRM_FIRST,
    personas=FLYERS,
)

FIX_BIRTH_DATE = Bank(
    requests=(
        "Could you correct the date of birth of {traveller} on {trip} to {dob}?",
        "I need the birth date of {traveller} on {trip} fixed; it should be {dob}.",
        "Please change the date of birth for {traveller} on {trip} to {dob}.",
        "I'd like the birth date of {traveller} on {trip} corrected to {dob}.",
        "Is it possible to fix a date of birth on {trip}? {traveller} was born on {dob}.",
        "I'm calling because the date of birth of {traveller} on {trip} is wrong: it's {dob}.",
        "What I need is the birth date of {traveller} on {trip} set to {dob}.",
        "Can we correct {traveller}'s date of birth on {trip}? The right one is {dob}.",
    ),
    wants=(
        "you want the date of birth of {traveller} on {trip} corrected to {dob}",
        "you need the birth date of {traveller} on {trip} fixed to {dob}",
        "correcting the date of birth of {traveller} on {trip} to {dob} is what you ask for",
        "you would like {trip} to show {dob} as the birth date of {traveller}",
        "you are asking for the date of birth of {traveller} on {trip} to be changed to {dob}",
        "you have noticed that {traveller}'s birth date on {trip} is wrong and want it set to {dob}",
        "you want {traveller}'s date of birth on {trip} to read {dob}",
        "getting the birth date of {traveller} on {trip} corrected to {dob} is your request",
    ),
    reasons={
        "": (
            "the date of birth was typed wrong when the trip was booked",
            "I noticed a typo in the birth date while checking the booking",
            "the date on the booking doesn't match the passport",
            "I mixed up the day and month when I entered it",
            "I'm worried the wrong date will cause trouble at check-in",
            "the booking was made in a rush and the date came out wrong",
            "the birth date has to match the travel document exactly",
            "I copied the date from the wrong document",
        )
    },
    preferences=CONFIRM_FIRST,
    personas=FLYERS,
)

ADD_PASSENGER = Bank(
    requests=(
        "Could you add {new} (born {dob}) as another traveller on {trip}?",
        "I need {new}, born {dob}, added to {trip}.",
        "Please put {new} (date of birth {dob}) on {trip} as well.",
        "I'd like one more traveller on {trip}: {new}, born {dob}.",
        "Is it possible to add {new}, born {dob}, to {trip}?",
        "I'm calling to add a traveller to {trip}: {new}, born {dob}.",
        "What I want is {new} (born {dob}) on {trip} too.",
        "Can we add {new}, date of birth {dob}, to {trip}?",
    ),
    wants=(
        "you want {new} (born {dob}) added as one more traveller on {trip}",
        "you need {new}, born {dob}, to join {trip}",
        "adding {new} (born {dob}) to {trip} is what you are hoping for",
        "you would like {trip} to include {new}, born {dob}, as an extra traveller",
        "you are asking for {new} (born {dob}) to be put on {trip} as well",
        "you have decided {new} (born {dob}) should come along on {trip}",
        "you want one more seat on {trip}, for {new}, born {dob}",
        "getting {new} (born {dob}) onto {trip} alongside the others is the point of your call",
    ),
    reasons={
        "": (
            "{new} decided at the last minute to come along",
            "{new} has the same dates free and wants to join",
            "{new} wants to come with me",
            "it turns out {new} can travel with me",
            "{new} asked to join the trip this week",
            "I'd rather not travel alone and {new} offered to come",
            "{new} has business at the same place on those dates",
            "{new} managed to get the time off to come",
        )
    },
    preferences=(
        "if a traveller can't be added, I'd like to know why",
        "if it isn't allowed, I'd like to hear what I can do instead",
        "if the rules say no, please just tell me plainly",
        "I don't want to be passed around; just tell me what is possible",
        "if it can't be done on this booking, I'd like to know the alternative",
        "I'd rather hear the truth than be told it will work out",
        "please check the reservation before giving me an answer",
        "if it's not possible, a short explanation is enough",
    ),
    personas=FLYERS,
)

# -------------------------------------------------------------------------------------------- booking

BOOK_TRIP = Bank(
    requests=(
        "Could you book me a one-way {cabin} trip {route} on {day}, just me, on the cheapest direct "
        "flight, with {bags} and no insurance? Please charge my {pay}.",
        "I need a one-way {cabin} ticket {route} on {day} for myself: the cheapest direct flight, "
        "{bags}, no insurance, paid with my {pay}.",
        "Please book the cheapest direct flight {route} on {day}, one way in {cabin}, only me, {bags} "
        "and no travel insurance, on my {pay}.",
        "I'd like to book a one-way {cabin} trip {route} on {day}, just for me, on the cheapest direct "
        "flight, with {bags} and no insurance, paid with my {pay}.",
        "Is it possible to get me on the cheapest direct flight {route} on {day}? One way, {cabin}, "
        "only me, {bags}, no insurance, and my {pay} to pay.",
        "I'm calling to book a one-way trip {route} on {day} for myself in {cabin}: the cheapest "
        "direct flight, {bags}, no insurance, charged to my {pay}.",
        "What I need is a one-way {cabin} seat {route} on {day}, just me, on the cheapest direct "
        "flight, {bags}, no insurance, using my {pay}.",
        "Can we book a one-way {cabin} trip {route} on {day}? Only me, the cheapest direct flight, "
        "{bags}, no insurance, paid with my {pay}.",
    ),
    wants=(
        "you want a one-way {cabin} trip {route} on {day} ({date}) for yourself only: the cheapest "
        "direct flight, {bags}, no travel insurance, paid with your {pay}",
        "you need to book yourself alone on the cheapest direct flight {route} on {day} ({date}), one "
        "way in {cabin}, with {bags}, no insurance, on your {pay}",
        "booking a one-way {cabin} seat {route} on {day} ({date}) just for you is the plan: "
        "cheapest direct flight, {bags}, no insurance, your {pay}",
        "you would like the cheapest direct {cabin} flight {route} on {day} ({date}), one way, only "
        "you travelling, {bags}, no travel insurance, charged to your {pay}",
        "you are asking for a one-way trip {route} on {day} ({date}) in {cabin} for yourself: the "
        "cheapest direct flight, {bags}, without insurance, paid with your {pay}",
        "you have decided to fly one way {route} on {day} ({date}) in {cabin}, alone, on the cheapest "
        "direct flight, with {bags} and no insurance, using your {pay}",
        "you want to be booked, by yourself, on the cheapest direct flight {route} on {day} ({date}), "
        "one way in {cabin}, {bags}, no insurance, on your {pay}",
        "getting a one-way {cabin} ticket {route} on {day} ({date}) for yourself only is what you "
        "are ringing about: "
        "cheapest direct flight, {bags}, no insurance, your {pay} paying",
    ),
    reasons={
        "": (
            "I'm visiting an old friend who lives there",
            "there's a wedding there that I'm invited to",
            "I want a few days away on my own",
            "I'm going to look at an apartment there",
            "I want to see an exhibition that's on there",
            "I'm helping a friend move house",
            "I'm going to a concert there",
            "I'm meeting a cousin there for a long weekend",
        )
    },
    preferences=(
        "I'd like the flight number and price read back before it's booked",
        "please check that it really is the cheapest direct flight that day",
        "I want a confirmation with the reservation code once it's booked",
        "only the card I named should be charged",
        "I'd rather go one step at a time, with a check before the booking",
        "I'd like the date confirmed with me before anything is booked",
        "I'd like to hear the departure time before I say yes",
        "I'd like to know how many bags are free before it's booked",
    ),
    personas=(
        "a consultant who flies most weeks for work",
        "a student who books travel on a budget",
        "a retiree who travels a few times a year",
        "a freelancer who arranges trips at short notice",
    ),
)

# ----------------------------------------------------------------------------------------- compensation

COMPENSATION_REASONS = {
    "past": (
        "the cancellation cost me a whole day of my trip",
        "I spent hours at the airport trying to get rebooked",
        "I missed an appointment because of it",
        "I had to pay for a hotel night I hadn't planned",
        "nobody told me until I was already at the gate",
        "the whole trip was thrown off by it",
        "I arrived a day late and missed what I was travelling for",
        "it was stressful and badly handled",
    ),
    "upcoming": (
        "I had to rearrange my plans around the cancellation",
        "the cancellation has thrown my schedule into chaos",
        "I've lost hours sorting out what to do instead",
        "I may miss what I was travelling for because of it",
        "I found out by chance and nobody explained anything",
        "it leaves me scrambling to find another way there",
        "I planned the whole trip around that flight",
        "it's causing me a lot of stress and extra work",
    ),
}
COMPENSATION_REASONS[""] = COMPENSATION_REASONS["past"]

COMPENSATION = Bank(
    requests=(
        "The airline cancelled my {flight} on {day}, and I want to know what you'll do to make up for it.",
        "I need to complain: my {flight} on {day} was cancelled, and I expect some compensation.",
        "Please look into my {flight} on {day}; it was cancelled and I think I'm owed something for it.",
        "I'd like compensation for my {flight} on {day}, which the airline cancelled.",
        "Is it possible to get something for the trouble? My {flight} on {day} was cancelled.",
        "I'm calling about my {flight} on {day}: it was cancelled and I want it made right.",
        "What I want is compensation for the cancellation of my {flight} on {day}.",
        "Can we talk about my {flight} on {day}? It was cancelled, and I'd like compensation.",
    ),
    wants=(
        "you want compensation because the airline cancelled your {flight} on {day} ({date})",
        "you need the airline to make up for cancelling your {flight} on {day} ({date})",
        "complaining about your cancelled {flight} on {day} ({date}) and getting compensation is what "
        "you are after",
        "you would like something in return for the cancellation of your {flight} on {day} ({date})",
        "you are asking to be compensated for your {flight} on {day} ({date}), which was cancelled",
        "you have decided to complain about your {flight} on {day} ({date}) being cancelled and ask for "
        "compensation",
        "you want the cancellation of your {flight} on {day} ({date}) put right with compensation",
        "getting compensation for your cancelled {flight} on {day} ({date}) is what you are looking for",
    ),
    reasons=COMPENSATION_REASONS,
    preferences=(
        "I'd like to hear what the airline offers before anything is sent",
        "please confirm which reservation the flight is on",
        "I'd like a confirmation once it's been issued",
        "I'd rather have something concrete than just an apology",
        "please explain how the compensation works",
        "I'd like to know where it will show up in my account",
        "please check my booking before telling me anything",
        "I'd rather settle this in this call than write in later",
    ),
    personas=FLYERS,
)

# ---------------------------------------------------------------------------------------- questions

FARE_REASONS = {
    "earlier": (
        "I might be able to leave a little sooner",
        "my plans could move up and I want to know my options",
        "I'm thinking of heading out a day or two ahead",
        "I may be free sooner than I expected",
        "leaving earlier might suit me better",
        "I'm weighing up an earlier departure",
        "something at the other end may start sooner",
        "I'd like to know if going earlier is worth it",
    ),
    "later": (
        "I might have to leave a little later",
        "my plans could slip and I want to know my options",
        "I'm thinking of heading out a day or two after",
        "something may keep me here longer than expected",
        "leaving later might suit me better",
        "I'm weighing up a later departure",
        "something at the other end may start later",
        "I'd like to know if going later is worth it",
    ),
}
FARE_REASONS[""] = FARE_REASONS["later"]

CHEAPEST_FARE = Bank(
    requests=(
        "Could you tell me the cheapest direct flight on {day} in the same cabin as {trip}, and its fare?",
        "I need to know what the cheapest direct flight costs on {day}, same route and cabin as {trip}.",
        "Please check the cheapest direct flight on {day} for the route of {trip}, same cabin, with its "
        "fare.",
        "I'd like to compare: what's the cheapest direct flight on {day} for {trip}, in the same cabin?",
        "Is it possible to look up the cheapest direct flight on {day} for the route of {trip}, same "
        "cabin, and tell me the fare?",
        "I'm calling to ask about flying on {day} instead for {trip}: which direct flight is cheapest "
        "in the same cabin, and at what fare?",
        "What I want to know is the cheapest direct flight on {day} for {trip}'s route in the same "
        "cabin, and what it costs.",
        "Can we check {day} for {trip}? I'd like the cheapest direct flight in the same cabin and its fare.",
    ),
    wants=(
        "you want to know the cheapest direct flight on {day} ({date}) for the route of {trip}, in the "
        "same cabin, and its fare; you do not want to change anything yet",
        "you need the cheapest direct flight of {day} ({date}) on the route of {trip}, same cabin, and "
        "its fare, without changing the booking",
        "finding out the cheapest direct flight on {day} ({date}) for {trip}, same cabin, and its fare "
        "is the task for today; nothing should change yet",
        "you would like the fare of the cheapest direct flight on {day} ({date}) on the route of "
        "{trip} in the same cabin, only as information",
        "you are asking which direct flight on {day} ({date}) is cheapest for the route of {trip} in "
        "the same cabin, and at what fare; you are not changing anything today",
        "you have been wondering about flying on {day} ({date}) for {trip} and want the cheapest "
        "direct flight in the same cabin and its fare, with no change made",
        "you want the cheapest direct flight on {day} ({date}) in the cabin of {trip}, on its route, "
        "and its fare, just to compare",
        "getting the cheapest direct flight and fare on {day} ({date}) for {trip}'s route and cabin is "
        "what you need; you are only asking",
    ),
    reasons=FARE_REASONS,
    preferences=(
        "I don't want anything changed today, just the information",
        "please give me the flight number along with the fare",
        "I only want direct flights, no connections",
        "I'd like the fare for one traveller in the same cabin",
        "please don't book or change anything",
        "I'd like the answer short and clear",
        "please check the date carefully, it's easy to mix up",
        "I'll decide later, so nothing should be held or booked",
    ),
    personas=FLYERS,
)

FLIGHT_NUMBERS = Bank(
    requests=(
        "Could you tell me the flight numbers on {trip}?",
        "I need the flight numbers for {trip}.",
        "Please give me the flight numbers of {trip}.",
        "I'd like to know which flights I'm on for {trip}.",
        "Is it possible to get the flight numbers of {trip}?",
        "I'm calling to check the flight numbers on {trip}.",
        "What I need is the list of flight numbers for {trip}.",
        "Can we go over {trip}? I want the flight numbers.",
    ),
    wants=(
        "you want the flight numbers of {trip}",
        "you need to know which flights {trip} is booked on",
        "finding out the flight numbers of {trip} is your hope",
        "you would like the flight numbers of {trip} read to you",
        "you are asking for the flight numbers on {trip}",
        "you have lost track of the flight numbers of {trip} and want them",
        "you want to note down the flights of {trip}",
        "getting the flight numbers of {trip} is what you are asking for",
    ),
    reasons={
        "": (
            "I want to track the flights on the day",
            "the person picking me up asked for them",
            "I can't find the confirmation email",
            "I'm putting together my travel plans",
            "I want to set up flight alerts",
            "I need them for an expense form",
            "I'd like to check the terminal in advance",
            "I'm sharing my plans with someone at home",
        )
    },
    preferences=(
        "I don't want anything changed, just the flight numbers",
        "please read them out slowly",
        "I'd like them in order, first flight first",
        "the dates of each flight would help too",
        "I only need the numbers, nothing else",
        "please don't change anything on the booking",
        "I'd like the answer short and clear",
        "please double-check them before reading them out",
    ),
    personas=FLYERS,
)

# ------------------------------------------------- the alternative to a refused cancellation (accepted)

CHANGE_INSTEAD = Bank(
    requests=(
        "If it can't be cancelled, could you move the {which} of {trip} to {day} instead? Any fare "
        "difference can go on my {pay}.",
        "Then could you change the {which} of {trip} to {day}, same flight, with any difference on my {pay}?",
        "In that case, please move my {which} on {trip} to {day} and charge any difference to my {pay}.",
        "If cancelling is out, I'll take the same {which} of {trip} on {day}, paying any difference with "
        "my {pay}.",
        "Could you at least put the {which} of {trip} on {day} then? Use my {pay} for any difference.",
        "Alright, then I'd like the {which} of {trip} moved to {day} instead, any extra on my {pay}.",
        "If that's not allowed, can the {which} of {trip} go on {day}, same flight? My {pay} covers any "
        "difference.",
        "Then let's move the {which} of {trip} to {day} on the same flight, with any difference on my {pay}.",
    ),
    wants=(
        "you would take the {which} of {trip} moved to {day} ({date}) on the same flight, any difference "
        "on your {pay}",
    ),
    reasons={"": ("",)},
    preferences=(
        "if it can't be cancelled, I'd settle for moving the {which} of {trip} to {day} ({date}) on the "
        "same flight, with any difference on my {pay}",
        "should cancelling be refused, moving the {which} of {trip} to {day} ({date}), same flight, would "
        "do, paid with my {pay} if anything is owed",
        "if the cancellation isn't allowed, I'll take the same {which} of {trip} on {day} ({date}) "
        "instead, any difference on my {pay}",
        "failing a cancellation, the {which} of {trip} moved to {day} ({date}) on the same flight works "
        "for me, with my {pay} for any difference",
        "if there's no way to cancel, I'd accept flying the {which} of {trip} on {day} ({date}) instead, "
        "paying any difference with my {pay}",
        "when cancelling is ruled out, a move of the {which} of {trip} to {day} ({date}) on the same "
        "flight is fine, any difference on my {pay}",
        "if it has to stay booked, I'd have the {which} of {trip} moved to {day} ({date}), same flight, "
        "my {pay} covering any difference",
        "if a cancellation is off the table, the same {which} of {trip} on {day} ({date}) is my second "
        "choice, with any difference on my {pay}",
    ),
    personas=FLYERS,
)

MORE: dict[str, Bank] = {
    "change_instead": CHANGE_INSTEAD,
    "replace_passenger": REPLACE_PASSENGER,
    "fix_birth_date": FIX_BIRTH_DATE,
    "add_passenger": ADD_PASSENGER,
    "book_trip": BOOK_TRIP,
    "compensation": COMPENSATION,
    "cheapest_fare": CHEAPEST_FARE,
    "flight_numbers": FLIGHT_NUMBERS,
}
