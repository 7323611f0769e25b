"""Telehealth phrase banks for records, prescriptions and information questions (see phrases.py)."""

from __future__ import annotations

from taue.envs.runtime.authoring import Bank

# ------------------------------------------------------------------------------------ a note to file

NOTE = Bank(
    requests=(
        "Please add this note to {record}: '{note}'.",
        "Could you put a note on {record}? It should say '{note}'.",
        "I need a note added to {record} that reads '{note}'.",
        "I'd like this written on {record}: '{note}'.",
        "Is it possible to attach a note to {record} saying '{note}'?",
        "I'm calling to leave a note for the care team on {record}: '{note}'.",
        "What I want is a note on {record} with the words '{note}'.",
        "Can we add '{note}' as a note on {record}?",
    ),
    wants=(
        "you want the note '{note}' added to {your_record}",
        "you need the care team to see '{note}' as a note on {your_record}",
        "you would like '{note}' written on {your_record}",
        "getting the note '{note}' onto {your_record} is your aim",
        "you want {your_record} to carry the note '{note}'",
        "you plan to have '{note}' filed as a note on {your_record}",
        "you are hoping the agent will record '{note}' on {your_record}",
        "your aim is a note reading '{note}' on {your_record}",
    ),
    reasons={
        "": (
            "I want the care team to see it in writing",
            "phone messages to the clinic tend to get lost",
            "the nurse told me to put requests like this on my record",
            "I could not get through to the care team by phone",
            "I want it on file before my next visit",
            "it is easier for the doctor if it is on my chart",
            "I would like a written trace of what I asked",
            "I forgot to mention it during my last visit",
        ),
    },
    preferences=(
        "I'd like the note read back to me word for word before it is saved",
        "please add it exactly as I said it",
        "only that record should get the note",
        "I'd like to hear once the note is on my record",
        "the wording should stay exactly as I gave it",
        "I prefer to confirm which record it goes on first",
        "I don't want any other part of my record changed",
        "please keep the note short, just as I gave it",
    ),
    personas=(
        "a retired postal worker who keeps a paper diary of every appointment",
        "a night-shift nurse calling between two shifts",
        "a caregiver who fits their own care around a parent's visits",
    ),
)

# --------------------------------------------------------------------------- a prescription supplier

SUPPLIER_REQUESTS = (
    "Please switch the {medication} prescription on my medical record from {record_date} to {wanted}.",
    "Could you move my {medication} prescription (record from {record_date}) over to {wanted}?",
    "I need my {medication} prescription from my {record_date} record filled by {wanted} instead.",
    "I'd like the supplier of my {medication} prescription, on my {record_date} record, changed to {wanted}.",
    "Is it possible to have my {medication} prescription from {record_date} supplied by {wanted}?",
    "I'm calling to change who supplies the {medication} on my {record_date} record; I want {wanted}.",
    "What I want is {wanted} for the {medication} prescription on my record from {record_date}.",
    "Can we switch my {medication} prescription (my record from {record_date}) to {wanted}?",
)
SUPPLIER_WANTS = (
    "you want the {medication} prescription on your medical record from {record_date} switched to {wanted}",
    "you need your {medication} prescription from {record_date} filled by {wanted} from now on",
    "you would like {wanted} to supply the {medication} on your {record_date} record",
    "moving your {medication} prescription (record from {record_date}) to {wanted} is what you need",
    "you are after a supplier change for the {medication} on your {record_date} record: {wanted}",
    "you want {wanted} as the supplier of your {medication} prescription from {record_date}",
    "you have decided the {medication} on your record from {record_date} should come from {wanted}",
    "you hope to have your {medication} prescription from {record_date} moved to {wanted}",
)
SUPPLIER_PREFERENCES = (
    "I'd like the company, brand and price read back to me before anything changes",
    "please change only the {medication} prescription, nothing else",
    "I want to hear the new price before the switch is made",
    "I'd like to know which brand I will be getting",
    "please leave my other prescriptions as they are",
    "I prefer to confirm the supplier details before anything is saved",
    "I'd like a short summary once it is switched",
    "the dose and everything else about the prescription should stay the same",
)
SUPPLIER_PERSONAS = (
    "a freelance designer who pays close attention to costs",
    "a newly retired engineer who likes to double-check details",
    "a part-time bookkeeper on a tight monthly budget",
)

