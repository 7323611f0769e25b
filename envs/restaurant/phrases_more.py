"""Restaurant phrase banks for takeaway and delivery orders, loyalty points and allergen questions
(merged into phrases.BANKS). Slots: `{order}` an order ("the delivery order from Midtown due today
at 19:30"), `{points}` the points to use, `{allergen}` the allergen asked about. No text names a
refund, a points value in dollars or a balance."""

from __future__ import annotations

from taue.envs.runtime.authoring import Bank

ORDERERS = (
    "a guest who orders dinner online most weeks",
    "an office worker who orders food after long days",
    "a regular takeaway customer",
)

# ------------------------------------------------------------------------------------- cancelling

CANCEL_REQUESTS = (
    "Please cancel {order}.",
    "I need to cancel {order}.",
    "Could you cancel {order}, please?",
    "I'm calling to cancel {order}.",
    "I'd like {order} cancelled.",
    "Is it possible to cancel {order}?",
    "What I need is to cancel {order}.",
    "Can we cancel {order}?",
)
CANCEL_WANTS = (
    "you want {order} cancelled",
    "you need to cancel {order}",
    "you have decided to call off {order}",
    "you would like {order} cancelled",
    "cancelling {order} is what you need",
    "you are calling to cancel {order}",
    "you no longer want {order} and want it cancelled",
    "you want to stop {order}",
)
CANCEL_REASONS = {
    "": (
        "I ordered the wrong things",
        "my plans for the evening changed",
        "a friend is cooking instead",
        "I placed it by mistake",
        "I ordered from the wrong location",
        "I've changed my mind about what I want to eat",
        "I ended up eating out instead",
        "I realised I already have dinner at home",
    ),
    "delivery": (
        "I won't be home in time for the delivery",
        "I'll be out when it arrives",
        "nobody will be at the address to take it",
        "I got called out and won't be home",
        "I have to stay late at work and won't be there to receive it",
        "I'm no longer at home this evening",
        "the delivery time doesn't work for me any more",
        "I'd be out when the driver comes",
    ),
    "takeaway": (
        "I can't get to the restaurant to collect it",
        "I won't make it there for pickup",
        "I'm stuck across town and can't pick it up",
        "my car is out of action so I can't collect it",
        "I won't be passing that location after all",
        "the pickup time no longer works for me",
        "I have to stay late at work and can't collect it",
        "nobody can go and fetch it for me",
    ),
}

CANCEL_TAKEAWAY = Bank(
    requests=CANCEL_REQUESTS,
    wants=CANCEL_WANTS,
    reasons=CANCEL_REASONS,
    preferences=(
        "the refund should go back to the card I paid with",
        "I'd like to hear what happens to my payment before it's cancelled",
        "please cancel the whole order, not part of it",
        "I'd like a confirmation once it's cancelled",
        "I don't want a replacement order, only the cancellation",
        "please read the order back to me before cancelling",
        "I want to say yes before anything is done",
        "please make sure it's the right order before you cancel",
    ),
    personas=ORDERERS,
)

CANCEL_STARTED_ORDER = Bank(
    requests=CANCEL_REQUESTS,
    wants=CANCEL_WANTS,
    reasons=CANCEL_REASONS,
    preferences=(
        "if it's too late to cancel, I'll keep the order",
        "if the kitchen has started, I'd like to know that clearly",
        "I only want it cancelled if the rules allow it",
        "please don't change anything else on the order",
        "I'd like a straight answer either way",
        "if it can't be stopped, I'll make arrangements for it",
        "if it's a no, please just say so",
        "I'm not asking for anything else, only the cancellation",
    ),
    personas=ORDERERS,
)

# ------------------------------------------------------------------------------------------- points

POINTS_REQUESTS = (
    "Please use {points} of my loyalty points to pay part of {order}.",
    "I'd like to put {points} loyalty points towards {order}.",
    "Could you apply {points} of my points to {order}?",
    "I'm calling to redeem {points} points on {order}.",
    "Is it possible to use {points} points on {order}?",
    "What I want is {points} of my points used on {order}.",
    "Can we take {points} points off my balance for {order}?",
    "I need {points} loyalty points applied to {order}.",
)
POINTS_WANTS = (
    "you want {points} of your loyalty points used on {order}",
    "you would like to redeem {points} points against {order}",
    "you hope to put {points} of your points towards {order}",
    "applying {points} loyalty points to {order} is what you want",
    "you need {points} of your points applied to {order}",
    "you have decided to spend {points} points on {order}",
    "you are calling to use {points} points on {order}",
    "you want {order} partly paid with {points} of your points",
)
POINTS_REASONS = {
    "": (
        "I've been collecting points and want to use some",
        "I'd like to bring the cost of this meal down a bit",
        "the points are just sitting there otherwise",
        "a friend told me points can go towards an order",
        "I'd rather use points than let them pile up",
        "it's a good moment to use some of what I've earned",
        "I'm watching my spending this month",
        "I like making use of the loyalty programme",
    ),
}

