"""How bank customers put their needs into words (docs/tracer.md, "Phrase banks"): one `Bank` per
intent of tracer.py, its `{slots}` filled by the intent's grounder from the seed records. Transfers,
payments and cards are here; disputes and loans in phrases_more.py.

No text names a fee (the agent discloses it), a limit left today or a payoff figure (the agent looks
them up)."""

from __future__ import annotations

from taue.envs.bank.phrases_more import MORE
from taue.envs.runtime.authoring import Bank

TRANSFER_REQUESTS = (
    "Please move {amount} from my {source} to my {target}.",
    "Could you transfer {amount} from my {source} into my {target}?",
    "I'd like {amount} moved from my {source} to my {target}.",
    "I'm calling to shift {amount} out of my {source} and into my {target}.",
    "Is it possible to transfer {amount} from my {source} to my {target} today?",
    "What I need is {amount} sent from my {source} over to my {target}.",
    "Can we move {amount} from my {source} to my {target}?",
    "I need {amount} transferred from my {source} into my {target}, please.",
)
TRANSFER_WANTS = (
    "you want {amount} moved from your {source} to your {target}",
    "you are calling to transfer {amount} from your {source} into your {target}",
    "moving {amount} out of your {source} and into your {target} is the thing to sort out",
    "you would like {amount} shifted from your {source} to your {target} today",
    "you have decided to put {amount} from your {source} into your {target}",
    "you need {amount} transferred from your {source} over to your {target}",
    "getting {amount} from your {source} into your {target} is the goal",
    "you mean to send {amount} from your {source} to your {target}",
)
TRANSFER_REASONS = {
    "": (
        "I like to keep money where I'll actually use it",
        "I'm rearranging my money for the month",
        "it's part of my monthly budgeting routine",
        "I want each account to hold what it's meant for",
        "I'm tidying up my balances before the weekend",
        "I'd rather not leave too much sitting in one place",
        "I'm getting ready for some bigger expenses",
        "it keeps my budget easier to follow",
    ),
    "to_savings": (
        "I want to put some money aside while I can",
        "I'm building up a cushion for emergencies",
        "I try to save a little every time I'm paid",
        "I'd rather not be tempted to spend it",
        "I'm saving toward something big next year",
        "I had a good month and want to save the extra",
        "I want the money earning interest instead of sitting idle",
        "I'm trying to stick to a savings plan",
    ),
    "to_checking": (
        "I have some bills coming up that I need to cover",
        "rent is due soon and I want the money ready",
        "I need spending money for the next couple of weeks",
        "a big expense is coming and my everyday account needs topping up",
        "I'd like the card account to have enough for this month",
        "I have a car repair to pay for",
        "I'm paying for a trip out of that account",
        "several automatic payments go out of it soon",
    ),
}
TRANSFER_PREFERENCES = (
    "I'd like the amounts read back before anything moves",
    "no other accounts should be touched",
    "I'd like to hear the new balances afterwards",
    "please do it as a single transfer",
    "I want it done today",
    "I want this one transfer and nothing else",
    "I'd like confirmation once it's gone through",
    "I don't want other products suggested",
)
TRANSFER_PERSONAS = (
    "a careful budgeter who moves money every payday",
    "someone who keeps each account for one purpose",
    "a customer who manages money from a phone app but prefers to call for transfers",
)

MOVE_MONEY = Bank(
    TRANSFER_REQUESTS, TRANSFER_WANTS, TRANSFER_REASONS, TRANSFER_PREFERENCES, TRANSFER_PERSONAS
)
MOVE_TOO_MUCH = Bank(
    TRANSFER_REQUESTS,
    TRANSFER_WANTS,
    TRANSFER_REASONS,
    (
        "I want the whole amount moved in one go",
        "I'd like to know what is possible if the full amount can't go",
        "I'd like the amounts read back before anything moves",
        "no other accounts should be touched",
        "I want a straight answer if there's a problem",
        "I don't want it split into several transfers",
        "I want it done today if at all possible",
        "I'd like to hear the new balances afterwards",
    ),
    TRANSFER_PERSONAS,
)

