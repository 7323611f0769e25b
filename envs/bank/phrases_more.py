"""Bank phrase banks for card disputes and loans (merged into `BANKS` by phrases.py). No text names a
payoff figure or a provisional credit: the agent looks them up and tells them."""

from __future__ import annotations

from taue.envs.runtime.authoring import Bank

DISPUTE_REQUESTS = (
    "I want to dispute {charge}.",
    "Could you open a dispute on {charge}?",
    "I'd like to dispute {charge} on my {account}.",
    "I'm calling to challenge {charge}.",
    "Is it possible to dispute {charge}?",
    "What I need is a dispute filed for {charge}.",
    "Can we raise a dispute about {charge} on my {account}?",
    "Please file a dispute for {charge}.",
)
DISPUTE_WANTS = (
    "you want to dispute {charge} on your {account}",
    "you are calling to challenge {charge} on your {account}",
    "getting a dispute filed for {charge} is what you came for",
    "you would like {charge} on your {account} disputed",
    "you have decided to dispute {charge}",
    "you need a dispute opened on {charge} from your {account}",
    "disputing {charge} is the goal",
    "you mean to contest {charge} on your {account}",
)
DISPUTE_REASONS = {
    "": (
        "something about that charge is not right",
        "I don't think I owe it",
        "I want the bank to look into it",
        "the merchant won't sort it out with me",
        "I've tried the shop and got nowhere",
        "it doesn't match anything I agreed to",
        "I don't want to pay for something that's wrong",
        "I'd like it checked properly",
    ),
    "unauthorized": (
        "I never made that purchase",
        "someone else made that purchase, not me",
        "my card was with me the whole time and I didn't buy anything there",
        "I don't recognise that charge at all",
        "I didn't make it and nobody else uses my card",
        "I was nowhere near that place on that day",
        "someone must have used my card details",
        "I didn't authorise that payment",
    ),
    "duplicate_charge": (
        "the merchant charged me twice for the same thing",
        "I paid once but it went through two times",
        "it's a second copy of a charge I already paid",
        "the till glitched and took the payment twice",
        "I only bought one, but I was billed twice",
        "the same amount came out twice on the same day",
        "I have one receipt but two charges",
        "the shop admitted they ran my card twice",
    ),
    "not_received": (
        "the order never arrived",
        "I paid for something that never turned up",
        "the delivery never came",
        "the merchant took my money and sent nothing",
        "the parcel was never delivered",
        "I'm still waiting for an order that should have come weeks ago",
        "the item never reached me",
        "I never got what I paid for",
    ),
    "cancelled_service": (
        "I had cancelled that service before the charge",
        "I cancelled the membership and was charged anyway",
        "I ended that subscription beforehand",
        "I have the cancellation confirmation, yet they billed me",
        "the booking was cancelled and they still took the money",
        "I cancelled in time but the charge went through",
        "they charged me after I'd stopped the service",
        "the company ignored my cancellation",
    ),
    "wrong_amount": (
        "the bill was only {billed}, so I'm disputing the extra {extra}",
        "I agreed to pay {billed}, and the other {extra} shouldn't be there",
        "my receipt says {billed}, so {extra} too much was taken",
        "they charged {extra} more than the {billed} I owed",
        "the real total was {billed}; the extra {extra} is wrong",
        "I only owe {billed} and want the extra {extra} back",
        "the price was {billed}, not more, so I dispute the {extra} difference",
        "I was overcharged by {extra}; the bill was {billed}",
    ),
}
DISPUTE_PREFERENCES = (
    "please read back the charge before filing anything",
    "I'd like the dispute reference once it's filed",
    "I'd like to know how long the investigation takes",
    "I want only that one charge disputed",
    "I'd like to hear what happens next",
    "I don't want my card cancelled over this",
    "I want it filed today",
    "please explain how the dispute works",
)
DISPUTE_PERSONAS = (
    "someone who checks every statement line by line",
    "a careful customer who keeps all receipts",
    "a customer who wants mistakes on the account put right",
)

