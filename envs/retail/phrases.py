"""How retail customers put their intents into words (docs/tracer.md, "Phrase banks"): one `Bank` per
intent of tracer.py. This file holds cancelling, rerouting and changing items; phrases_more.py holds
payments, returns, the default address and tracking, and `BANKS` merges both.

Reason keys: a cancellation's keys are the `reason` argument of `cancel_pending_order`; a swap's or an
exchange's keys are the kind of option that changes (`OPTION_KINDS`)."""

from __future__ import annotations

from taue.envs.retail.phrases_more import (
    CHANGE_PAYMENT,
    REFUND_TO_ORIGINAL,
    REFUND_TO_OTHER_CARD,
    RETURN,
    TRACKING,
    UPDATE_ADDRESS,
)
from taue.envs.runtime.authoring import Bank

OPTION_KINDS = {
    "size": (
        "size", "waist", "length", "diameter", "blade length", "bowl size", "capacity", "height",
        "head size", "grip", "width", "pieces", "slots", "ports", "compartments", "weight",
    ),
    "look": (
        "color", "pattern", "finish", "glaze", "frame", "wash", "shape", "style", "buckle", "fit",
        "sleeve", "zipper", "knit",
    ),
    "material": ("material", "fabric", "fill", "steel", "shaft", "band", "jar", "nib"),
}  # fmt: skip
"""Which reasons fit the option that changes; any other option (a feature) uses the key "feature"."""


def option_kind(option: str) -> str:
    return next((kind for kind, names in OPTION_KINDS.items() if option in names), "feature")


# ------------------------------------------------------------------------------------------ cancelling

CANCEL_REQUESTS = (
    "Could you cancel {order}?",
    "I need {order} cancelled, please.",
    "Please call off {order} for me.",
    "I'd like to cancel {order}.",
    "Is it possible to cancel {order}?",
    "I'm calling to cancel an order: {order}.",
    "What I want is to have {order} cancelled.",
    "Can we cancel {order}? I don't want it to go ahead.",
    "There's an order I have to cancel, {order}.",
)
CANCEL_WANTS = (
    "you want {order} cancelled",
    "you have decided to call off {order}",
    "cancelling {order} is what you are hoping for",
    "you mean to have {order} cancelled",
    "you need the agent to cancel {order}",
    "you are asking for {order} to be cancelled",
    "you want to stop {order} from going ahead",
    "getting {order} cancelled is the point of your call",
)
CANCEL_REASONS = {
    "ordered by mistake": (
        "I ordered it by mistake",
        "I placed that order by accident",
        "I pressed the order button by mistake while I was still comparing products",
        "it was a mistake; I only meant to leave those things in my cart",
        "I hit the buy button without meaning to",
        "the order went through by mistake while I was still browsing",
        "that order was placed by mistake and I never meant to buy those things",
        "I ordered it by mistake from my phone",
        "it was an accidental order on my part",
    ),
    "no longer needed": (
        "I no longer need it",
        "I don't need what I ordered any more",
        "my plans changed and I won't need it",
        "I already got the same things locally, so it's no longer needed",
        "the project I bought it for has been called off",
        "it turns out I won't use it after all",
        "I've sorted the problem out another way and have no use for it now",
        "the occasion it was for is not happening any more",
        "I've changed my mind and it's simply not needed now",
    ),
}
CANCEL_REASONS[""] = CANCEL_REASONS["no longer needed"]
CANCEL_PERSONAS = (
    "a student who shops on a phone late at night",
    "an office manager who orders supplies for a small team",
    "a retired engineer who reviews every purchase",
    "a freelancer who keeps a close eye on spending",
)

CANCEL = Bank(
    requests=CANCEL_REQUESTS,
    wants=CANCEL_WANTS,
    reasons=CANCEL_REASONS,
    preferences=(
        "I'd like the order read back to me before it is cancelled",
        "please confirm which order it is before doing anything",
        "I'd like to hear where the money goes back to",
        "I want a clear confirmation once it's cancelled",
        "I'd like to know how long the refund takes to show up",
        "I'd appreciate it being done during this call",
        "I'd like the items listed so I'm sure it's the right order",
        "please tell me the order number once you've found it",
        "I'd rather you check the order's status before cancelling",
    ),
    personas=CANCEL_PERSONAS,
)