SWITCH = Bank(
    requests=SUPPLIER_REQUESTS,
    wants=SUPPLIER_WANTS,
    reasons={
        "": (
            "I want to look at other options for this prescription",
            "my current supplier has been slow to deliver",
            "I have had trouble getting it from the current supplier",
            "I want a supplier I feel comfortable with",
            "my pharmacy suggested a change",
            "I would like more say in where my medicine comes from",
            "the current arrangement has not worked well for me",
            "I have read good things about other suppliers",
        ),
        "cheapest": (
            "the price of this medicine adds up every month",
            "my deductible is high this year, so I pay the full price",
            "I want to spend less on a medicine I take every day",
            "money is tight and every dollar counts",
            "I heard there are cheaper suppliers on the list",
            "I pay for it out of pocket and want the lowest price",
            "my budget changed after I retired",
            "the last refill cost more than I expected",
        ),
        "country": (
            "I prefer medicine made in {country}",
            "I trust suppliers from {country}",
            "my previous pharmacist recommended products from {country}",
            "I had a good experience with a supplier from {country} before",
            "I would like my medicine to come from {country}",
            "a friend who is a pharmacist suggested suppliers from {country}",
            "shipping from {country} has been reliable for me",
            "I feel more at ease with a company based in {country}",
        ),
        "named": (
            "my pharmacist recommended {wanted}",
            "I have used {wanted} before and was happy with them",
            "a friend gets their medicine from {wanted} and likes them",
            "I read good reviews of {wanted}",
            "{wanted} has been reliable for my other medicines",
            "I know {wanted} from an earlier prescription",
            "my previous doctor used to send prescriptions to {wanted}",
            "I would like all my medicines from {wanted} eventually",
        ),
    },
    preferences=SUPPLIER_PREFERENCES,
    personas=SUPPLIER_PERSONAS,
)

PRICE_MATCH = Bank(
    requests=(
        "Please switch my {medication} prescription (on my medical record from {record_date}) to {quoted}, "
        "the price they quoted me.",
        "Could you move my {medication} prescription from my {record_date} record to {quoted}? That's the "
        "price they gave me.",
        "I need my {medication} prescription from {record_date} switched to {quoted}, as quoted to me.",
        "I'd like the {medication} on my {record_date} record supplied by {quoted}, the price I was quoted.",
        "Is it possible to switch my {medication} prescription (record from {record_date}) to {quoted}? "
        "They quoted me that price.",
        "I'm calling to move my {medication} prescription from my {record_date} record to {quoted}, which "
        "is what they quoted me.",
        "What I want is my {medication} prescription from {record_date} at {quoted}, the quote I got.",
        "Can we switch the {medication} prescription on my {record_date} record to {quoted}, as they quoted?",
    ),
    wants=(
        "you want your {medication} prescription (on your medical record from {record_date}) switched to "
        "{quoted}, the price you were quoted",
        "you need the {medication} on your {record_date} record supplied by {quoted}, as quoted to you",
        "you would like your {medication} prescription from {record_date} moved to {quoted}, your quote",
        "getting your {medication} prescription from {record_date} switched to {quoted} is what you "
        "need; that "
        "is the price you were quoted",
        "you are after {quoted} for the {medication} on your record from {record_date}, as quoted to you",
        "you want {quoted} for your {medication} prescription from {record_date}, the quote you received",
        "you have a quote of {quoted} and want the {medication} on your {record_date} record switched",
        "you hope to move the {medication} prescription from {record_date} to {quoted}, the quoted price",
    ),
    reasons={
        "": (
            "their sales team quoted me that price on the phone",
            "I saw that price in an email offer from them",
            "a friend said they got that price from the same company",
            "their website showed that price when I looked last week",
            "the price is much better than what I pay now",
            "I was told that price would apply to new customers",
            "I compared prices and that quote was the lowest",
            "I pay out of pocket and that quote would save me a lot",
        ),
    },
    preferences=(
        "if that price can't be used, I'd rather keep my current supplier",
        "I only want the switch at the price I was quoted",
        "if the quote isn't valid here, please leave the prescription as it is",
        "I don't want to be switched at a different price",
        "if it can't be done at that price, just tell me why",
        "I don't want another supplier picked for me",
        "if that offer isn't possible, I'll look into it again myself",
        "please leave everything unchanged if the quote can't be honoured",
    ),
    personas=SUPPLIER_PERSONAS,
)

# ------------------------------------------------------------------------------ information questions

