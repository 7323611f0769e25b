"""How airline customers put their intents into words (docs/tracer.md, "Phrase banks"): one `Bank`
per intent of tracer.py. This file holds cancelling, changing flights, upgrading and bags;
phrases_more.py holds travellers, booking, compensation and the questions, and `BANKS` merges both.

Slots: `{trip}` names a reservation ("the economy round trip from Boston to Denver starting May 20"),
`{which}` the flight that moves ("flight", "outbound flight", "return flight"), `{old_day}` and
`{day}` long dates ("May 20"), `{date}` the ISO date, `{pay}` a payment method ("Visa credit card
ending in 1234"), `{cabin}` a cabin word, `{extra}` the bags added ("one more checked bag"), `{total}`
the bags afterwards ("3 checked bags").

Reason keys: a cancellation's key is why the policy allows it (`cancellable` in seed_view.py:
"recent", "airline", "business", "insured"); a flight change's key is "earlier" or "later"; an
upgrade's key is the new cabin. No text names a price, a fee, a refund or a compensation amount."""

from __future__ import annotations

from taue.envs.airline.phrases_more import MORE
from taue.envs.runtime.authoring import Bank

FLYERS = (
    "a consultant who flies most weeks for work",
    "a retiree who travels a few times a year",
    "a frequent flyer who knows the booking rules",
    "a careful traveller who double-checks every booking",
)

# ------------------------------------------------------------------------------------------ cancelling

CANCEL_REQUESTS = (
    "Could you cancel {trip}?",
    "I need {trip} cancelled, please.",
    "Please cancel {trip} for me.",
    "I'd like to cancel {trip}.",
    "Is it possible to cancel {trip}?",
    "I'm calling to cancel a reservation: {trip}.",
    "What I want is to have {trip} cancelled.",
    "Can we cancel {trip}? I won't be taking it.",
    "There's a booking I have to call off, {trip}.",
)
CANCEL_WANTS = (
    "you want {trip} cancelled",
    "you have decided to call off {trip}",
    "cancelling {trip} is what you are after",
    "you mean to have {trip} cancelled",
    "you need the agent to cancel {trip}",
    "you are asking for {trip} to be cancelled",
    "you no longer want to keep {trip} and want it cancelled",
    "getting {trip} cancelled is what you have in mind",
)
CANCEL_REASONS = {
    "recent": (
        "I only just booked it and picked the wrong dates",
        "I made that booking in a hurry and it was a mistake",
        "I booked it by accident while comparing options",
        "I booked it less than a day ago and have already changed my mind",
        "I found out right after booking that the trip isn't going ahead",
        "I reserved it too quickly and it doesn't fit my plans at all",
        "I booked it for the wrong week without noticing",
        "I booked it on impulse and thought better of it",
    ),
    "airline": (
        "the airline cancelled one of the flights on it",
        "one of its flights was cancelled, so the trip no longer works",
        "a flight on that reservation was called off by the airline",
        "the airline scrapped one of my flights and the rest is useless without it",
        "I got a notice that one of the flights was cancelled",
        "with one flight cancelled by the airline, I can't make the trip",
        "one leg of it was cancelled and I don't want to rebuild the trip",
        "the airline cancelled part of it and I'd rather not travel at all now",
    ),
    "business": (
        "my plans changed and I no longer need the trip",
        "the meeting I was flying to has been called off",
        "the event I was going to was cancelled",
        "I've decided to stay home after all",
        "the reason for the trip has fallen through",
        "I'm going to make the journey another way",
        "my schedule changed and those dates no longer work",
        "the person I was going to see will be away then",
    ),
    "insured": (
        "a storm is forecast to hit my destination on those dates",
        "severe weather warnings have been issued where I'm going",
        "the hurricane forecast for that week makes the trip unsafe",
        "a major storm system is expected to hit the area that week",
        "flooding has hit the area I was travelling to",
        "I have a medical procedure scheduled on those dates",
        "my doctor told me not to fly while I recover from an operation that week",
        "a wildfire near my destination makes it unsafe to go",
    ),
}
CANCEL_REASONS[""] = CANCEL_REASONS["business"]

CANCEL = Bank(
    requests=CANCEL_REQUESTS,
    wants=CANCEL_WANTS,
    reasons=CANCEL_REASONS,
    preferences=(
        "I'd like the reservation read back to me before it is cancelled",
        "please confirm which reservation it is before doing anything",
        "I'd like to hear where the money goes back to",
        "I want a clear confirmation once it's cancelled",
        "I'd like to know how long it takes for the money to show up",
        "I'd appreciate it being done during this call",
        "I'd like to hear the reservation code once it's found",
        "I'd rather every flight on it is checked before cancelling",
    ),
    personas=FLYERS,
)

