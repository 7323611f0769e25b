"""How Lumen guests put their intents into words (docs/tracer.md, "Phrase banks"): one `Bank` per
intent of tracer.py. This file holds buying, showtimes and exchanges; phrases_more.py holds refunds
and memberships, and `BANKS` merges both.

Reason keys: a purchase's keys are the party size ("one", "two", "group"); an exchange's are the
direction of the move ("later_day", "earlier_day", "later_same_day", "earlier_same_day"). No text
here names a fee, a refund amount or lost credits: the agent must tell those."""

from __future__ import annotations

from taue.envs.movie.phrases_more import (
    CANCEL_IN_MINIMUM_TERM,
    CANCEL_MEMBERSHIP,
    CHANGE_TIER,
    CHANGE_TIER_TOO_SOON,
    REFUND_TICKETS,
    REFUND_TOO_LATE,
)
from taue.envs.runtime.authoring import Bank

# ------------------------------------------------------------------------------------------- buying

BUY_REASONS = {
    "one": (
        "I've been looking forward to seeing this film",
        "I like going to the cinema on my own",
        "I want to see it on the big screen before it leaves",
        "a reviewer I follow recommended it",
        "I have some free time that day",
        "it's a small treat for myself",
        "I have heard good things about it",
        "I want to see it before everyone spoils the ending",
    ),
    "two": (
        "I'm taking a friend",
        "it's a treat for someone close to me",
        "the two of us have wanted to see it for a while",
        "it's our film night",
        "I promised someone a trip to the cinema",
        "we both like this director",
        "it's a little celebration for the two of us",
        "a friend and I finally found a free day",
    ),
    "group": (
        "a few of us are going together",
        "I'm organising an outing for a small group",
        "we're celebrating something as a group",
        "my friends and I planned this together",
        "it's a get-together and the film is the main event",
        "we want to sit together as a group",
        "I'm booking for everyone so we don't get split up",
        "our little film club picked this one",
    ),
}
BUY_REASONS[""] = BUY_REASONS["group"]

BUY = Bank(
    requests=(
        "Could you book {tickets} ({seats}) for {show}{my_credits}? I'll pay with my {payment}.",
        "I need {tickets}, {seats}, for {show}{my_credits}, paid with my {payment}.",
        "Please get me {seat_list} for {show}{my_credits}; my {payment} can cover it.",
        "I'd like {tickets} ({seats}) for {show}{my_credits}, on my {payment}.",
        "Is it possible to buy {seat_list} for {show}{my_credits}? I'd pay with my {payment}.",
        "I'm calling to buy {tickets} for {show}: {seat_list}{my_credits}, with my {payment}.",
        "What I'm after is {tickets}, {seats}, for {show}{my_credits}, paid with my {payment}.",
        "Can we book {seat_list} for {show}{my_credits}? Charge my {payment}, please.",
    ),
    wants=(
        "you want to buy tickets for {show}: {seat_list}{your_credits}, the rest paid with your {payment}",
        "you need {tickets} for {show}, namely {seat_list}{your_credits}, paid with your {payment}",
        "booking {seat_list} for {show} is the task for today{your_credits}, with your {payment} for "
        "the rest",
        "you would like {tickets} ({seats}) for {show}{your_credits}, charged to your {payment}",
        "you have decided to buy {seat_list} for {show}{your_credits}, paying with your {payment}",
        "you want {seat_list} at {show}{your_credits}; your {payment} pays for the rest",
        "getting {tickets}, {seats}, for {show} is your hope{your_credits}, with your {payment} paying",
        "you are after {seat_list} for {show}{your_credits}, the rest on your {payment}",
    ),
    reasons=BUY_REASONS,
    preferences=(
        "I'd like the seats and the show read back before I pay",
        "I want to hear the total before I agree",
        "please make sure the seats are next to each other",
        "I'd rather not be charged on any other method",
        "I'd like a confirmation of the order once it's booked",
        "please check the seats are still free before booking",
        "I'd like to know the order number when it's done",
        "please tell me exactly what I'm paying for before charging",
    ),
    personas=(
        "a film fan who books well ahead",
        "a college student on a tight budget",
        "an office worker who unwinds at the cinema",
        "a retiree with plenty of free afternoons",
    ),
)