CANCEL_SHIPPED = Bank(
    requests=CANCEL_REQUESTS,
    wants=CANCEL_WANTS,
    reasons=CANCEL_REASONS,
    preferences=(
        "if it really can't be cancelled, I'd like to know why",
        "if it's too late to cancel, I'll accept that",
        "if cancelling isn't possible, I want a plain explanation",
        "if the store can't stop it, I'll leave it as it is for now",
        "I'd like to hear the order's status before anything else",
        "if you can't cancel it, please just say so",
        "I don't want to be transferred; just tell me what is possible",
        "if it has already left, I'd like to know what my options are later on",
        "I'd rather hear the truth than be told it will all work out",
    ),
    personas=CANCEL_PERSONAS,
)

# ------------------------------------------------------------------------------------------ rerouting

REROUTE_REQUESTS = (
    "Could you ship {order} to {address} instead?",
    "I need {order} sent to {address}, please.",
    "Please change the shipping address of {order} to {address}.",
    "I'd like {order} to go to {address} rather than the address on it.",
    "Is it possible to redirect {order} to {address}?",
    "I'm calling to change where {order} is delivered: it should go to {address}.",
    "What I need is for {order} to be delivered to {address}.",
    "Can we update the delivery address on {order}? The new one is {address}.",
)
REROUTE_WANTS = (
    "you want {order} shipped to {address} instead of the address on the order",
    "you need {order} redirected to {address}",
    "having {order} delivered to {address} is the plan",
    "you would like the shipping address of {order} changed to {address}",
    "you want {order} to arrive at {address}",
    "you have to get {order} sent to {address} rather than the address it has now",
    "you are asking for {order} to go to {address}",
    "you want the delivery of {order} moved to {address}",
)
REROUTE_REASONS = {
    "": (
        "I won't be at the old address when it arrives",
        "I'm staying in {city} for the next few weeks",
        "nobody will be around to receive it at the address on the order",
        "I'd rather have it delivered where I'm spending my days now",
        "parcels left at my usual address aren't safe",
        "I'm spending the coming weeks in {city}",
        "the address on the order is an old one I forgot to update",
        "I'll be looking after a place in {city} for a while",
        "it's easier for me to pick it up in {city}",
    )
}
REROUTE_PERSONAS = (
    "a consultant who works in a different city every month",
    "a remote worker who travels a lot",
    "a graduate student between apartments",
    "a nurse on a temporary assignment away from home",
)

REROUTE = Bank(
    requests=REROUTE_REQUESTS,
    wants=REROUTE_WANTS,
    reasons=REROUTE_REASONS,
    preferences=(
        "I'd like the whole new address read back before you change it",
        "please confirm which order it is before changing anything",
        "I'd like a confirmation once the address is changed",
        "please spell the street name back to me",
        "I'd like it done now rather than by email",
        "please check the zip code twice",
        "I'd appreciate going through the address slowly",
        "I want to be sure the city and state are right",
    ),
    personas=REROUTE_PERSONAS,
)

REROUTE_SHIPPED = Bank(
    requests=REROUTE_REQUESTS,
    wants=REROUTE_WANTS,
    reasons=REROUTE_REASONS,
    preferences=(
        "if the address can't be changed any more, I'd like to know why",
        "if it's already on its way, I'll make my own arrangements",
        "if nothing can be done, just tell me plainly",
        "I'd like to know the order's status first",
        "if you can't change it, I'll watch for the delivery at the old address",
        "if it's too late, I don't want it cancelled instead, just explained",
        "I'd rather hear the truth than be told it will be fine",
        "if it can't be done, I'll accept that",
    ),
    personas=REROUTE_PERSONAS,
)

# ------------------------------------------------------------------ swapping (pending) and exchanging