CANCEL_INELIGIBLE = Bank(
    requests=CANCEL_REQUESTS,
    wants=CANCEL_WANTS,
    reasons={
        "": (
            "my plans changed and I no longer need the trip",
            "the meeting I was flying to has been called off",
            "the event I was going to was cancelled",
            "I've decided to stay home after all",
            "the friend I was visiting will be away that week",
            "I'd rather drive than fly this time",
            "the dates turned out not to suit me",
            "the reason for the trip has fallen through",
        )
    },
    preferences=(
        "if it really can't be cancelled, I'd like to know why",
        "if cancelling isn't allowed, I'd like to hear what I can do instead",
        "if the rules don't allow it, please just say so plainly",
        "I don't want to be passed around; just tell me what is possible",
        "if it can't be cancelled, I'll keep it for now",
        "I'd rather hear the truth than be told it will all work out",
        "if there's no way to cancel, I'd like to know whether the dates can change",
        "please check the reservation before telling me no",
    ),
    personas=FLYERS,
)

# ------------------------------------------------------------------------------------- moving a flight

CHANGE_REQUESTS = (
    "Could you move my {which} on {trip} to {day}? Same flight, just another day, and any fare "
    "difference goes on my {pay}.",
    "I need the {which} of {trip} moved from {old_day} to {day}, on the same flight; please use my "
    "{pay} for any difference.",
    "Please put my {which} on {trip} on {day} instead of {old_day}, same flight number, paid with my "
    "{pay} if anything is owed.",
    "I'd like to fly the {which} of {trip} on {day} rather than {old_day}; keep the same flight and "
    "settle any difference on my {pay}.",
    "Is it possible to switch the {which} of {trip} to {day}? Same flight, and my {pay} for any difference.",
    "I'm calling to change the date of my {which} on {trip}: {day} instead of {old_day}, same flight, "
    "with my {pay} covering any difference.",
    "What I need is my {which} on {trip} moved to {day} on the same flight; my {pay} can take any "
    "difference.",
    "Can we move the {which} of {trip} to {day}? I want the same flight, and any difference on my {pay}.",
)
CHANGE_WANTS = (
    "you want the {which} of {trip} moved from {old_day} to {day} ({date}) on the same flight, any "
    "fare difference paid with your {pay}",
    "you need your {which} on {trip} to go on {day} ({date}) instead of {old_day}, same flight number, "
    "with your {pay} for any difference",
    "moving the {which} of {trip} to {day} ({date}) on the same flight is what you are calling about, any "
    "difference on your {pay}",
    "you would like to fly the {which} of {trip} on {day} ({date}) rather than {old_day}, keeping the "
    "flight and paying any difference with your {pay}",
    "you are asking for the {which} of {trip} to be rebooked on {day} ({date}), same flight, your {pay} "
    "covering any difference",
    "you have to change the {which} of {trip} from {old_day} to {day} ({date}) on the same flight, and "
    "any difference should go on your {pay}",
    "you want your {which} on {trip} shifted to {day} ({date}), keeping the same flight number and "
    "settling any difference with your {pay}",
    "getting the {which} of {trip} onto {day} ({date}) on the same flight is what you are calling "
    "about, paid with "
    "your {pay} if anything is owed",
)
CHANGE_REASONS = {
    "earlier": (
        "the event I'm travelling for was moved up",
        "I need to be there sooner than I planned",
        "my plans at the other end now start earlier",
        "I finished what I had to do sooner than expected",
        "an appointment was brought forward and I have to be there for it",
        "I'd like some extra time before things get busy",
        "the dates of what I'm going for shifted earlier",
        "I found out I'm needed a little sooner",
    ),
    "later": (
        "something came up and I can't travel on the original day",
        "the event I'm travelling for was pushed back",
        "I need a bit more time before I set off",
        "my plans at the other end now start later",
        "an appointment was moved and I have to stay around for it",
        "I'd like to stay a little longer where I am",
        "the dates of what I'm going for shifted later",
        "the original day clashes with something I can't miss",
    ),
}
CHANGE_REASONS[""] = CHANGE_REASONS["later"]

CHANGE_FLIGHT = Bank(
    requests=CHANGE_REQUESTS,
    wants=CHANGE_WANTS,
    reasons=CHANGE_REASONS,
    preferences=(
        "I'd like the new itinerary read back to me before anything is changed",
        "the rest of the reservation should stay exactly as it is",
        "I'd like to hear what it costs before the change is made",
        "I want to keep the same cabin on every flight",
        "I'd like to hear the new departure time once it's done",
        "please check the seat is really available before confirming",
        "I'd rather go one step at a time, with a check before the change",
        "only that one flight should move, nothing else",
    ),
    personas=FLYERS,
)

