"""Travel phrase banks, second part (see phrases.py): travel insurance, insurance claims and the two
questions. `MORE` is merged into `phrases.BANKS`.

Slots: `{booking}` an existing booking, `{plan}` ("basic", "comprehensive"), `{category}` a claim
category, `{day}` and `{date}` the incident (or cancellation) day, `{amount}` what the customer
claims for a loss during the trip ("240 dollars"). A cancellation claim names no amount: it asks back
the fee the booking shows, which the agent looks up.

Reason keys: insurance's key is the main point; a trip claim's key is its category and, for baggage and
delays, when in the trip it happened ("baggage_arrival" on the first day, "baggage_during" later,
"delay_out" on the first day, "delay_home" on the last, "medical" any day of the trip)."""

from __future__ import annotations

from taue.envs.runtime.authoring import Bank

TRAVELLERS = (
    "a teacher planning a trip around the school holidays",
    "a freelance designer who travels between projects",
    "a frequent traveller who knows the booking terms well",
    "a careful planner who double-checks every detail",
)
REFUSAL_TAKEN = (
    "if it can't be done, I'd like to know why",
    "if the rules don't allow it, please just say so plainly",
    "if it isn't possible, I'd like to hear what my options are",
    "I'd rather hear the truth than be given false hope",
    "if the answer is no, a short explanation is enough",
    "I don't want to be transferred; just tell me what is possible",
    "please check the details before telling me no",
    "if it's not allowed, I'll leave things as they are",
)

# ---------------------------------------------------------------------------------------- insurance

INSURE_REQUESTS = (
    "Could you add {plan} travel insurance to my {booking}?",
    "I need {plan} insurance on my {booking}.",
    "Please put {plan} travel insurance on my {booking}.",
    "I'd like to add {plan} travel insurance to my {booking}.",
    "Is it possible to insure my {booking} with the {plan} plan?",
    "I'm calling to add the {plan} insurance plan to my {booking}.",
    "What I want is {plan} travel insurance on my {booking}.",
    "Can we add {plan} cover to my {booking}?",
)
INSURE_WANTS = (
    "you want {plan} travel insurance added to your {booking}",
    "you need the {plan} insurance plan on your {booking}",
    "insuring your {booking} with the {plan} plan is what you called about",
    "you would like your {booking} covered by {plan} travel insurance",
    "you are asking for {plan} insurance to be put on your {booking}",
    "you have decided to take the {plan} plan for your {booking}",
    "you want your {booking} protected with {plan} travel insurance",
    "getting {plan} travel insurance on your {booking} is what you are after",
)
INSURE_REASONS = {
    "basic": (
        "I'd like my luggage covered while I'm away",
        "I want some protection in case I have to cancel",
        "a friend lost a suitcase last year and I'd rather be covered",
        "the basic cover is all I need for this trip",
        "I want peace of mind about my bags",
        "I'd like cover if something forces me to cancel",
        "I have health cover already and only need the rest",
        "I want simple protection without paying for extras",
    ),
    "comprehensive": (
        "I want medical cover while I'm abroad",
        "I'd like to be covered for delays as well as the rest",
        "I want the fullest protection on this trip",
        "I'd rather be covered for everything, doctors included",
        "flights have been unreliable lately and I want delay cover",
        "I don't have health cover that works abroad",
        "I want peace of mind about anything that could go wrong",
        "the full plan suits a trip of this size",
    ),
}
INSURE_REASONS[""] = INSURE_REASONS["comprehensive"]

ADD_INSURANCE = Bank(
    requests=INSURE_REQUESTS,
    wants=INSURE_WANTS,
    reasons=INSURE_REASONS,
    preferences=(
        "I'd like to hear what it costs before it's added",
        "please tell me exactly what the plan covers first",
        "I want a confirmation with the policy number once it's done",
        "I'd rather go one step at a time, with a check before anything is charged",
        "I'd like the booking checked first so the right one is insured",
        "I'd like to know which card the premium goes on before I agree",
        "nothing else about the booking should change",
        "I'd like the plan's limits explained briefly",
    ),
    personas=TRAVELLERS,
)

LATE_INSURANCE = Bank(INSURE_REQUESTS, INSURE_WANTS, INSURE_REASONS, REFUSAL_TAKEN, TRAVELLERS)