DISPUTE_CHARGE = Bank(DISPUTE_REQUESTS, DISPUTE_WANTS, DISPUTE_REASONS, DISPUTE_PREFERENCES, DISPUTE_PERSONAS)
DISPUTE_TOO_LATE = Bank(
    DISPUTE_REQUESTS,
    DISPUTE_WANTS,
    {
        key: (*reasons[:5], "I only noticed it going through old statements", *reasons[5:7])
        for key, reasons in DISPUTE_REASONS.items()
    },
    (
        "I'd like to know my options if it can't be disputed",
        "please read back the charge before filing anything",
        "I want a straight answer about it",
        "I want only that one charge disputed",
        "I'd like it filed today if possible",
        "please explain the rules if there's a problem",
        "I don't want my card cancelled over this",
        "I'd like to hear what happens next",
    ),
    DISPUTE_PERSONAS,
)

LOAN_PERSONAS = (
    "a borrower who likes to stay on top of every loan",
    "someone who plans their finances a year ahead",
    "a careful customer who reads every loan statement",
)

LOAN_PAYMENT = Bank(
    requests=(
        "I'd like to make this month's installment on my {loan} from my {source}.",
        "Could you take this month's payment for my {loan} out of my {source}?",
        "Please pay the regular monthly amount on my {loan} from my {source}.",
        "I'm calling to make my {loan} payment for this month from my {source}.",
        "Is it possible to pay this month's {loan} installment from my {source}?",
        "What I want is my usual monthly {loan} payment made from my {source}.",
        "Can we make the monthly payment on my {loan} from my {source}?",
        "I need this month's {loan} installment paid from my {source}.",
    ),
    wants=(
        "you want to make this month's installment on your {loan} from your {source}, for the regular amount",
        "you are calling to pay the usual monthly amount on your {loan} from your {source}",
        "paying this month's {loan} installment from your {source} is on your list",
        "you would like the regular monthly payment on your {loan} taken from your {source}",
        "you have decided to make your {loan} payment for this month from your {source}",
        "you need this month's {loan} installment paid out of your {source}",
        "making the regular monthly {loan} payment from your {source} is the goal",
        "you mean to pay your {loan} installment for the month from your {source}",
    ),
    reasons={
        "": (
            "I'd like to pay it before the due date",
            "I just got paid and want it out of the way",
            "I prefer to make loan payments myself rather than wait",
            "I don't want to risk missing the due date",
            "I like to pay my bills as soon as the money is in",
            "I want the loan kept in good standing",
            "I'm sorting out all my payments for the month today",
            "it's easier for me to pay it now while I think of it",
        ),
    },
    preferences=(
        "I want to pay the regular monthly amount and no more",
        "please read back the payment before it goes",
        "the money should come from that account only",
        "I'd like to hear the loan balance afterwards",
        "I'd like confirmation once it's paid",
        "nothing else about the loan should change",
        "I want it paid today",
        "I don't want any extra payments made",
    ),
    personas=LOAN_PERSONAS,
)