CHANGE_BASIC = Bank(
    requests=CHANGE_REQUESTS,
    wants=CHANGE_WANTS,
    reasons=CHANGE_REASONS,
    preferences=(
        "if the fare doesn't allow a change, I'd like to know why",
        "if it can't be moved, I'd like to hear what my options are",
        "if the rules say no, please just tell me plainly",
        "if the change isn't possible, I'll keep the flight as it is",
        "I'd rather hear the truth than be given false hope",
        "if it can't be changed, I want to know whether anything else is allowed",
        "I don't want to be transferred; just tell me what is possible",
        "please look at the reservation before telling me no",
    ),
    personas=FLYERS,
)

# ---------------------------------------------------------------------------------------- upgrading

UPGRADE_REASONS = {
    "business": (
        "I want to be able to rest properly on the way",
        "I have work to do during the flights and need the space",
        "my back doesn't cope well with a cramped seat",
        "I'd like to arrive fresh rather than worn out",
        "it's a long travel day and I want to be comfortable",
        "I've decided to treat myself this time",
        "I'd like the extra baggage allowance that comes with it",
        "I want the quiet of the front cabin for this trip",
    ),
    "economy": (
        "I'd like a fare that allows changes later on",
        "I want a bit more flexibility than my current fare gives",
        "I'd like a better seat without paying for business",
        "my plans may shift, so I want a fare I can change",
        "I'd like the baggage allowance that economy comes with",
        "I realised the cheapest fare is too restrictive for this trip",
        "I want a little more comfort than the basic fare",
        "I'd rather not be stuck if my dates move",
    ),
}
UPGRADE_REASONS[""] = UPGRADE_REASONS["business"]

UPGRADE = Bank(
    requests=(
        "Could you upgrade {trip} to {cabin} on every flight? Please charge my {pay}.",
        "I need {trip} moved up to {cabin} for all its flights, paid with my {pay}.",
        "Please change the cabin of {trip} to {cabin} on all flights and use my {pay}.",
        "I'd like to move {trip} up to {cabin} on every flight, paid with my {pay}.",
        "Is it possible to switch {trip} to {cabin}, all flights, with my {pay} paying the difference?",
        "I'm calling to upgrade {trip} to {cabin}; my {pay} can cover it.",
        "What I want is {trip} in {cabin} on every flight, charged to my {pay}.",
        "Can we put {trip} in {cabin} for the whole trip? I'll pay with my {pay}.",
    ),
    wants=(
        "you want {trip} upgraded to {cabin} on all its flights, keeping the same flights, the "
        "difference paid with your {pay}",
        "you need {trip} moved up to {cabin} for every flight, same flights, charged to your {pay}",
        "upgrading {trip} to {cabin} on every flight is what you came for, with your {pay} paying the "
        "difference",
        "you would like the cabin of {trip} changed to {cabin} on all flights, the flights unchanged, "
        "paid with your {pay}",
        "you are asking for {trip} to be in {cabin} for the whole trip, same flights, your {pay} "
        "covering the difference",
        "you have decided to fly {trip} in {cabin} on every flight, keeping the flights, and to pay with "
        "your {pay}",
        "you want every flight of {trip} in {cabin}, the same flights as now, paid with your {pay}",
        "getting {trip} into {cabin} on all its flights is on your list, the difference on your {pay}",
    ),
    reasons=UPGRADE_REASONS,
    preferences=(
        "I'd like the price difference read to me before anything is changed",
        "the flights themselves should stay exactly the same",
        "please confirm the cabin applies to every flight",
        "I'd like a confirmation once the upgrade is done",
        "please check there are seats in that cabin on every flight first",
        "I'd rather go one step at a time, with a check before the change",
        "I want to hear which card is being charged before anything goes ahead",
        "nothing else on the reservation should change",
    ),
    personas=FLYERS,
)

# --------------------------------------------------------------------------------------------- bags