MOVE_WHAT_IS_LEFT = Bank(
    requests=(
        "If the full amount can't go, could you move {amount} from my {source} to my {target} instead?",
        "Then please transfer {amount} from my {source} to my {target} today.",
        "In that case, {amount} from my {source} to my {target} will do for now.",
        "Alright, could you send {amount} to my {target} from my {source} then?",
        "If that's over the limit, I'll take a transfer of {amount} from my {source} to my {target}.",
        "Then let's move {amount} from my {source} to my {target} instead.",
        "Could you do {amount} from my {source} to my {target} then? That's my second choice.",
        "Fine, {amount} from my {source} into my {target} works if the full sum can't go.",
    ),
    wants=("you would take a transfer of {amount} from your {source} to your {target}",),
    reasons={"": ("",)},
    preferences=(
        "if the whole amount can't go today, I'd settle for {amount} from my {source} to my {target}",
        "should the full sum be refused, {amount} moved to my {target} works for me",
        "if that's more than is allowed, I'll take {amount} from my {source} instead",
        "failing that, {amount} into my {target} is my second choice",
        "if the rules say no, a transfer of {amount} from my {source} to my {target} is fine",
        "when the full amount is ruled out, {amount} to my {target} suits me for today",
        "if it has to be less, I'd have {amount} moved from my {source} to my {target}",
        "if my first amount is refused, {amount} is the sum I'd move to my {target}",
    ),
)

PAYEE_REQUESTS = (
    "I need to pay {amount} to {payee} from my {source}.",
    "Could you send {amount} to {payee} out of my {source}?",
    "Please pay {payee} {amount} from my {source}.",
    "I'd like to make a payment of {amount} to {payee} from my {source}.",
    "I'm calling to pay {payee}: {amount}, taken from my {source}.",
    "Is it possible to pay {amount} to {payee} today from my {source}?",
    "What I want is a {amount} payment to {payee} from my {source}.",
    "Can we pay {payee} {amount} out of my {source}?",
)
PAYEE_WANTS = (
    "you want to pay {amount} to your payee {payee} from your {source}",
    "you are calling to send {amount} to {payee} out of your {source}",
    "paying {payee} {amount} from your {source} is the main point",
    "you would like a payment of {amount} made to {payee} from your {source}",
    "you have decided to pay {payee} {amount} out of your {source} today",
    "you need {amount} paid to {payee} from your {source}",
    "getting {amount} to {payee} from your {source} is the goal",
    "you mean to settle {amount} with {payee}, paid from your {source}",
)
PAYEE_REASONS = {
    "": (
        "the bill is due in a few days",
        "I'd like it paid before I forget",
        "I want this month's bills out of the way",
        "I'd rather pay it now while the money is there",
        "I don't want a late notice",
        "I sort out my bills on the same day each month",
        "it's the last bill on my list this month",
        "I'd like it settled before the weekend",
    ),
    "utility": (
        "the utility bill came in this week",
        "I don't want the service cut off",
        "the bill for last month just arrived",
        "I want the utilities paid before the due date",
        "I always pay the utilities as soon as the bill comes",
        "the usage was higher this month and I want it settled",
        "I'd rather not pay a late charge on the utilities",
        "it's this month's utility bill",
    ),
    "rent": (
        "rent is due at the start of the month",
        "I want the rent in before the landlord's deadline",
        "I'm paying my share of the rent",
        "my landlord prefers payments early",
        "this month's rent needs to go out",
        "I don't want any trouble with the landlord",
        "I'm paying the rent a little early this month",
        "the building office asked for the rent this week",
    ),
    "insurance": (
        "the insurance premium is due",
        "I don't want my policy to lapse",
        "the renewal notice just came in",
        "I want my cover to stay in place",
        "it's this month's premium",
        "the insurer sent a reminder",
        "I'd rather not risk a gap in cover",
        "I pay the premium as soon as the notice comes",
    ),
    "telecom": (
        "the phone bill is due soon",
        "I don't want my line cut off",
        "this month's phone bill just came in",
        "I want the phone bill paid on time",
        "I rely on my phone for work",
        "the phone company sent a reminder",
        "I'm clearing the phone bill along with the rest",
        "I'd rather pay the phone bill before I forget",
    ),
    "person": (
        "I owe them my share of a trip we took",
        "I'm paying back money they lent me",
        "it's my part of a shared dinner bill",
        "I promised to send it to them this week",
        "it's a birthday gift",
        "they covered a bill for me and I want to repay them",
        "we split the cost of some tickets",
        "I'd rather not owe anyone for long",
    ),
    "credit_card": (
        "I want to pay down my credit card",
        "the card statement just came in",
        "I don't want interest building up on the card",
        "I'm trying to clear the card balance",
        "the card payment is due soon",
        "I'd like to keep the card balance low",
        "I pay the card off a bit every month",
        "I want the card payment made before the due date",
    ),
}
PAYEE_PREFERENCES = (
    "I'd like the payment read back before it goes",
    "please tell me if anything extra applies before I confirm",
    "I want this one payment and nothing else",
    "I'd like to hear the account balance afterwards",
    "the money should come from that account and no other",
    "I want it sent today",
    "I'd like a confirmation once it's done",
    "nothing else on my accounts should change",
)
PAYEE_PERSONAS = (
    "someone who pays every bill by phone",
    "a customer who likes bills settled early",
    "a careful budgeter who tracks each payment",
)