LOAN_PAYOFF = Bank(
    requests=(
        "I'd like to pay off my {loan} in full from my {source}.",
        "Could you pay off my whole {loan} from my {source} today?",
        "Please settle my {loan} completely from my {source}.",
        "I'm calling to pay off my {loan} using my {source}.",
        "Is it possible to clear my {loan} today from my {source}?",
        "What I want is my {loan} paid off in full from my {source}.",
        "Can we close out my {loan} with a payment from my {source}?",
        "I need my {loan} paid off today, out of my {source}.",
    ),
    wants=(
        "you want to pay off your {loan} in full today from your {source}",
        "you are calling to settle your {loan} completely from your {source}",
        "clearing your {loan} today with money from your {source} is what you would like",
        "you would like your {loan} paid off in full from your {source}",
        "you have decided to pay off the whole {loan} from your {source} today",
        "you need your {loan} closed out with a payment from your {source}",
        "paying off your {loan} today from your {source} is the goal",
        "you mean to be done with your {loan}, paying it off from your {source}",
    ),
    reasons={
        "": (
            "I'd like to be debt-free",
            "I received a bonus and want to put it to good use",
            "I'm tired of paying interest on it",
            "I've saved up enough to clear it",
            "I want one less monthly payment",
            "I'd rather have it finished than keep paying",
            "I came into some money and want the loan gone",
            "I'm simplifying my finances",
        ),
    },
    preferences=(
        "I'd like to hear the exact payoff figure before paying",
        "please read back the payment before it goes",
        "the money should come from that account only",
        "I'd like confirmation that the loan is closed",
        "my other loans should stay as they are",
        "I want it paid off today",
        "I'd like to know my account balance afterwards",
        "I don't want other products offered",
    ),
    personas=LOAN_PERSONAS,
)

DUE_DATE_REQUESTS = (
    "Please move the due date of my {loan} to the {day} of each month.",
    "Could you change my {loan} payment date to the {day}?",
    "I'd like my {loan} payments due on the {day} from now on.",
    "I'm calling to move my {loan} due date to the {day} of the month.",
    "Is it possible to have my {loan} due on the {day} instead?",
    "What I want is my {loan} due date moved to the {day}.",
    "Can we shift the {loan} payment day to the {day}?",
    "I need the due date on my {loan} changed to the {day} of each month.",
)
DUE_DATE_WANTS = (
    "you want the monthly due date of your {loan} moved to the {day}",
    "you are calling to change your {loan} payment day to the {day} of the month",
    "having your {loan} due on the {day} is why you are calling",
    "you would like your {loan} payments to fall on the {day} from now on",
    "you have decided your {loan} should be due on the {day} of each month",
    "you need the due date of your {loan} shifted to the {day}",
    "moving your {loan} payment day to the {day} is the goal",
    "you mean to get your {loan} due on the {day} every month",
)
DUE_DATE_REASONS = {
    "": (
        "my pay date changed",
        "I'd like all my bills due around the same time",
        "the current date falls before I get paid",
        "my employer moved payday",
        "it would line up better with my income",
        "I keep running short just before the current due date",
        "I want the payment to come out after my rent",
        "it would make budgeting simpler",
    ),
    "recent": (
        "my pay date changed again since I last moved it",
        "the date I chose last time hasn't worked out",
        "my pay schedule changed once more",
        "my employer changed payday again",
        "the last change didn't fit my income after all",
        "I picked the wrong day when I moved it before",
        "my hours changed and so did my pay date",
        "the new day still falls before I get paid",
    ),
}
DUE_DATE_PREFERENCES = (
    "please tell me when the next payment will be due",
    "please read back the new day before changing it",
    "nothing else about the loan should change",
    "I'd like confirmation once it's moved",
    "I'd like it changed today",
    "no payment should be made as part of this",
    "I want only the due date changed",
    "I'd like it explained if anything else changes",
)

MOVE_DUE_DATE = Bank(DUE_DATE_REQUESTS, DUE_DATE_WANTS, DUE_DATE_REASONS, DUE_DATE_PREFERENCES, LOAN_PERSONAS)
MOVE_DUE_DATE_REFUSED = Bank(
    DUE_DATE_REQUESTS,
    DUE_DATE_WANTS,
    DUE_DATE_REASONS,
    (
        "I'd like to know what I can do if it can't be moved",
        "please read back the new day before changing it",
        "I want a straight answer if there's a rule against it",
        "nothing else about the loan should change",
        "no payment should be made as part of this",
        "I'd like it explained plainly",
        "I want only the due date changed",
        "I'd like it changed today if possible",
    ),
    LOAN_PERSONAS,
)