EIGHT_SEATS = Bank(
    requests=(
        "If one order can't hold us all, could you book just {count} seats, {seats}, for {show} on my "
        "{payment}?",
        "Then please make it {count} seats, {seats}, for {show}, paid with my {payment}.",
        "In that case, {count} seats ({seats}) for {show} on my {payment} will do; the others will come "
        "another day.",
        "Alright, could you book {seats} for {show} then, {count} seats on my {payment}?",
        "If that's over the limit, I'll take {count} seats, {seats}, for {show} with my {payment}.",
        "Then let's book the {count} seats {seats} for {show} on my {payment} instead.",
        "Could you do one order of {count} seats, {seats}, for {show} then? My {payment} pays.",
        "Fine, {count} seats ({seats}) for {show} on my {payment} works if the bigger order can't go.",
    ),
    wants=("you would take one order of {count} seats ({seats}) for {show} on your {payment}",),
    reasons={"": ("",)},
    preferences=(
        "if one order can't hold the whole group, I'd settle for {count} seats, {seats}, on my {payment}",
        "should the big order be refused, {count} seats ({seats}) on my {payment} work for me; the rest "
        "will come another day",
        "if that's more seats than allowed, I'll take {count} of them, {seats}, paid with my {payment}",
        "failing that, {count} seats, {seats}, on my {payment} is my second choice",
        "if the rules say no, one order of {count} seats ({seats}) on my {payment} is fine",
        "when the full group is ruled out, {count} seats, {seats}, on my {payment} suit me",
        "if it has to be fewer, I'd have {count} seats, {seats}, charged to my {payment}",
        "if my first order is refused, {count} seats ({seats}) are what I'd book on my {payment}",
    ),
)

TOO_MANY_SEATS = Bank(
    requests=(
        "I need {count} seats together ({seats}) for {show} in one order, paid with my {payment}.",
        "Could you book all {count} seats {seats} for {show} as a single order on my {payment}?",
        "Please put {count} seats, {seats}, for {show} in one order; my {payment} pays.",
        "I'd like {count} seats ({seats}) for {show}, all in the same order, with my {payment}.",
        "Is it possible to get {count} seats, {seats}, for {show} in a single booking on my {payment}?",
        "I'm calling to book {count} seats together for {show}: {seats}, one order, my {payment}.",
        "What I need is one order of {count} seats, {seats}, for {show}, paid with my {payment}.",
        "Can we book seats {seats} for {show}, all {count} of them in one go, on my {payment}?",
    ),
    wants=(
        "you want all {count} seats {seats} for {show} in a single order, paid with your {payment}",
        "you need {count} seats together ({seats}) for {show} on one order, charged to your {payment}",
        "booking {count} seats, {seats}, for {show} in one order is what you are asking for, with "
        "your {payment}",
        "you would like one order of {count} seats ({seats}) for {show}, paid with your {payment}",
        "you have decided to book {count} seats, {seats}, for {show} at once on your {payment}",
        "you want seats {seats} for {show}, all {count} in a single booking, on your {payment}",
        "getting {count} seats, {seats}, for {show} in one order is the thing to sort out, paying "
        "with your {payment}",
        "you are after a single order of {count} seats ({seats}) for {show}, on your {payment}",
    ),
    reasons={
        "": (
            "I'm organising an outing for a big group",
            "it's a club outing and we want to sit together",
            "we're celebrating a birthday as a group",
            "I'm booking for a whole team so nobody is left out",
            "a big group of us planned this weeks ago",
            "I'd like to keep the booking simple with one order for everyone",
            "it's a group trip and I'm the one handling the tickets",
            "our reading group wants to see the adaptation together",
        )
    },
    preferences=(
        "if that many seats can't go in one order, I'd like to know why",
        "I don't want the group split over several orders",
        "if there's a limit, please tell me what it is",
        "if it can't be done as one order, I'll sort it out another way myself",
        "I'd rather hear the rule plainly than get a workaround",
        "if one order isn't possible, I'll leave the booking for now",
        "please don't book anything until we agree on it",
        "I'd like the seats read back before anything is booked",
    ),
    personas=(
        "a club organiser who arranges outings for members",
        "a team lead planning a treat for colleagues",
        "a teacher planning a trip with other adults",
    ),
)