PAY_BILL = Bank(PAYEE_REQUESTS, PAYEE_WANTS, PAYEE_REASONS, PAYEE_PREFERENCES, PAYEE_PERSONAS)
PAY_UNVERIFIED_PAYEE = Bank(
    PAYEE_REQUESTS,
    PAYEE_WANTS,
    {
        key: (*reasons[:6], "I added them as a payee not long ago", "this is the first payment to them")
        for key, reasons in PAYEE_REASONS.items()
    },
    (
        "I'd like it paid today if at all possible",
        "I'd like to know what I can do if it can't go through",
        "I'd like the payment read back before it goes",
        "the money should come from that account and no other",
        "I want a straight answer if there's a problem",
        "I want this one payment and nothing else",
        "please tell me if anything extra applies before I confirm",
        "I'd like a confirmation once it's done",
    ),
    PAYEE_PERSONAS,
)

CARD_PERSONAS = (
    "a customer who pays for nearly everything by card",
    "someone who keeps a close eye on their cards",
    "a careful person who likes problems sorted quickly",
)

FREEZE = Bank(
    requests=(
        "I can't find my {card}. Could you freeze it for now?",
        "Please freeze my {card}; I've misplaced it.",
        "I'd like my {card} frozen until I find it.",
        "I'm calling to put a freeze on my {card}.",
        "Is it possible to freeze my {card} for the time being?",
        "What I need is my {card} frozen, just in case.",
        "Can we freeze my {card}? I don't know where it is.",
        "I need a temporary freeze on my {card}.",
    ),
    wants=(
        "you cannot find your {card} and want it frozen for now, not cancelled",
        "you want your {card} frozen while you look for it; it should not be cancelled",
        "freezing your {card} until it turns up is what you called about, without cancelling it",
        "you are calling to put a temporary freeze on your {card}, not to report it lost",
        "you would like your {card} frozen for the time being, as it may still turn up",
        "you have misplaced your {card} and want it frozen, not replaced",
        "a freeze on your {card} is the goal, since it might still be at home",
        "you need your {card} frozen, though you are not ready to cancel it",
    ),
    reasons={
        "": (
            "it may still turn up at home",
            "I think I left it somewhere but I'm not sure where",
            "I don't want anyone using it while I look",
            "it wasn't in my wallet this morning",
            "I might have left it at a restaurant last night",
            "I'd rather be safe while I search for it",
            "it could be in another bag or coat",
            "I'm sure it'll turn up, but I don't want to take chances",
        ),
    },
    preferences=(
        "I don't want the card cancelled, only frozen",
        "I'd like to be able to unfreeze it if I find it",
        "I don't want a replacement sent yet",
        "please read back which card you're freezing",
        "nothing else on the account should change",
        "I'd like confirmation once it's frozen",
        "I want it frozen right away",
        "I don't want a new card for now",
    ),
    personas=CARD_PERSONAS,
)

