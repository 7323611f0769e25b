"""Retail phrase banks, continued (phrases.py): paying another way, returns, the default address and
tracking; phrases.py merges them into `BANKS`.

Reason keys: a payment change's keys are the new method's source; a return's are "one" or "several"
items; tracking's are the order's status."""

from __future__ import annotations

from taue.envs.runtime.authoring import Bank

# -------------------------------------------------------------------------------------- paying again

CHANGE_PAYMENT = Bank(
    requests=(
        "Could you charge {order} to my {payment} instead?",
        "I need to change how {order} is paid: please use my {payment}.",
        "Please move the payment for {order} to my {payment}.",
        "I'd like {order} paid with my {payment} rather than what's on it now.",
        "Is it possible to switch the payment of {order} to my {payment}?",
        "I'm calling to pay for {order} with my {payment} instead.",
        "What I want is for {order} to be charged to my {payment}.",
        "Can we put {order} on my {payment} instead?",
    ),
    wants=(
        "you want {order} paid with your {payment} instead",
        "you need the payment of {order} moved to your {payment}",
        "switching {order} to your {payment} is what you are asking for",
        "you would like {order} charged to your {payment} rather than the current method",
        "you have decided {order} should be paid with your {payment}",
        "you want your {payment} to pay for {order}",
        "you are asking for {order} to go on your {payment}",
        "changing the payment of {order} to your {payment} is the thing to sort out",
    ),
    reasons={
        "gift_card": (
            "I have a gift card balance I'd like to use",
            "the gift card is sitting there unused and this order is a good use for it",
            "I want to use the gift card before I forget about it",
            "I'd like to keep my own accounts out of this purchase",
            "using the gift card keeps this purchase off my monthly budget",
            "I just remembered I have credit on my gift card",
            "I prefer to pay for things like this with store credit",
            "I chose the wrong payment method at checkout",
        ),
        "credit_card": (
            "I'd rather this purchase go on that card",
            "I keep purchases like this on one card for my records",
            "that card gives me better rewards",
            "I want to keep this charge separate from my other spending",
            "it's easier for my budgeting to have it on that card",
            "I chose the wrong payment method at checkout",
            "I'd like to save the other method for something else",
            "that card is the one I use for things for the home",
        ),
        "paypal": (
            "I'd rather have it go through my PayPal",
            "I keep my online purchases in PayPal",
            "I chose the wrong payment method at checkout",
            "it's easier to keep track of this purchase in PayPal",
            "I want this charge kept off my cards",
            "I prefer paying for online orders through PayPal",
            "my PayPal is where I track my shopping",
            "I'd like to save my cards for other things",
        ),
        "": (
            "I chose the wrong payment method at checkout",
            "I'd rather this purchase went on another method",
            "I want to keep this charge apart from my other spending",
            "it's easier for my records to pay it another way",
            "I'd like to save the current method for something else",
            "the other method suits this purchase better",
            "I changed my mind about how to pay",
            "I prefer to pay for orders like this differently",
        ),
    },
    preferences=(
        "I'd like to hear where the money from the old method goes",
        "please confirm the order before changing the payment",
        "I'd like to know when the old payment is returned",
        "please read back the payment method you'll use",
        "I'd like a confirmation when the switch is done",
        "I'd rather not split the payment; all of it should go on the new method",
        "the new method should be the only one charged",
        "I want the order itself to stay exactly as it is",
    ),
    personas=(
        "a bookkeeper who tracks every expense",
        "a young professional trying to stick to a budget",
        "a retiree who likes paying the same way each time",
    ),
)

# ------------------------------------------------------------------------------------------- returns