SHOWTIME_QUESTION = Bank(
    requests=(
        "When does the last showing of {film} start at {theatre} on {day}, and in which format?",
        "Could you tell me the start time and format of the last {film} showing at {theatre} on {day}?",
        "I need the time of the final showing of {film} at {theatre} on {day}, and its format.",
        "Please check when the last {film} show at {theatre} starts on {day} and what format it is.",
        "I'd like to know the latest showing of {film} at {theatre} on {day}: time and format.",
        "Is it possible to find out when the last {film} screening at {theatre} on {day} begins?",
        "I'm calling about {film} at {theatre} on {day}: when is the last show, and which format?",
        "What time is the last showing of {film} at {theatre} on {day}, and is it 3D or IMAX?",
    ),
    wants=(
        "you want to know when the last showing of {film} at {theatre} on {day} starts and its format",
        "you need the start time and format of the last {film} showing at {theatre} on {day}",
        "finding out when the final {film} show at {theatre} on {day} begins, and its format, is "
        "what you are hoping for",
        "you would like the time and format of the latest {film} screening at {theatre} on {day}",
        "you are asking when the last {film} show at {theatre} on {day} starts and in which format",
        "you want the last showing of {film} at {theatre} on {day}: its time and its format",
        "the start time and format of the last {film} show at {theatre} on {day} are what you need",
        "you are after the latest start time of {film} at {theatre} on {day}, and its format",
    ),
    reasons={
        "": (
            "I can only get there late that day",
            "I want to know how late I can go",
            "I'm trying to fit it in after other plans",
            "I'm planning my day around it",
            "I'd like to go as late as possible",
            "I have something on earlier that day",
            "I want to see whether a late show works for me",
            "I'm comparing times before I decide",
        )
    },
    preferences=(
        "I don't want to buy anything for it yet",
        "I'm only asking; please don't book anything",
        "I'd like just the time and the format, nothing else",
        "please don't reserve seats for me",
        "I'll decide about tickets later",
        "I only need the information for now",
        "please read the start time back clearly",
        "no booking today, just the details",
    ),
    personas=(
        "a night-shift nurse who catches late shows on days off",
        "a busy lawyer with long working days",
        "a student who studies until late",
    ),
)

# ---------------------------------------------------------------------------------------- exchanges

EXCHANGE_REASONS = {
    "later_day": (
        "something came up on {old_day}",
        "I can't make it on {old_day} any more",
        "{old_day} is no longer free for me",
        "I've got a clash on {old_day} that I can't move",
        "I need a little more time before I can go",
        "a later day fits my plans better",
        "my plans for {old_day} have changed",
        "I'd rather go later, when things are calmer for me",
    ),
    "earlier_day": (
        "something came up on {old_day}",
        "I can't make it on {old_day} any more",
        "I'd rather see it sooner",
        "I don't want to wait that long to see it",
        "I'm free earlier than I thought",
        "I'll be away on {old_day}",
        "I have plans on {old_day} now",
        "an earlier day fits my plans better",
    ),
    "later_same_day": (
        "I can't get there in time for the {old_time} show",
        "my day runs later than I expected",
        "the {old_time} show is too early for me",
        "I'll still be busy at {old_time}",
        "a later start gives me time to get there",
        "I have something on until after {old_time}",
        "I'd rather go in the evening than at {old_time}",
        "I won't make it across town by {old_time}",
    ),
    "earlier_same_day": (
        "the {old_time} show ends too late for me",
        "I'd rather not be out so late",
        "I need to be home early that night",
        "I have an early start the next morning",
        "an earlier show fits my day better",
        "I have plans later that evening",
        "the {old_time} start is later than I'd like",
        "I'd like to be done before it gets late",
    ),
}
EXCHANGE_REASONS[""] = EXCHANGE_REASONS["later_day"]