# --------------------------------------------------------------------------------------------- claims

CLAIM_REQUESTS = (
    "Could you file a {category} claim on the insurance of my {booking}? It happened on {day}, and "
    "I'm claiming {amount}.",
    "I need to make a {category} claim on the insurance of my {booking} for {amount}; the incident was "
    "on {day}.",
    "Please open a {category} claim on the insurance of my {booking}: it happened on {day}, and the "
    "amount is {amount}.",
    "I'd like to claim {amount} on the insurance of my {booking}, a {category} claim for {day}.",
    "Is it possible to file a {category} claim for {amount} on the insurance on my {booking}? It was "
    "on {day}.",
    "I'm calling to file a {category} claim on the insurance of my {booking}, for something on {day}; "
    "I'm asking for {amount}.",
    "What I need is a {category} claim on the insurance of my {booking} for {amount}, for what "
    "happened on {day}.",
    "Can we file a {category} claim on the insurance on my {booking}? {amount}, for an incident on {day}.",
)
CLAIM_WANTS = (
    "you want to file a {category} claim for {amount} on the travel insurance of your {booking}, for "
    "an incident on {day} ({date})",
    "you need a {category} claim of {amount} filed on the insurance of your {booking}; it happened on "
    "{day} ({date})",
    "filing a {category} claim on the insurance of your {booking} for {amount} is what you have in mind, "
    "the incident being on {day} ({date})",
    "you would like to claim {amount} on the travel insurance of your {booking}, a {category} claim "
    "for {day} ({date})",
    "you are asking for a {category} claim of {amount} on the insurance on your {booking}, for {day} "
    "({date})",
    "you have decided to claim {amount} on the insurance of your {booking}, in the {category} "
    "category, for what happened on {day} ({date})",
    "you want the insurance of your {booking} to take a {category} claim of {amount} for {day} ({date})",
    "getting a {category} claim of {amount} filed on the insurance of your {booking}, for {day} "
    "({date}), is what you are calling about",
)
CLAIM_REASONS = {
    "baggage_arrival": (
        "the airline lost my suitcase on the way there",
        "my checked bag never arrived when I landed",
        "my suitcase came off the plane smashed when I arrived",
        "my luggage went missing on the flight out",
        "I landed and my bag was nowhere to be found",
        "my suitcase was sent to the wrong city on the way there",
        "the bag I checked for the flight out was ripped open on arrival",
        "my luggage didn't make it onto my flight there",
    ),
    "baggage_during": (
        "my suitcase was stolen while I was out for the day",
        "my bag was taken from a café table",
        "my luggage was damaged on a train during the trip",
        "someone took my backpack at a market",
        "my suitcase was broken on a day trip",
        "my camera bag was stolen on a bus",
        "my bag was lost on a ferry crossing",
        "my luggage was ruined by a burst pipe where I was staying",
    ),
    "medical": (
        "I came down with an ear infection and needed a doctor",
        "I sprained my ankle and needed an X-ray",
        "I got food poisoning and had to see a doctor",
        "I had a bad fever and went to a clinic",
        "I cut my hand and needed stitches",
        "I had an allergic reaction and needed treatment",
        "I hurt my back and had to see a physiotherapist",
        "I caught a chest infection and needed antibiotics",
    ),
    "delay_out": (
        "my flight there was delayed by eleven hours",
        "my outbound flight was held overnight and I had to buy meals",
        "the flight out left many hours late",
        "my flight there was delayed so long that I lost the first day",
        "I was stuck at the airport for most of the day waiting to fly out",
        "the flight out was postponed until late at night",
        "my departure was delayed for hours with no explanation",
        "a long delay on the way there cost me meals and a taxi",
    ),
    "delay_home": (
        "my flight home was delayed by eleven hours",
        "the flight back was held overnight and I had to buy meals",
        "my return flight left many hours late",
        "I was stuck at the airport for most of the day waiting to fly home",
        "the flight home was postponed until late at night",
        "my flight back was delayed for hours with no explanation",
        "a long delay on the way home cost me meals and a taxi",
        "my return was pushed back so far that I needed somewhere to rest",
    ),
}
CLAIM_REASONS[""] = CLAIM_REASONS["medical"]
CLAIM_PREFERENCES = (
    "I'd like the claim read back to me before it's filed",
    "please tell me what happens after it's submitted",
    "I want the claim number once it's filed",
    "I'd rather go one step at a time, with a check before anything is filed",
    "please check which policy covers that booking first",
    "I'd like to know how long the review usually takes",
    "please make sure the date is exactly the one I gave",
    "I'd like to hear the plan's limit for this kind of claim",
)