RETURN_REQUESTS = (
    "Could you help me return the {names}? The refund should go to my {refund}.",
    "I need to send back the {names} and have the money put on my {refund}.",
    "Please set up a return for the {names}, refunded to my {refund}.",
    "I'd like to return the {names} from a delivered order, with the refund to my {refund}.",
    "Is it possible to return the {names}? I'd like the refund on my {refund}.",
    "I'm calling to return the {names}; please refund my {refund}.",
    "What I want is to return the {names} and get the refund on my {refund}.",
    "Can we start a return for the {names}? Refund to my {refund}, please.",
)
RETURN_WANTS = (
    "you want to return the {items} from a delivered order, refunded to your {refund}",
    "you need to send back the {items} you received, with the refund on your {refund}",
    "returning the {items} is the main point, the money going to your {refund}",
    "you would like a return of the {items} from a delivered order, refunded to your {refund}",
    "you have decided to send back the {items}, and the refund should go to your {refund}",
    "you want the {items} returned and your {refund} refunded",
    "you are asking to return the {items}, with the refund on your {refund}",
    "getting the {items} returned, refunded to your {refund}, is what you called about",
)
RETURN_REASONS = {
    "one": (
        "it doesn't work the way I hoped",
        "it's not what I expected when I ordered it",
        "it turned out I don't need it after all",
        "it arrived and I changed my mind about it",
        "it doesn't suit me now that I have it",
        "I ended up with a similar one already",
        "the quality is lower than I expected",
        "I've decided to put the money toward something else",
        "it was a gift idea that missed the mark",
    ),
    "several": (
        "they don't work the way I hoped",
        "they're not what I expected",
        "I don't need them after all",
        "I changed my mind about them once they arrived",
        "they don't suit me now that I have them",
        "the quality is lower than I expected",
        "I've decided to put the money toward something else",
        "they were for a plan that fell through",
        "I ordered more than I needed",
    ),
}
RETURN_REASONS[""] = RETURN_REASONS["several"]
RETURN_PERSONAS = (
    "a careful shopper who keeps every receipt",
    "a busy nurse who shops online between shifts",
    "a small-business owner buying supplies for the shop",
    "a retired teacher who takes time over online shopping",
)

RETURN = Bank(
    requests=RETURN_REQUESTS,
    wants=RETURN_WANTS,
    reasons=RETURN_REASONS,
    preferences=(
        "I'd like the items read back before the return is submitted",
        "I'd like to know how the return shipping works",
        "please make sure only the items I named are returned",
        "I'd like to hear where the refund goes before you confirm",
        "I'd like the return instructions sent by email",
        "please confirm the order number you found",
        "I'd like it all done in one go",
        "I'd like to know when the refund should arrive",
    ),
    personas=RETURN_PERSONAS,
)

REFUND_TO_OTHER_CARD = Bank(
    requests=RETURN_REQUESTS,
    wants=RETURN_WANTS,
    reasons=RETURN_REASONS,
    preferences=(
        "if the refund can't go to that card, I'd rather hold off on the return and think it over",
        "if my {refund} isn't allowed, I don't want the return for now",
        "I'd like to know why before I decide anything",
        "if it can't go to my {refund}, I'll call back another time",
        "the refund must go to my {refund}, or I'll hold on to what I bought for now",
        "if that's against the rules, please just explain them",
        "I'm not interested in another refund method today",
        "if it can't be done my way, I'll leave things as they are",
    ),
    personas=RETURN_PERSONAS,
)

REFUND_TO_ORIGINAL = Bank(
    requests=(
        "If it can't go there, please refund the return to my {refund} instead.",
        "Then could the refund for the {items} go to my {refund}, the way I paid?",
        "In that case, let's do the return anyway, with the money back on my {refund}.",
        "Alright, refund it to my {refund} then; I still want to send the {items} back.",
        "If that's not allowed, I'll take the refund on my {refund} instead.",
        "Could you put the refund on my {refund} then? The return should still go ahead.",
        "Then please go ahead with the return, refunded to my {refund}.",
        "Fine, the {refund} I paid with will do for the refund then.",
    ),
    wants=("you would take the refund for the {items} on your {refund}, the way you paid",),
    reasons={"": ("",)},
    preferences=(
        "if the refund can't go there, I'll still return the {items} and take the money on my {refund}",
        "should that method be refused, a refund to my {refund}, the one I paid with, is fine",
        "if another method isn't allowed, the return can go ahead with the refund on my {refund}",
        "failing that, I'd take the refund on my {refund} rather than keep the {items}",
        "if the rules say no, I'll settle for the refund going back to my {refund}",
        "when that method is ruled out, refunding my {refund} instead works for me",
        "if it has to go back the way I paid, my {refund} is fine and the return should go ahead",
        "if my choice is refused, my second choice is the refund on my {refund}",
    ),
    personas=RETURN_PERSONAS,
)

# ----------------------------------------------------------------------------------- default address