EXCHANGE_REQUESTS = (
    "Could you move {mine} to {new}, {seat_list}?",
    "I need {mine} exchanged for {new}, {seat_list}.",
    "Please switch {mine} to {new}, with {seat_list}.",
    "I'd like to exchange {mine} for {new}, {seat_list}.",
    "Is it possible to move {mine} to {new}? I'd like {seat_list}.",
    "I'm calling to exchange {mine}: I want {new}, {seat_list}.",
    "What I want is {mine} moved to {new}, in {seat_list}.",
    "Can we change {mine} to {new}, {seat_list}?",
)
EXCHANGE_WANTS = (
    "you want {yours} moved to {new}, {seat_list}",
    "you need {yours} exchanged for {new}, in {seat_list}",
    "moving {yours} to {new}, {seat_list}, is the main point",
    "you would like {yours} switched to {new}, with {seat_list}",
    "you have decided to exchange {yours} for {new}, {seat_list}",
    "you want {new} instead of what you booked, {yours}, in {seat_list}",
    "changing {yours} to {new}, {seat_list}, is what you called about",
    "you are asking for {yours} to become {new}, {seat_list}",
)

EXCHANGE_SHOW = Bank(
    requests=EXCHANGE_REQUESTS,
    wants=EXCHANGE_WANTS,
    reasons=EXCHANGE_REASONS,
    preferences=(
        "I'd like the new show and seats read back before anything changes",
        "please tell me if there's anything to pay before I agree",
        "I want to keep the same number of seats",
        "I'd like to know the new order details once it's done",
        "please check those seats are still open first",
        "I'd like to hear what happens to my old seats",
        "please confirm the day and time twice; I can't afford a mix-up",
        "I'd rather sort it out in this call",
    ),
    personas=(
        "a nurse whose rota changes week to week",
        "a film fan who books well ahead",
        "a freelancer with a shifting schedule",
    ),
)

EXCHANGE_OTHER_FILM = Bank(
    requests=EXCHANGE_REQUESTS,
    wants=EXCHANGE_WANTS,
    reasons={
        "": (
            "I've changed my mind about which film to see",
            "I'd rather see {new_film} after reading about it",
            "I've already seen {old_film} elsewhere",
            "{new_film} sounds more like my kind of film",
            "I picked {old_film} without really reading about it",
            "I heard {new_film} is the better of the two",
            "I'm in the mood for {new_film} instead",
            "a friend talked me into {new_film}",
        )
    },
    preferences=(
        "if it can't be switched to another film, I'd like to know why",
        "if that's not allowed, I'll keep my current tickets for now",
        "I don't want anything refunded or bought without asking me first",
        "if the rules don't allow it, please just explain them",
        "I'd rather think it over than agree to something else today",
        "if it can't be done as a swap, I'll leave my booking as it is",
        "please don't change anything until we agree",
        "I'd like the rule explained plainly",
    ),
    personas=(
        "a film fan who reads every review",
        "a college student on a tight budget",
        "a teacher who goes to the cinema on weekends",
    ),
)

BANKS: dict[str, Bank] = {
    "buy_tickets": BUY,
    "exchange_show": EXCHANGE_SHOW,
    "refund_tickets": REFUND_TICKETS,
    "change_tier": CHANGE_TIER,
    "cancel_membership": CANCEL_MEMBERSHIP,
    "showtime_question": SHOWTIME_QUESTION,
    "too_many_seats": TOO_MANY_SEATS,
    "eight_seats": EIGHT_SEATS,
    "exchange_other_film": EXCHANGE_OTHER_FILM,
    "refund_too_late": REFUND_TOO_LATE,
    "change_tier_too_soon": CHANGE_TIER_TOO_SOON,
    "cancel_in_minimum_term": CANCEL_IN_MINIMUM_TERM,
}