ADD_BAGS = Bank(
    requests=(
        "Could you add {extra} to {trip}? Anything to pay goes on my {pay}.",
        "I need {extra} on {trip}; please use my {pay} if there's a charge.",
        "Please add {extra} to {trip} and put any charge on my {pay}.",
        "I'd like {extra} on {trip}, paid with my {pay} if needed.",
        "Is it possible to add {extra} to {trip}? My {pay} can cover any charge.",
        "I'm calling to add {extra} to {trip}, with my {pay} for any fee.",
        "What I need is {extra} on {trip}; charge my {pay} for anything owed.",
        "Can we add {extra} to {trip}? Use my {pay} if there's something to pay.",
    ),
    wants=(
        "you want to add {extra} to {trip} ({total} in total afterwards), anything to pay on your {pay}",
        "you need {extra} added to {trip}, for {total} in all, with any charge on your {pay}",
        "adding {extra} to {trip} is what you would like, {total} altogether, paid with your {pay} if "
        "anything is owed",
        "you would like {trip} to carry {extra}, {total} in total, any charge going on your {pay}",
        "you are asking for {extra} on {trip}, which makes {total}, with your {pay} for any charge",
        "you have to take {extra} on {trip} ({total} in total) and will pay anything owed with your {pay}",
        "you want {trip} to have {total} after adding {extra}, any fee on your {pay}",
        "getting {extra} onto {trip}, {total} in total, is why you are calling, charged to your "
        "{pay} if needed",
    ),
    reasons={
        "": (
            "I'm bringing back more than I'm taking",
            "I'm carrying equipment that won't fit in the cabin",
            "I realised my carry-on won't hold everything",
            "I'm taking presents for the people I'm visiting",
            "I'm staying longer than usual and need more clothes",
            "I'd rather check a bag than drag it through the airport",
            "I'm moving a few of my things to the other end",
            "I'm bringing sports gear this time",
        )
    },
    preferences=(
        "I'd like to hear what it costs before anything is charged",
        "please tell me how many bags are free on this booking",
        "I want the new bag count read back before it's changed",
        "nothing else on the reservation should change",
        "I'd like a confirmation once the bags are added",
        "please use only the card I named, no other",
        "I'd rather go one step at a time, with a check before the change",
        "please check the reservation first so the count is right",
    ),
    personas=FLYERS,
)

REMOVE_BAGS = Bank(
    requests=(
        "Could you take one checked bag off {trip}? My {pay} is the card on file for it.",
        "I need one of the checked bags removed from {trip}; use my {pay} for anything to settle.",
        "Please remove a checked bag from {trip}, and my {pay} is the method for anything owed.",
        "I'd like one fewer checked bag on {trip}, with my {pay} for anything to settle.",
        "Is it possible to drop one checked bag from {trip}? My {pay} is what I'd use.",
        "I'm calling to take a checked bag off {trip}; my {pay} can handle anything owed.",
        "What I want is one checked bag less on {trip}, using my {pay} if anything is due.",
        "Can we cut the checked bags on {trip} by one? My {pay} for anything to settle.",
    ),
    wants=(
        "you want to take one checked bag off {trip}, anything to settle on your {pay}",
        "you need one checked bag removed from {trip}, with your {pay} for anything owed",
        "dropping one checked bag from {trip} is your goal, your {pay} for anything to settle",
        "you would like {trip} to carry one checked bag fewer, with your {pay} as the payment method",
        "you are asking for a checked bag to come off {trip}, your {pay} for anything due",
        "you have decided you need one bag less on {trip} and name your {pay} for anything to settle",
        "you want the checked bags on {trip} cut by one, any settlement on your {pay}",
        "getting one checked bag off {trip} is your aim, your {pay} for anything owed",
    ),
    reasons={
        "": (
            "I'm packing much lighter than I expected",
            "I can fit everything into my carry-on after all",
            "I won't be taking the equipment I planned to bring",
            "the extra bag turned out to be unnecessary",
            "the things I was going to bring are being shipped instead",
            "I'd rather travel light this time",
            "someone else is taking some of my things for me",
            "I added one bag too many when I booked",
        )
    },
    preferences=(
        "if bags can't be removed, I'd like to know why",
        "if it isn't allowed, please just say so plainly",
        "if the rules say no, I'll leave the bags as they are",
        "I'd rather hear the truth than be told something that isn't so",
        "if it can't be done, I'd like to know what I can do instead",
        "I don't want to be transferred; just tell me what is possible",
        "please check the reservation before giving me an answer",
        "if it's not possible, a short explanation is enough",
    ),
    personas=FLYERS,
)

BANKS: dict[str, Bank] = {
    "cancel_trip": CANCEL,
    "cancel_ineligible": CANCEL_INELIGIBLE,
    "change_flight": CHANGE_FLIGHT,
    "change_basic_economy": CHANGE_BASIC,
    "upgrade_cabin": UPGRADE,
    "add_bags": ADD_BAGS,
    "remove_bags": REMOVE_BAGS,
    **MORE,
}