FILE_CLAIM = Bank(CLAIM_REQUESTS, CLAIM_WANTS, CLAIM_REASONS, CLAIM_PREFERENCES, TRAVELLERS)

UNCOVERED_CLAIM = Bank(
    requests=CLAIM_REQUESTS,
    wants=CLAIM_WANTS,
    reasons={"": CLAIM_REASONS["medical"]},
    preferences=REFUSAL_TAKEN,
    personas=TRAVELLERS,
)

CLAIM_CANCELLATION = Bank(
    requests=(
        "Could you file a cancellation claim on the insurance of my {booking}? I cancelled it on {day} "
        "and want the cancellation fee back.",
        "I need to claim the cancellation fee on my {booking} from its insurance; I cancelled on {day}.",
        "Please open a cancellation claim on the insurance of my {booking} for the fee I was charged "
        "when I cancelled on {day}.",
        "I'd like to claim back the cancellation fee of my {booking}, which I cancelled on {day}, from "
        "the insurance.",
        "Is it possible to file a cancellation claim for the fee on my {booking}? I cancelled it on {day}.",
        "I'm calling to claim the cancellation fee of my {booking} on its insurance; it was cancelled "
        "on {day}.",
        "What I want is a cancellation claim on the insurance of my {booking}, for the fee from when I "
        "cancelled on {day}.",
        "Can we file a cancellation claim on the insurance on my {booking}? It's for the fee I paid when I "
        "cancelled on {day}.",
    ),
    wants=(
        "you want to file a cancellation claim on the travel insurance of your {booking}, cancelled on "
        "{day} ({date}), for the cancellation fee you were charged",
        "you need the cancellation fee of your {booking} claimed on its insurance; you cancelled it on "
        "{day} ({date})",
        "claiming back the cancellation fee of your {booking}, cancelled on {day} ({date}), from its "
        "insurance is what you came for",
        "you would like a cancellation claim on the insurance on your {booking} for the fee of the "
        "cancellation on {day} ({date})",
        "you are asking for a cancellation claim on the insurance of your {booking}, which you "
        "cancelled on {day} ({date}), for the whole fee you were charged",
        "you have decided to claim the cancellation fee of your {booking} (cancelled on {day}, {date}) "
        "from its insurance",
        "you want the insurance of your {booking} to cover the fee from your cancellation on {day} ({date})",
        "getting a cancellation claim for the fee of your {booking}, cancelled on {day} ({date}), filed "
        "on its insurance is on your list",
    ),
    reasons={
        "": (
            "I had to cancel because of a family emergency",
            "I fell ill just before the trip and had to cancel",
            "a close relative was taken to hospital and I had to stay",
            "I broke my wrist the week before and couldn't travel",
            "a storm made the trip impossible and I cancelled",
            "I had to cancel for an urgent medical reason",
            "a death in the family forced me to cancel",
            "my home was flooded and I had to stay and deal with it",
        )
    },
    preferences=(
        "I'd like the claim read back to me before it's filed",
        "I'd like to hear the fee on the booking before anything is filed",
        "I want the claim number once it's filed",
        "I'd rather go one step at a time, with a check before anything is filed",
        "please check which policy covers that booking first",
        "I'd like to know how long the review usually takes",
        "please make sure the date is the day I cancelled",
        "I'd like to know what documents the claims team may ask for",
    ),
    personas=TRAVELLERS,
)

# ---------------------------------------------------------------------------------------- questions