UPDATE_ADDRESS = Bank(
    requests=(
        "Could you update my account's default address to {address}?",
        "I need the default address on my account changed to {address}.",
        "Please make {address} the default address on my profile.",
        "I'd like my account address set to {address}.",
        "Is it possible to change my default address to {address}?",
        "I'm calling to update my address: it's now {address}.",
        "What I need is my default address changed to {address}.",
        "Can we put {address} on my account as the default address?",
    ),
    wants=(
        "you want {address} as the default address on your account",
        "you need the default address of your account changed to {address}",
        "updating your account's address to {address} is what you are after",
        "you would like your profile to show {address} as the default address",
        "you have decided to make {address} your default address",
        "you want the account's address replaced with {address}",
        "you are asking for {address} to become your default address",
        "setting {address} as your default address is what you have in mind",
    ),
    reasons={
        "": (
            "I've moved",
            "I moved to {city} recently",
            "I've just relocated to {city}",
            "my old address is out of date now",
            "I've changed apartments and want future orders to go to the right place",
            "I'm settling in {city} for good",
            "I've moved to a new place in {city}",
            "the account still shows my previous home",
            "I want future orders to reach my new home",
        )
    },
    preferences=(
        "I'd like the full address read back before it's saved",
        "please make sure the zip code is right",
        "I'd like a confirmation once the profile shows the new address",
        "please double-check the city and state",
        "I'd like to hear what the account shows now before it's changed",
        "I'd appreciate going through it slowly",
        "I'd like it done while I'm on the line",
        "please spell the street name back to me",
    ),
    personas=(
        "a graduate student who has just moved across town",
        "a young family's parent settling into a new home",
        "a retiree who has downsized to a smaller place",
    ),
)

# ------------------------------------------------------------------------------------------ tracking

TRACKING = Bank(
    requests=(
        "Could you give me the tracking number for {order}?",
        "I need the tracking number of {order}.",
        "Please find the tracking number for {order}.",
        "I'd like the tracking number of {order}.",
        "Is it possible to get the tracking number for {order}?",
        "I'm calling for the tracking number of {order}.",
        "What's the tracking number for {order}?",
        "Can you look up the shipment of {order} and tell me its tracking number?",
    ),
    wants=(
        "you want the tracking number of {order}",
        "you need to know the tracking number for {order}",
        "getting the tracking number of {order} is what you are calling about",
        "you would like the agent to tell you the tracking number of {order}",
        "you are after the tracking number for {order}",
        "you want to find out how to track {order}, by its tracking number",
        "the tracking number of {order} is what you came for",
        "you are asking for the tracking number of {order}",
    ),
    reasons={
        "processed": (
            "I want to follow the delivery",
            "I'd like to know when to expect it",
            "I want to plan to be in when it comes",
            "I'd like to check the carrier's estimate",
            "I want to keep an eye on it while it's on the way",
            "I'm expecting it soon and want to see where it is",
            "I want to arrange for the parcel to be received",
            "I'd like to see the delivery progress myself",
        ),
        "delivered": (
            "I can't find the parcel and want to check with the carrier",
            "I need it for my records",
            "I want to check where the carrier left it",
            "I'd like proof of delivery for my records",
            "the box isn't where I expected and I want to trace it",
            "I want to confirm the delivery details with the carrier",
            "I'm sorting out my paperwork and want the number written down",
            "I'd like to see when and where it was dropped off",
        ),
        "": (
            "I'd like to check the shipment with the carrier",
            "I want to see the delivery details myself",
            "I need the number for my records",
            "I want to look it up on the carrier's site",
            "I'd like to know where the parcel is",
            "I want to follow it up with the carrier",
            "I'd like to keep track of my orders",
            "I want to check the delivery status",
        ),
    },
    preferences=(
        "I'd like the number read out slowly",
        "please give the number in small groups of digits",
        "I only need the number; nothing needs changing",
        "I'd like to know the order's status as well",
        "please repeat the number once so I can write it down",
        "just the number is enough, no need to change anything",
        "I'd like to confirm which order it is first",
        "I'd like to hear the carrier's number exactly as it's listed",
    ),
    personas=(
        "a remote worker who is often out at appointments",
        "an apartment dweller whose building has no parcel room",
        "a freelance photographer who travels for work",
    ),
)