LINK = Bank(
    requests=(
        "What is the video link for my {visit}, and the doctor's phone number in case I can't join?",
        "Could you give me the meeting link for my {visit}, plus the doctor's phone number as a backup?",
        "I need the video link for my {visit} and a phone number for the doctor in case the call fails.",
        "I'd like the link to join my {visit}, and the doctor's phone number too.",
        "Is it possible to get the link for my {visit} and the doctor's number in case the video fails?",
        "I'm calling for the meeting link of my {visit} and the doctor's phone number.",
        "What I need is the link for my {visit} and the doctor's phone number in case I can't connect.",
        "Can you tell me the video link for my {visit} and how to phone the doctor if it doesn't work?",
    ),
    wants=(
        "you want the video meeting link for your {visit}, and the doctor's phone number in case you cannot "
        "join",
        "you need the link for your {visit} and a phone number for the doctor as a backup",
        "you would like the joining link of your {visit} plus the doctor's phone number",
        "getting the link for your {visit} and the doctor's phone number is what you want",
        "you are looking for the video link of your {visit} and the doctor's number in case the call fails",
        "you want to know how to join your {visit} and which number to call if the video fails",
        "you hope to get the meeting link for your {visit} and the doctor's phone number",
        "your aim is the link to your {visit} and the doctor's phone number",
    ),
    reasons={
        "": (
            "I can't find the confirmation email with the link",
            "I deleted the reminder by accident",
            "I want everything ready well before the visit",
            "my email filters sometimes hide messages like that",
            "I am joining from a different device this time",
            "my connection is unreliable, so I want a phone number too",
            "I like to write the details down on paper",
            "I changed email addresses and may have missed the message",
        ),
        "soon": (
            "the visit is only days away and I can't find the link",
            "I want to test the link before the visit this week",
            "I don't want to scramble for the link on the day",
            "the visit is coming up soon and the reminder never arrived",
            "my internet has been patchy this week",
            "I want to set up my laptop ahead of the visit this week",
            "I will be joining from work, so I need the details soon",
            "I lost the reminder and the visit is close",
        ),
    },
    preferences=(
        "please read the link out slowly so I can write it down",
        "I'd like the phone number repeated once",
        "I don't need anything changed, just the details",
        "please leave the appointment exactly as it is",
        "I only want the link and the number, nothing else",
        "I'd like to confirm which visit the link belongs to",
        "please spell out anything unusual in the link",
        "a quick answer is all I need",
    ),
    personas=(
        "a farmer calling on a patchy rural connection",
        "a retired engineer who likes to double-check details",
        "a graduate student who joins calls from the library",
    ),
)

INTERACTION = Bank(
    requests=(
        "I was told to start {new}. Can you check it against my current medicines and tell me how many "
        "hours the risk window lasts?",
        "Could you check {new} against what I already take, and tell me how many hours the risk window is?",
        "I need {new} checked against my current medicines, including how long the risk window lasts in "
        "hours.",
        "I'd like an interaction check for {new} with my current medicines and the risk window in hours.",
        "Is it possible to check {new} with my other medicines and tell me how many hours the risk lasts?",
        "I'm calling because I'm meant to start {new}; please check it against my medicines and give me "
        "the risk window in hours.",
        "What I want to know is whether {new} interacts with my medicines, and for how many hours.",
        "Can we run {new} against my current medicines? I need the length of the risk window in hours.",
    ),
    wants=(
        "you were told to start {new} and want it checked against your current medicines, and to know how "
        "many hours the risk window lasts",
        "you need {new} checked against what you already take, with the risk window in hours",
        "you would like an interaction check of {new} with your current medicines and the risk window's "
        "length in hours",
        "you want to know whether {new} clashes with your medicines and for how many hours",
        "checking {new} against your current medicines, and the hours of the risk window, is what "
        "you ask for",
        "you are about to start {new} and want the interaction check and the risk window in hours",
        "you hope to learn how {new} fits with your medicines and how long the risk window lasts",
        "your question is how {new} interacts with your current medicines and for how many hours",
    ),
    reasons={
        "": (
            "I want to be sure it is safe with what I already take",
            "I take several medicines and worry about mixing them",
            "the pharmacist suggested I check before starting",
            "I had a bad reaction to a combination once",
            "I want to plan the timing of my doses",
            "I like to know what I am putting in my body",
            "a relative had trouble with a drug interaction",
            "the leaflet mentioned interactions and confused me",
        ),
    },
    preferences=(
        "please read me the result exactly as it is written",
        "I don't want any changes made to my medicines",
        "I'd like the hours said clearly",
        "please tell me if anything needs urgent attention",
        "I only want the facts from the check, not advice",
        "I'd like to know which medicines the check mentions",
        "please keep it simple and clear",
        "I'll talk to my doctor about the details, I just need the check",
    ),
    personas=(
        "a careful retiree with a weekly pill organiser",
        "a software developer who prefers quick, precise answers",
        "a caregiver who fits their own care around a parent's visits",
    ),
)

MORE: dict[str, Bank] = {
    "add_note": NOTE,
    "switch_supplier": SWITCH,
    "supplier_price_match": PRICE_MATCH,
    "visit_link": LINK,
    "interaction_check": INTERACTION,
}