SWAP_REASONS = {
    "size": (
        "I checked again and the {option} I picked is not the right one",
        "I picked the wrong {option} when I ordered",
        "I measured after ordering and {new} is the {option} I need",
        "I realised {old} would be the wrong {option} for me",
        "a second look at the product details showed me {new} is the better {option}",
        "I mixed up the {option} when I placed the order",
        "after thinking about where it will be used, {new} fits better",
        "the {old} {option} won't suit what I have in mind",
    ),
    "look": (
        "I'd prefer the {new} {option}; it goes better with what I have",
        "I changed my mind about the {option} and want {new}",
        "the {old} {option} won't match the rest of my things",
        "I had a second look and like {new} better",
        "I think {new} will look better",
        "I picked {old} in a hurry and really wanted {new}",
        "I saw the {new} one elsewhere and liked it more",
        "the {old} {option} would clash with my other things",
    ),
    "material": (
        "I'd rather have {new} than {old}",
        "I read more about it and {new} suits me better",
        "I expect {new} to be easier for me to look after",
        "I've changed my mind about the {option}; {new} is what I want",
        "I picked {old} without thinking and prefer {new}",
        "I've had better luck with {new} in the past",
        "I'd like to avoid {old} for this one",
        "a friend recommended {new} for this",
    ),
    "feature": (
        "I need a different {option} for the way I'll use it",
        "I realised the {option} I chose doesn't fit my needs",
        "the {option} I picked won't work with my setup",
        "I mixed up the options when ordering and the {option} is wrong",
        "I checked what I already have, and the {option} needs to change",
        "I chose the {option} in a hurry and got it wrong",
        "I changed my mind about the {option}",
        "after reading the product details again, I'd rather have {option} {new}",
    ),
}
SWAP_REASONS[""] = SWAP_REASONS["feature"]

EXCHANGE_REASONS = {
    "size": (
        "it arrived and the {option} is wrong for me",
        "now that I have it, {old} turns out to be the wrong {option}",
        "I tried it and the {option} doesn't work for me",
        "the {old} {option} doesn't suit me in practice",
        "once it arrived I saw that I need {new}, not {old}",
        "I measured when it came and {new} is what I need",
        "the {option} I ordered was a mistake on my part",
        "it's usable but the {option} is off for me",
    ),
    "look": (
        "the {old} looks different in person than on the screen",
        "now that I've seen it, I'd prefer {new}",
        "the {old} {option} doesn't go with my other things",
        "I don't like the {old} {option} as much as I thought I would",
        "it looks fine, but {new} will suit me better",
        "I'd rather have the {new} one now that I've seen it in real life",
        "the {old} {option} isn't what I had in mind",
        "I changed my mind about the {option} after unpacking it",
    ),
    "material": (
        "the {old} {option} feels different from what I expected",
        "after using it, I'd rather have {new}",
        "I don't get on with the {old} {option}",
        "now that I have it, {new} seems the better {option} for me",
        "I tried it and {old} isn't for me",
        "the {old} {option} isn't what I hoped for",
        "I've had it a few days and prefer the idea of {new}",
        "the {old} {option} bothers me in daily use",
    ),
    "feature": (
        "after trying it, I need a different {option}",
        "the {option} it came with doesn't work for how I use it",
        "once I set it up I saw the {option} is wrong for me",
        "it works, but the {option} isn't what I need",
        "I tried it out and the {option} is the one thing I'd change",
        "the {option} turns out to matter more than I thought",
        "using it showed me I picked the wrong {option}",
        "I checked it against what I have, and the {option} has to change",
    ),
}
EXCHANGE_REASONS[""] = EXCHANGE_REASONS["feature"]

VARIANT_PREFERENCES = (
    "I'd like the new item's details read back before anything is changed",
    "I want to know the price difference before I agree",
    "please make sure the new one is actually available",
    "nothing else about the item should change",
    "I'd like to hear which payment method is used before confirming",
    "please tell me whether there's any difference to pay or to get back",
    "I'd like one clear summary at the end of what changed",
    "I'd rather sort it all out in this call",
)