UNFREEZE_REQUESTS = (
    "Could you unfreeze my {card}?",
    "Please take the freeze off my {card}.",
    "I'd like my {card} working again.",
    "I'm calling to get my {card} unfrozen.",
    "Is it possible to unfreeze my {card} today?",
    "What I need is my {card} active again.",
    "Can we get my {card} back in use?",
    "I need my {card} unfrozen so I can use it.",
)
UNFREEZE_WANTS = (
    "you want your {card} unfrozen so you can use it again",
    "you are calling to have your {card} working again",
    "getting your {card} back in use is what you are after",
    "you would like the freeze lifted from your {card}",
    "you have decided you want your {card} active again",
    "you need your {card} usable again",
    "unfreezing your {card} is the goal",
    "you mean to start using your {card} again",
)
UNFREEZE_REASONS = {
    "": (
        "I need to use it this week",
        "it's the card I use for everything",
        "I have purchases to make",
        "I'd like it working again",
        "the other cards aren't convenient",
        "I've got bills that come out of it",
        "I need it for groceries",
        "I'm travelling soon and want it with me",
    ),
    "frozen": (
        "I froze it when I misplaced it, and it turned up again",
        "I found it in my other jacket",
        "it was in the car all along",
        "I found it at home after freezing it",
        "a friend found it and gave it back",
        "the restaurant had kept it for me",
        "it was tucked in a drawer the whole time",
        "I froze it as a precaution and now I have it back",
    ),
    "blocked": (
        "it keeps getting declined at the till",
        "it stopped working and I don't know why",
        "I tried to pay with it yesterday and it was refused",
        "the ATM wouldn't accept it this morning",
        "my online purchases with it keep failing",
        "it was refused at the petrol station",
        "it was working fine and then suddenly stopped",
        "a shop told me the card isn't active",
    ),
    "lost": (
        "I reported it lost, and then I found it",
        "I found it after I reported it lost",
        "it turned up after I'd already reported it",
        "I reported it lost in a panic, but it was in my bag",
        "it was in a coat pocket after I'd reported it lost",
        "I'd rather keep using the old one now that I've found it",
        "I found it in the car after I reported it",
        "a neighbour handed it back after I'd called it in",
    ),
}
UNFREEZE_PREFERENCES = (
    "I'd like to keep the same card number",
    "please read back which card you're changing",
    "nothing else on the account should change",
    "I'd like confirmation once it works again",
    "I don't want a new card sent",
    "I'd like it working today",
    "the card's limit should stay the same",
    "I want only this card changed",
)

UNFREEZE = Bank(UNFREEZE_REQUESTS, UNFREEZE_WANTS, UNFREEZE_REASONS, UNFREEZE_PREFERENCES, CARD_PERSONAS)
UNFREEZE_BLOCKED = Bank(
    UNFREEZE_REQUESTS, UNFREEZE_WANTS, UNFREEZE_REASONS, UNFREEZE_PREFERENCES, CARD_PERSONAS
)

LOST_CARD = Bank(
    requests=(
        "My {card} {gone}. Please cancel it and send me a new one by {shipping} shipping.",
        "Could you report my {card}? It {gone}, and I'd like a replacement by {shipping} shipping.",
        "I'd like to report my {card}; it {gone}. Please send the new card {shipping}.",
        "I'm calling because my {card} {gone}. I need it cancelled and a replacement sent {shipping}.",
        "Is it possible to cancel my {card} and get a new one by {shipping} shipping? It {gone}.",
        "What I need is my {card} shut down and a new one sent {shipping}; it {gone}.",
        "Can we cancel my {card}? It {gone}. A replacement by {shipping} shipping, please.",
        "My {card} {gone}, so I need it reported and a new card sent by {shipping} shipping.",
    ),
    wants=(
        "your {card} {gone}; you want it reported and a replacement sent by {shipping} shipping",
        "you want your {card} cancelled, since it {gone}, with a new card by {shipping} shipping",
        "getting your {card} reported and a replacement on its way by {shipping} shipping is the goal",
        "you are calling because your {card} {gone}; you need a new one sent {shipping}",
        "you would like your {card} shut down and replaced, by {shipping} shipping, as it {gone}",
        "your {card} {gone}, and you want a replacement sent {shipping}",
        "reporting your {card} and getting a new one by {shipping} shipping is what you have in mind",
        "you need your {card} replaced by {shipping} shipping, because it {gone}",
    ),
    reasons={
        "": (
            "I don't want anyone else using it",
            "I need a working card as soon as possible",
            "I'd rather be safe than sorry",
            "I use that card for most of my spending",
            "I want the old number shut down for good",
            "I don't want to risk fraudulent charges",
            "I can't manage without a card for long",
            "I want this dealt with today",
        ),
        "stolen": (
            "my bag was taken on the bus this morning",
            "someone took my wallet at the gym",
            "my car was broken into last night",
            "my wallet was snatched at a train station",
            "a pickpocket got my wallet at a market",
            "my purse was stolen at a cafe",
            "my jacket with the wallet in it was taken",
            "my wallet was taken from a locker",
        ),
        "lost": (
            "I've searched everywhere and it's gone",
            "I think it fell out of my pocket on a walk",
            "I must have left it at a shop and nobody handed it in",
            "it's been missing for days and I've given up looking",
            "I lost it somewhere on a trip",
            "I dropped it somewhere in town",
            "it's nowhere to be found",
            "I retraced my steps and had no luck",
        ),
        "frozen": (
            "I froze it while I looked, but it hasn't turned up",
            "I froze it when I misplaced it and now I'm sure it's gone",
            "the freeze was meant to be temporary, but I've given up on finding it",
            "I've looked everywhere since freezing it and had no luck",
            "I froze it to be safe, and it's clearly not coming back",
            "it's been frozen a while and I still can't find it",
            "I thought it would turn up after I froze it, but it didn't",
            "freezing it was a stopgap; it's really lost",
        ),
    },
    preferences=(
        "please read back which card you're cancelling",
        "I'd like the new card on the same account",
        "please tell me when to expect the new card",
        "nothing else on the account should change",
        "I'd like to hear about any charges before I confirm",
        "the daily limit should stay the same",
        "I want the old card stopped right away",
        "I'd like confirmation once it's done",
    ),
    personas=CARD_PERSONAS,
)