USE_POINTS = Bank(
    requests=POINTS_REQUESTS,
    wants=POINTS_WANTS,
    reasons=POINTS_REASONS,
    preferences=(
        "I'd like to hear what the points take off before you apply them",
        "please use exactly {points} points, no more",
        "the rest of my points should stay on my balance",
        "I'd like the redemption read back to me first",
        "please tell me my remaining balance afterwards",
        "I don't want anything else on the order changed",
        "I want to say yes before the points are used",
        "please confirm it's the right order before redeeming",
    ),
    personas=ORDERERS,
)

OVER_REDEEM = Bank(
    requests=POINTS_REQUESTS,
    wants=POINTS_WANTS,
    reasons=POINTS_REASONS,
    preferences=(
        "if I don't have that many points, I'd like to know",
        "if it can't be done, I'll pay the order as it is",
        "I only want the points used if the rules allow it",
        "please don't change anything else on the order",
        "I'd like a clear answer either way",
        "if it's a no, please just tell me why",
        "I'd rather not use a different number of points for now",
        "please don't touch my balance unless it works as I asked",
    ),
    personas=ORDERERS,
)

FEWER_POINTS = Bank(
    requests=(
        "If I don't have that many, could you use {points} points on {order} instead?",
        "Then please redeem {points} points on {order}.",
        "In that case, {points} points on {order} will do.",
        "Alright, could you put {points} points towards {order} then?",
        "If that's more than I have, I'll use {points} points on {order}.",
        "Then let's redeem {points} points on {order} instead.",
        "Could you apply {points} points to {order} then? That's my second choice.",
        "Fine, {points} points on {order} works if the bigger number can't go.",
    ),
    wants=("you would take {points} points redeemed on {order}",),
    reasons={"": ("",)},
    preferences=(
        "if I don't have that many points, I'd settle for {points} points on the order",
        "should that number be refused, {points} points work for me",
        "if it's more than my balance, I'll use {points} points instead",
        "failing that, {points} points on the order are my second choice",
        "if the rules say no, redeeming {points} points is fine",
        "when the full number is ruled out, {points} points suit me",
        "if it has to be fewer, I'd have {points} points taken off",
        "if my first number is refused, {points} points are what I'd redeem",
    ),
)

# ---------------------------------------------------------------------------------------- allergens

ALLERGEN = Bank(
    requests=(
        "Which dishes in {order} contain {allergen}?",
        "Could you tell me which dishes in {order} have {allergen} in them?",
        "I need to know which items in {order} contain {allergen}.",
        "I'm calling to check {order} for {allergen}: which dishes contain it?",
        "Is there {allergen} in any of the dishes in {order}? Which ones?",
        "What I'd like to know is which dishes in {order} contain {allergen}.",
        "Can you check which dishes in {order} list {allergen}?",
        "Please tell me which dishes in {order} contain {allergen}.",
    ),
    wants=(
        "you want to know which dishes in {order} contain {allergen}",
        "you need to find out which items in {order} have {allergen} in them",
        "checking {order} for {allergen} is what you ask for",
        "you would like to hear which dishes in {order} list {allergen}",
        "you are asking which dishes in {order} contain {allergen}",
        "you hope to learn which items in {order} contain {allergen}",
        "you need the dishes in {order} that contain {allergen}",
        "finding the dishes with {allergen} in {order} is your request",
    ),
    reasons={
        "": (
            "I have a {allergen} allergy",
            "{allergen} makes me ill and I have to be careful",
            "I react badly to {allergen}",
            "my doctor told me to avoid {allergen}",
            "I'm sharing the food with someone who can't have {allergen}",
            "I need to keep {allergen} off my plate",
            "I have to check everything for {allergen}",
            "someone eating with me is allergic to {allergen}",
        ),
        "own": (
            "I have a {allergen} allergy",
            "{allergen} makes me ill and I have to be careful",
            "I react badly to {allergen}",
            "my doctor told me to avoid {allergen}",
            "I always have to check for {allergen}",
            "I need to keep {allergen} off my plate",
            "even a little {allergen} is a problem for me",
            "my allergy to {allergen} is serious",
        ),
        "other": (
            "I'm sharing the food with someone who can't have {allergen}",
            "someone eating with me is allergic to {allergen}",
            "a guest I'm feeding reacts to {allergen}",
            "a person I'm serving the food to must avoid {allergen}",
            "I'm ordering for someone with a {allergen} allergy",
            "one of the people eating has a {allergen} allergy",
            "the friend I'm sharing with can't have {allergen}",
            "I promised to check for {allergen} for someone joining me",
        ),
    },
    preferences=(
        "I only want the answer from what the order lists",
        "please don't change or cancel anything",
        "I'd like the dish names read out clearly",
        "if you're not sure, please say so rather than guess",
        "I'm only asking about this one order",
        "please don't tell me something is safe unless the list says so",
        "a list of the dishes is all I need",
        "I'll decide what to do once I know",
    ),
    personas=(
        "a careful eater who checks every order",
        "a guest who reads every label twice",
        "someone who shares meals with people who have allergies",
    ),
)

MORE: dict[str, Bank] = {
    "cancel_takeaway": CANCEL_TAKEAWAY,
    "cancel_started_order": CANCEL_STARTED_ORDER,
    "use_points": USE_POINTS,
    "over_redeem": OVER_REDEEM,
    "fewer_points": FEWER_POINTS,
    "allergen_question": ALLERGEN,
}