PAYOFF_QUOTE = Bank(
    requests=(
        "How much would it take to pay off my {loan} today?",
        "Could you tell me the payoff amount for my {loan}?",
        "I'd like to know what it would cost to clear my {loan} today.",
        "I'm calling to get a payoff figure for my {loan}.",
        "Is it possible to get today's payoff amount on my {loan}?",
        "What I need is the amount to pay off my {loan} in full.",
        "Can we check what paying off my {loan} would take?",
        "Please give me a payoff quote for my {loan}.",
    ),
    wants=(
        "you are thinking of paying off your {loan} and want today's payoff amount, paying nothing yet",
        "you want a payoff quote for your {loan}, only as information",
        "finding out what it would take to clear your {loan} today is your goal",
        "you are calling to hear the payoff amount of your {loan}; you will not pay today",
        "you would like today's payoff figure for your {loan}, without making a payment",
        "you need to know how much would settle your {loan} in full",
        "a payoff quote for your {loan} is the goal; no payment yet",
        "you mean to learn today's payoff amount on your {loan} before deciding anything",
    ),
    reasons={
        "": (
            "I'm weighing whether to pay it off early",
            "I might come into some money soon",
            "I'm planning my finances for the year",
            "I want to know where I stand",
            "I'm comparing it with my savings",
            "I'd like to know how close I am to being done",
            "I'm thinking about consolidating my debts",
            "I want the number before I decide anything",
        ),
    },
    preferences=(
        "I don't want to pay anything today",
        "please give me the amount in dollars and cents",
        "I only want the figure, not a payment",
        "I'd like to know what the amount includes",
        "the loan itself should stay as it is",
        "I'd like it explained simply",
        "I don't want a sales pitch",
        "I'll decide later",
    ),
    personas=LOAN_PERSONAS,
)

NEXT_DUE = Bank(
    requests=(
        "When is the next payment on my {loan} due, and how much is it?",
        "Could you tell me the next due date and amount on my {loan}?",
        "I'd like to know when my next {loan} payment is due and what it is.",
        "I'm calling to check my next {loan} payment.",
        "Is it possible to find out when my {loan} is next due and for how much?",
        "What I need is the date and amount of my next {loan} payment.",
        "Can we check when my {loan} payment is next due, and the amount?",
        "Please tell me my next {loan} due date and payment amount.",
    ),
    wants=(
        "you want to know when the next payment of your {loan} is due and how much it is",
        "you are calling to check the date and amount of your next {loan} payment",
        "finding out when your {loan} is next due, and for how much, is your aim",
        "you would like to hear the next due date and payment amount of your {loan}",
        "you need the date and amount of your next {loan} payment",
        "learning when your next {loan} payment falls due, and its amount, is the goal",
        "you mean to check the next {loan} payment: its date and its amount",
        "you are after the due date and size of your next {loan} payment",
    ),
    reasons={
        "": (
            "I'm planning my budget for the coming weeks",
            "I want to make sure the money is there in time",
            "I lost the last statement",
            "I'd like to put it in my calendar",
            "I'm lining up my payments for the month",
            "I'm not sure when it comes out",
            "I want to avoid any surprises",
            "I like to double-check before payday",
        ),
    },
    preferences=(
        "I don't want to pay anything today",
        "please give me the amount in dollars and cents",
        "I only want the date and amount, not a payment",
        "the loan itself should stay as it is",
        "I'd like it explained simply",
        "I'd like to hear whether anything is past due",
        "I don't want a sales pitch",
        "I only need the facts",
    ),
    personas=LOAN_PERSONAS,
)

MORE: dict[str, Bank] = {
    "dispute_charge": DISPUTE_CHARGE,
    "dispute_too_late": DISPUTE_TOO_LATE,
    "loan_payment": LOAN_PAYMENT,
    "loan_payoff": LOAN_PAYOFF,
    "move_due_date": MOVE_DUE_DATE,
    "move_due_date_refused": MOVE_DUE_DATE_REFUSED,
    "payoff_quote": PAYOFF_QUOTE,
    "next_due": NEXT_DUE,
}