LIMIT_REASONS = {
    "": (
        "I want the card to match how I spend",
        "I'm reorganising how I use my cards",
        "I'd like the limit to fit my budget better",
        "it makes sense for how I use that card",
        "I'm setting my cards up the way I want them",
        "I want the card to fit this month's plans",
        "I'd like more control over my card",
        "it suits my spending right now",
    ),
    "raise": (
        "I have a large purchase to make this week",
        "I'm buying some furniture",
        "I'm paying for a car repair at the garage",
        "I keep hitting the limit at the checkout",
        "I'm booking a holiday and paying for it in one go",
        "I'm buying a new laptop",
        "the current limit is too low for my weekly shop and fuel",
        "I'm paying for dental work in one go",
    ),
    "lower": (
        "I want to keep my spending in check",
        "a lower limit limits the damage if the card is misused",
        "I'm trying to stick to a tight budget",
        "I've been overspending lately",
        "I only use that card for small things",
        "I'd feel safer with a lower limit",
        "I want to stop impulse buys",
        "I'm saving hard this year",
    ),
}
LIMIT_REQUESTS = (
    "Please set the daily purchase limit of my {card} to {limit}.",
    "Could you change the daily limit on my {card} to {limit}?",
    "I'd like the daily spending limit on my {card} set at {limit}.",
    "I'm calling to put the daily limit of my {card} at {limit}.",
    "Is it possible to make the daily limit on my {card} {limit}?",
    "What I want is a daily limit of {limit} on my {card}.",
    "Can we set my {card} to a {limit} daily limit?",
    "I need the daily purchase limit on my {card} changed to {limit}.",
)
LIMIT_WANTS = (
    "you want the daily purchase limit of your {card} set to {limit}",
    "you are calling to change the daily limit on your {card} to {limit}",
    "a daily limit of {limit} on your {card} is what you are calling about",
    "you would like your {card} to have a {limit} daily purchase limit",
    "you have decided the daily limit on your {card} should be {limit}",
    "you need the daily spending limit of your {card} changed to {limit}",
    "setting your {card} to a {limit} daily limit is the goal",
    "you mean to have the daily limit of your {card} put at {limit}",
)
CARD_LIMIT = Bank(
    LIMIT_REQUESTS,
    LIMIT_WANTS,
    LIMIT_REASONS,
    (
        "please read back the new limit before changing it",
        "nothing else about the card should change",
        "I'd like confirmation once it's set",
        "I want only this card changed, not any others",
        "I'd like it changed today",
        "no new card is needed",
        "I'd like to hear the old limit too",
        "I don't want other products offered",
    ),
    CARD_PERSONAS,
)
LIMIT_ABOVE_CAP = Bank(
    LIMIT_REQUESTS,
    LIMIT_WANTS,
    LIMIT_REASONS,
    (
        "I'd like to know the most the card allows if that's too high",
        "please read back the new limit before changing it",
        "I want a straight answer if it can't be done",
        "nothing else about the card should change",
        "I'd like it changed today",
        "I'd like to hear what my options are",
        "I want only this card changed, not any others",
        "no new card is needed",
    ),
    CARD_PERSONAS,
)

BANKS: dict[str, Bank] = {
    "move_money": MOVE_MONEY,
    "move_too_much": MOVE_TOO_MUCH,
    "move_what_is_left": MOVE_WHAT_IS_LEFT,
    "pay_bill": PAY_BILL,
    "pay_unverified_payee": PAY_UNVERIFIED_PAYEE,
    "freeze": FREEZE,
    "unfreeze": UNFREEZE,
    "unfreeze_blocked": UNFREEZE_BLOCKED,
    "lost_card": LOST_CARD,
    "card_limit": CARD_LIMIT,
    "limit_above_cap": LIMIT_ABOVE_CAP,
    **MORE,
}