SWAP = Bank(
    requests=(
        "Could you change the {name} in my order to {change}?",
        "I need the {item} on {order} switched to {change}.",
        "Please swap the {name} I ordered for {change}, and use my {payment} for any difference.",
        "I'd like to change the {name} in {order}: I want {change}.",
        "Is it possible to switch my {name} to {change} before it ships?",
        "I'm calling to change an item in an order that hasn't shipped: the {item} should be {change}.",
        "What I'd like is {change} in place of the {item} I ordered.",
        "Can we swap the {name} for {change}? Any difference can go on my {payment}.",
    ),
    wants=(
        "you want to swap the {item} in {order} for {change}, settling any price difference with your "
        "{payment}",
        "you need the {item} in {order} changed to {change} before it ships, with any difference on your "
        "{payment}",
        "switching the {item} in {order} to {change} is what you are ringing about, your {payment} "
        "covering any difference",
        "you would like to trade the {item} you ordered in {order} for {change}, any difference settled "
        "with your {payment}",
        "you have decided the {item} in {order} should become {change}, and any price difference goes "
        "on your {payment}",
        "you want the {item} in {order} replaced with {change}, with your {payment} for any difference",
        "changing the {item} in {order} to {change} is what you are looking for, settling any difference "
        "with your {payment}",
        "you are after {change} in place of the {item} in {order}; your {payment} settles any difference",
    ),
    reasons=SWAP_REASONS,
    preferences=VARIANT_PREFERENCES,
    personas=(
        "a home cook upgrading the kitchen bit by bit",
        "a first-time online shopper who double-checks everything",
        "a teacher who orders things during the school break",
    ),
)

EXCHANGE = Bank(
    requests=(
        "Could you exchange the {name} I received for {change}?",
        "I need to exchange the {item} from {order} for {change}.",
        "Please swap the {name} I got for {change}, and use my {payment} for any difference.",
        "I'd like to exchange my {item} for {change}.",
        "Is it possible to exchange the {name} I received for {change}?",
        "I'm calling to exchange an item that was delivered: the {item} for {change}.",
        "What I want is {change} in exchange for the {item} I received.",
        "Can we exchange the {name} for {change}? Any difference can go on my {payment}.",
    ),
    wants=(
        "you want to exchange the {item} in {order} for {change}, settling any price difference with "
        "your {payment}",
        "you need the {item} you received in {order} exchanged for {change}, with any difference on "
        "your {payment}",
        "exchanging the {item} from {order} for {change} is the task for today, your {payment} "
        "covering any "
        "difference",
        "you would like {change} in exchange for the {item} from {order}, any difference settled with "
        "your {payment}",
        "you have decided to exchange the {item} from {order} for {change}, and any price difference "
        "goes on your {payment}",
        "you want to send back the {item} from {order} and get {change}, with your {payment} for any "
        "difference",
        "getting {change} for the {item} from {order} is your hope, settling any "
        "difference with your "
        "{payment}",
        "you are after an exchange of the {item} in {order} for {change}; your {payment} settles any "
        "difference",
    ),
    reasons=EXCHANGE_REASONS,
    preferences=(
        *VARIANT_PREFERENCES[:7],
        "I'd like to know what happens next with the item I send back",
    ),
    personas=(
        "a runner who tries every piece of gear before keeping it",
        "a designer with a sharp eye for detail",
        "a parent who shops online to save time",
    ),
)

BANKS: dict[str, Bank] = {
    "cancel_order": CANCEL,
    "reroute_order": REROUTE,
    "swap_item": SWAP,
    "change_payment": CHANGE_PAYMENT,
    "return_items": RETURN,
    "exchange_item": EXCHANGE,
    "update_default_address": UPDATE_ADDRESS,
    "tracking_number": TRACKING,
    "cancel_shipped_order": CANCEL_SHIPPED,
    "reroute_shipped_order": REROUTE_SHIPPED,
    "refund_to_other_card": REFUND_TO_OTHER_CARD,
    "refund_to_original": REFUND_TO_ORIGINAL,
}