CLAIM_STATUS = Bank(
    requests=(
        "Could you tell me where my {category} claim on the insurance of my {booking} stands?",
        "I need an update on the {category} claim I filed on the insurance on my {booking}.",
        "Please check the status of my {category} claim on the insurance of my {booking}.",
        "I'd like to know what's happening with my {category} claim on my {booking}.",
        "Is it possible to check my {category} claim on the insurance of my {booking}?",
        "I'm calling about the {category} claim on the insurance of my {booking}: where is it?",
        "What I want to know is the status of my {category} claim on the insurance on my {booking}.",
        "Can we look at my {category} claim on the insurance of my {booking}?",
    ),
    wants=(
        "you filed a {category} claim on the travel insurance of your {booking} and want to know where "
        "it stands and, if it has been decided, how much it pays",
        "you need the status of your {category} claim on the insurance on your {booking}, and the amount if "
        "it was decided",
        "finding out where your {category} claim on the insurance of your {booking} stands is what you "
        "are after, with the approved amount if there is one",
        "you would like an update on your {category} claim on the insurance on your {booking} and any "
        "amount approved",
        "you are asking about the {category} claim on the insurance of your {booking}: its status and, "
        "if decided, what it pays",
        "you want to hear the state of your {category} claim on the insurance on your {booking}, including "
        "any approved amount",
        "you have a {category} claim on the insurance of your {booking} and want its status and any "
        "amount it pays",
        "getting the status of your {category} claim on the insurance on your {booking}, and any amount "
        "approved, is what you would like",
    ),
    reasons={
        "": (
            "I haven't had any news about it",
            "I'm keeping track of my expenses from the trip",
            "I want to know whether to expect any money",
            "I'd like to plan my budget around it",
            "I want to be sure nothing is missing from it",
            "I lost the email about it",
            "I'd like to know whether anyone has looked at it yet",
            "I want to close the matter if it's done",
        )
    },
    preferences=(
        "I don't want anything changed, just the status",
        "please read me the decision note if there is one",
        "I'd like the answer short and clear",
        "please tell me the amount if one was approved",
        "I only want information today",
        "please don't file anything new",
        "I'd like to know the next step if it's still open",
        "please double-check which claim it is before answering",
    ),
    personas=TRAVELLERS,
)

REFUND_CHECK = Bank(
    requests=(
        "Could you tell me how much was refunded for my cancelled {booking}?",
        "I need to know the refund I got for my {booking}, which I cancelled.",
        "Please check how much came back to me for my cancelled {booking}.",
        "I'd like to know the refund amount for my {booking}; it was cancelled.",
        "Is it possible to see what was refunded on my cancelled {booking}?",
        "I'm calling about my cancelled {booking}: how much was refunded?",
        "What I want to know is the refund on my {booking}, which I cancelled.",
        "Can we check the refund for my cancelled {booking}?",
    ),
    wants=(
        "you cancelled your {booking} and want to know how much was refunded",
        "you need the refund amount of your cancelled {booking}",
        "finding out what was refunded for your cancelled {booking} is why you are calling",
        "you would like to hear how much came back for your {booking}, which you cancelled",
        "you are asking how much the refund was on your cancelled {booking}",
        "you want to check the refund of your {booking}, cancelled earlier",
        "you have cancelled your {booking} and want the refunded amount",
        "getting the refund amount of your cancelled {booking} is your goal",
    ),
    reasons={
        "": (
            "I want to check it against my card statement",
            "I'm keeping track of my travel spending",
            "the amount on my statement looks different from what I expected",
            "I'm doing my accounts for the month",
            "I'd like to know whether any fee was kept",
            "I can't find the cancellation email",
            "I'm planning my next trip's budget",
            "I want to be sure the money came back",
        )
    },
    preferences=(
        "I don't want anything changed, just the amount",
        "please tell me which card it went back to",
        "I'd like the answer short and clear",
        "please double-check which booking it is first",
        "I only want information today",
        "I'd like to know the fee kept, if any",
        "please read the amount back slowly",
        "nothing else needs doing on the booking",
    ),
    personas=TRAVELLERS,
)

MORE: dict[str, Bank] = {
    "add_insurance": ADD_INSURANCE,
    "late_insurance": LATE_INSURANCE,
    "file_claim": FILE_CLAIM,
    "claim_cancellation": CLAIM_CANCELLATION,
    "uncovered_claim": UNCOVERED_CLAIM,
    "claim_status": CLAIM_STATUS,
    "refund_check": REFUND_CHECK,
}
