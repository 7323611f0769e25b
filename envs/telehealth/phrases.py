"""How telehealth patients put their needs into words (docs/tracer.md, "Phrase banks"): one `Bank`
per intent, its `{slot}` names filled by the grounders of tracer.py. Appointment intents here; records
and prescriptions in phrases_more.py, merged into `BANKS`."""

from __future__ import annotations

from taue.envs.runtime.authoring import Bank
from taue.envs.telehealth.phrases_more import MORE

# ----------------------------------------------------------------------------------- moving a visit

MOVE_REQUESTS = (
    "Could you move my {visit} to {new_date} at {new_time}?",
    "I need my {visit} moved to {new_date} at {new_time}, please.",
    "Please shift my {visit} to {new_date}, {new_time}.",
    "I'd like to reschedule my {visit}; {new_date} at {new_time} would work for me.",
    "Is it possible to put my {visit} on {new_date} at {new_time} instead?",
    "I'm calling to change the time of my {visit}. Can it be {new_date} at {new_time}?",
    "What I want is my {visit} moved to {new_date} at {new_time}, same doctor.",
    "Can we push my {visit} over to {new_date} at {new_time}?",
)
MOVE_WANTS = (
    "you want your {visit} moved to {new_date} at {new_time}, with the same doctor",
    "you need the {visit} rescheduled to {new_date} at {new_time}",
    "your goal is to have the {visit} shifted to {new_date} at {new_time}",
    "you have picked {new_date} at {new_time} as the new time for your {visit}",
    "you would like your {visit} to take place on {new_date} at {new_time} instead",
    "moving your {visit} to {new_date} at {new_time} is what you would like",
    "you are hoping to change your {visit} to {new_date} at {new_time}",
    "you want to keep the same doctor but have your {visit} on {new_date} at {new_time}",
)
MOVE_REASONS = {
    "": (
        "the current time no longer fits my week",
        "my schedule changed after I booked it",
        "the original time was a guess and the new one suits me better",
        "I have a clash at the booked time",
        "I want a time when I can sit somewhere quiet for the call",
        "my shifts were rearranged",
        "the new time lines up better with my other commitments",
        "I can give the visit my full attention at the new time",
    ),
    "earlier": (
        "I would rather be seen sooner than wait",
        "I have questions that are better answered before my next refill",
        "a block of free time opened up for me earlier",
        "I want this settled before a busy stretch at work",
        "I am going away later in the month and want the visit done first",
        "my symptoms have been bothering me and sooner feels safer",
        "my new shift pattern starts later, so the earlier date is easier",
        "an earlier date means less time off work when things get hectic",
    ),
    "later": (
        "I will be travelling around the original date",
        "something at work came up that I cannot move",
        "I have a family commitment on the booked day",
        "I need time to gather my home readings before the visit",
        "the original day falls in a week that is packed for me",
        "I want my lab results back before I talk to the doctor",
        "I cannot get a quiet spot for a video call that day",
        "a later date gives me a chance to try the current plan a little longer",
    ),
    "same_day": (
        "the day is fine but the hour clashes with something",
        "I have another appointment that morning",
        "I need to pick someone up around the booked time",
        "my lunch break moved and the booked hour no longer works",
        "the booked hour overlaps with a work meeting",
        "a different hour that day lets me join from home",
        "the booked time is right when I am on the road",
        "the new hour fits the rest of my day much better",
    ),
}
MOVE_PREFERENCES = (
    "I'd like the new date and time read back to me before anything is changed",
    "please keep the same doctor and the same meeting link",
    "I want nothing else about the visit changed, only the time",
    "I'd like to hear the confirmed time once it is done",
    "please tell me if the copay changes at all",
    "I prefer to confirm each detail before anything is done",
    "I'd rather not end up with two visits on the calendar",
    "once it's moved, I'd like to know the appointment is still under the same doctor",
)
MOVE_REFUSED_PREFERENCES = (
    "if that exact time is not possible, I'd rather keep the visit as it is for now",
    "I only want that time; if it can't be done, leave my visit unchanged",
    "if the doctor isn't free then, I don't want it moved anywhere else",
    "I don't want a different time picked for me; I'll look at my calendar again later",
    "if the time doesn't work, just tell me why and keep the current booking",
    "I'd rather sort out another time myself later than take a slot I haven't checked",
    "I don't want the visit shifted to a time I haven't agreed to",
    "if it can't be that slot, I'll keep the original appointment",
)
MOVE_INSTEAD = Bank(
    requests=(
        "If that time can't be had, could you move my {visit} to {new_date} at {new_time} instead?",
        "Then please put my {visit} on {new_date} at {new_time}; that slot works too.",
        "In that case, {new_date} at {new_time} would do for my {visit}.",
        "Alright, could the {visit} go to {new_date} at {new_time} then?",
        "If the doctor isn't free then, I'll take {new_date} at {new_time} for my {visit}.",
        "Then let's move my {visit} to {new_date} at {new_time} instead.",
        "Could you book the {visit} for {new_date} at {new_time} then? That's my second choice.",
        "Fine, {new_date} at {new_time} for my {visit} works if the other time doesn't.",
    ),
    wants=("you would take {new_date} at {new_time} for your {visit}",),
    reasons={"": ("",)},
    preferences=(
        "if that exact time is taken, {new_date} at {new_time} with the same doctor would work for me",
        "should the doctor not be free then, I'd settle for {new_date} at {new_time}",
        "if the time I asked for isn't possible, I'll take {new_date} at {new_time} instead",
        "failing that, {new_date} at {new_time} is my second choice for the visit",
        "if the schedule says no, moving it to {new_date} at {new_time} is fine",
        "when that slot is ruled out, {new_date} at {new_time} suits me as well",
        "if it can't be that slot, I'd have the visit on {new_date} at {new_time}",
        "if my first time is refused, {new_date} at {new_time} is the one I'd take",
    ),
)
MOVE_PERSONAS = (
    "a night-shift nurse who plans the week around the rota",
    "a sales representative whose calendar changes weekly",
    "a retired teacher who keeps a paper diary of appointments",
    "a warehouse supervisor with rotating shifts",
)

# ------------------------------------------------------------------------------ cancelling a visit

CANCEL_REQUESTS = (
    "Please cancel my {visit}.",
    "Could you cancel my {visit}?",
    "I need to cancel my {visit}.",
    "I'd like my {visit} taken off the calendar.",
    "I'm calling to cancel the {visit}.",
    "Is it possible to cancel my {visit} today?",
    "What I need is for my {visit} to be cancelled.",
    "Can we call off my {visit}?",
)
CANCEL_WANTS = (
    "you want your {visit} cancelled",
    "you have decided to call off your {visit}",
    "you need the {visit} taken off the calendar",
    "cancelling your {visit} is why you are calling",
    "you would like the {visit} cancelled",
    "you want to free up the slot of your {visit}",
    "you no longer want to keep your {visit}",
    "your aim is to have the {visit} cancelled",
)
CANCEL_REASONS = {
    "": (
        "my plans changed",
        "I booked it by mistake",
        "I no longer need the visit",
        "my circumstances have changed since I booked it",
        "I arranged care elsewhere",
        "the visit no longer fits my schedule",
        "I was booked for the wrong kind of visit",
        "my insurance situation is changing and I want to sort that out first",
    ),
    "soon": (
        "something urgent came up at work this week",
        "I am unwell in a way that needs an in-person clinic, not a video call",
        "a family emergency came up this week",
        "my internet at home is down for the next few days",
        "I was called in for an extra shift that day",
        "I have to travel at short notice",
        "I double-booked myself for that day",
        "a last-minute work trip came up",
    ),
    "better": (
        "I am feeling better and no longer need it",
        "the symptoms that made me book it have cleared up",
        "I have recovered since I booked it",
        "whatever I had seems to have passed",
        "I feel fine again after a few days of rest",
        "my pharmacist sorted me out in the meantime",
        "I was seen at an urgent care clinic over the weekend",
        "the problem went away on its own",
    ),
    "weeks": (
        "I will be travelling that week",
        "it clashes with my work schedule",
        "I have a family event that day",
        "I booked it by mistake",
        "I have started a new job and cannot take the time",
        "I will be away on a course that week",
        "I decided to see my local doctor in person instead",
        "my manager moved a deadline onto that day",
    ),
    "later": (
        "I booked it by mistake",
        "I am moving out of the area before then",
        "my new insurance starts before that date and I need to check coverage first",
        "I plan to go to a clinic closer to home instead",
        "I booked it in a rush and it is not the visit I need",
        "I will be abroad for most of that month",
        "I would rather book again nearer the time when I know my schedule",
        "I already have a visit with another doctor covering the same thing",
    ),
}
CANCEL_PREFERENCES = (
    "I'd like to hear that it has been cancelled before we move on",
    "I don't want anything else booked in its place",
    "I don't need a new time right now",
    "I'd like to hear which visit is being cancelled before it happens",
    "please make sure no other appointment is touched",
    "I'd rather not reschedule; a plain cancellation is fine",
    "I prefer a short confirmation once it is done",
    "I want to be sure I'm not charged a copay for it",
)
PAST_CANCEL_REASONS = {
    "": (
        "I want that visit off my list",
        "I don't want that visit counted against me",
        "I want my appointment history to be accurate",
        "I was told it might still be on my account",
        "the visit shows up in my portal and confuses me",
        "I am trying to tidy up my appointments",
        "I don't want a copay for it",
        "I want to be sure it is not held for me",
    ),
    "completed": (
        "I could not join the call properly that day and do not want it to count",
        "the connection dropped halfway through and I don't want to pay for it",
        "I think I was charged for it and want it taken off",
        "the doctor barely had time for me that day, so I want it undone",
        "I don't believe that visit should be on my record",
        "I was told I could cancel it and avoid the copay",
        "I would rather it was wiped so I can book a proper one",
        "I wasn't happy with it and don't want it on my history",
    ),
    "cancelled": (
        "I never got a confirmation that it was cancelled",
        "I'm not sure my earlier cancellation went through",
        "I want to be certain that slot is not held for me",
        "I got a reminder about it and got worried",
        "I cancelled by email and never heard back",
        "I want to be sure I won't be charged a no-show fee",
        "someone else in my family may have rebooked it by accident",
        "the portal still lists it and I want it properly cancelled",
    ),
}
PAST_CANCEL_PREFERENCES = (
    "if it can't be cancelled, I'd like to be told why",
    "I don't want anything else changed if it can't be done",
    "I don't want a replacement visit booked",
    "I only want that visit dealt with, nothing else",
    "if it is already settled, a clear explanation is enough for me",
    "I'd rather hear the status of that visit plainly",
    "please leave my other appointments alone",
    "if it can't be cancelled, I'll accept that but want the reason",
)
CANCEL_PERSONAS = (
    "a busy project manager whose calendar shifts weekly",
    "a retired postal worker who keeps a paper diary of every appointment",
    "a graduate student juggling classes and a new diagnosis",
    "a long-haul truck driver calling from a rest stop",
)

# ------------------------------------------------------------------------------------ a new visit

BOOK_REQUESTS = (
    "Please book a {kind} with {doctor} ({specialty}) on {date} at {time}{billing}.",
    "Could you book me a {kind} with {doctor} ({specialty}) on {date} at {time}{billing}?",
    "I need a {kind} with {doctor} ({specialty}) on {date} at {time}{billing}.",
    "I'd like to schedule a {kind} with {doctor} ({specialty}) for {date} at {time}{billing}.",
    "Is it possible to get a {kind} with {doctor} ({specialty}) on {date} at {time}{billing}?",
    "I'm calling to book a {kind} with {doctor} ({specialty}), {date} at {time}{billing}.",
    "What I'm after is a {kind} with {doctor} ({specialty}) on {date} at {time}{billing}.",
    "Can we set up a {kind} with {doctor} ({specialty}) on {date} at {time}{billing}?",
)
BOOK_WANTS = (
    "you want a {kind} with {doctor} ({specialty}) on {date} at {time}{billing}",
    "you need a {kind} booked with {doctor} ({specialty}) on {date} at {time}{billing}",
    "you would like to schedule a {kind} with {doctor} ({specialty}) for {date} at {time}{billing}",
    "booking a {kind} with {doctor} ({specialty}) on {date} at {time}{billing} is your goal",
    "you have picked {date} at {time} for a {kind} with {doctor} ({specialty}){billing}",
    "you are hoping to see {doctor} ({specialty}) for a {kind} on {date} at {time}{billing}",
    "you want to get a {kind} on the calendar with {doctor} ({specialty}), {date} at {time}{billing}",
    "your plan is a {kind} with {doctor} ({specialty}) on {date} at {time}{billing}",
)
BOOK_REASONS = {
    "": (
        "I have been meaning to book this for a while",
        "I want a doctor to look at how I am doing",
        "I prefer video visits because they save me the trip",
        "I have a few questions that need a doctor's answer",
        "my regular clinic had no openings",
        "I want to stay on top of my health this year",
        "it is easier for me to join a call than to travel",
        "a friend recommended this doctor to me",
    ),
    "routine_checkup": (
        "I am due for my yearly check-up",
        "it has been over a year since my last check-up",
        "I want a general check before the winter",
        "my employer asks us to have a yearly check",
        "I like to have a check-up every year",
        "I want my blood pressure and weight looked at",
        "I want to go over my overall health with a doctor",
        "I have not had a general check since moving here",
    ),
    "sick_visit": (
        "I have had a cough for several days",
        "I woke up with a sore throat and a fever",
        "I have had stomach trouble since the weekend",
        "my sinuses have been blocked for days",
        "I have a rash that is not going away",
        "I feel run down and want someone to check on me",
        "I have had headaches every day this week",
        "my ear has been aching for a few days",
    ),
    "specialist_consultation": (
        "my primary care doctor suggested I see a specialist",
        "I want a specialist's view on my condition",
        "my test results came back and need a closer look",
        "I have a referral and want to use it",
        "my symptoms have not improved with the usual treatment",
        "I want a second opinion from a specialist",
        "my condition has changed and I want expert advice",
        "I was told a specialist should review my case",
    ),
    "medication_review": (
        "I want my medicines reviewed together",
        "I have questions about the dose I am on",
        "I think some of my tablets might not be needed any more",
        "I want to talk about side effects I have noticed",
        "I take several medicines and want them checked by a doctor",
        "my pharmacist suggested a review of my prescriptions",
        "I want to go over whether my current dose is still right",
        "I have been on the same prescriptions for a long time",
    ),
    "device_coaching": (
        "I am not sure I am using my breathing device correctly",
        "I want help setting up my home device",
        "my device readings look odd and I want someone to walk me through it",
        "I was given a device and never had a proper lesson",
        "I want coaching on my inhaler technique",
        "I want to get more out of my home equipment",
        "my device settings confuse me",
        "I want to check I am cleaning and using my device the right way",
    ),
    "therapy_session": (
        "I have been feeling low and want to talk to someone",
        "I want regular support with my anxiety",
        "things have been stressful and I want help coping",
        "my doctor suggested I start therapy",
        "I want a session to work through some difficult weeks",
        "I want to keep working on my mental health",
        "my sleep has been poor because of worry",
        "I want a professional to talk things over with",
    ),
}
BOOK_PREFERENCES = (
    "I'd like the date, time and doctor read back to me before the booking is made",
    "please confirm the appointment id once it is booked",
    "I want to know what I will pay before anything is confirmed",
    "I'd like the meeting link once the booking is made",
    "I don't want anything booked that I haven't agreed to",
    "I'd like to confirm every detail before the booking goes through",
    "I prefer to hear the booking summarised at the end",
    "please keep it to the one visit I asked for",
)
BOOK_REFUSED_PREFERENCES = (
    "if that exact slot can't be booked, I'd rather leave it for now",
    "I only want that time and don't want to be booked anywhere else",
    "if the doctor isn't free then, just tell me why and I'll sort it out later",
    "I don't want a different doctor or a different time today",
    "if it can't be done, don't make a booking at all",
    "I'd rather check my calendar again than take another slot right now",
    "I don't want another time picked for me",
    "if that slot is not possible, I'll call back another day",
)
BOOK_PERSONAS = (
    "a freelance designer who pays close attention to costs",
    "a restaurant manager with a packed week",
    "a newly retired engineer who likes to double-check details",
    "a software developer who prefers quick, precise answers",
)

# ------------------------------------------------------------------------------- a follow-up visit

FOLLOW_REQUESTS = (
    "Please book a {kind} with {doctor}, my doctor for the {prior_date} visit, on {date} at {time}{billing}.",
    "Could you set up a {kind} with {doctor} (my visit on {prior_date}) on {date} at {time}{billing}?",
    "I need a {kind} with {doctor} after my visit on {prior_date}: {date} at {time}{billing}.",
    "I'd like a {kind} with {doctor}, the doctor from my {prior_date} visit, on {date} at {time}{billing}.",
    "Is it possible to book a {kind} with {doctor} (from my {prior_date} visit) on {date} at {time}"
    "{billing}?",
    "I'm calling to book a {kind} with {doctor} following my {prior_date} visit, on {date} at {time}"
    "{billing}.",
    "What I need is a {kind} with {doctor} (my {prior_date} visit) on {date} at {time}{billing}.",
    "Can we book a {kind} with {doctor}, after my {prior_date} visit, for {date} at {time}{billing}?",
)
FOLLOW_WANTS = (
    "you want a {kind} with {doctor}, the doctor of your visit on {prior_date}, on {date} at {time}{billing}",
    "you need a {kind} booked with {doctor} (your visit on {prior_date}) for {date} at {time}{billing}",
    "after your visit on {prior_date}, you want a {kind} with {doctor} on {date} at {time}{billing}",
    "you would like {doctor}, your doctor for the {prior_date} visit, to see you for a {kind} on {date} "
    "at {time}{billing}",
    "booking a {kind} with {doctor} (your {prior_date} visit) on {date} at {time}{billing} is why "
    "you are calling",
    "you are after a {kind} with {doctor} on {date} at {time}{billing}, following your {prior_date} visit",
    "you want to see {doctor} again, after your {prior_date} visit, for a {kind} on {date} at {time}"
    "{billing}",
    "your plan is a {kind} with {doctor} (your {prior_date} visit) on {date} at {time}{billing}",
)
FOLLOW_REASONS = {
    "": (
        "the doctor wants to see how I am getting on",
        "I want to keep the same doctor for the next step",
        "I was asked to come back for another visit",
        "I want continuity with the same doctor",
        "I like to book the next visit early",
        "the doctor knows my case best",
        "I want to report back on how the plan is working",
        "I was told to check in again in a few weeks",
    ),
    "past": (
        "the doctor asked me to come back in a few weeks",
        "I want to report how the new plan has gone since that visit",
        "my results from that visit need going over",
        "I was told at that visit to book a follow-up",
        "I started a new medicine after that visit and want it checked",
        "some questions came up after that visit",
        "I want the doctor to see whether things have improved since then",
        "the doctor wanted to review my home readings after that visit",
    ),
    "upcoming": (
        "the doctor's calendar fills up fast and I want the follow-up secured now",
        "I already know I will need a check after that visit",
        "the clinic suggested booking the follow-up ahead of time",
        "I plan my time off weeks in advance",
        "I want the next step lined up straight after that visit",
        "it is easier for me to arrange both visits at once",
        "I was told a follow-up usually comes a couple of weeks after that kind of visit",
        "I want to be sure I get the same doctor afterwards",
    ),
}
FOLLOW_PERSONAS = (
    "a caregiver who fits their own care around a parent's visits",
    "a primary-school teacher with ten minutes before the bell",
    "a farmer calling on a patchy rural connection",
    "a parent who books everything weeks ahead",
)

BANKS: dict[str, Bank] = {
    "reschedule_visit": Bank(MOVE_REQUESTS, MOVE_WANTS, MOVE_REASONS, MOVE_PREFERENCES, MOVE_PERSONAS),
    "move_to_unavailable_slot": Bank(
        MOVE_REQUESTS, MOVE_WANTS, MOVE_REASONS, MOVE_REFUSED_PREFERENCES, MOVE_PERSONAS
    ),
    "move_instead": MOVE_INSTEAD,
    "cancel_visit": Bank(CANCEL_REQUESTS, CANCEL_WANTS, CANCEL_REASONS, CANCEL_PREFERENCES, CANCEL_PERSONAS),
    "cancel_past_visit": Bank(
        CANCEL_REQUESTS, CANCEL_WANTS, PAST_CANCEL_REASONS, PAST_CANCEL_PREFERENCES, CANCEL_PERSONAS
    ),
    "book_visit": Bank(BOOK_REQUESTS, BOOK_WANTS, BOOK_REASONS, BOOK_PREFERENCES, BOOK_PERSONAS),
    "book_unavailable_slot": Bank(
        BOOK_REQUESTS, BOOK_WANTS, BOOK_REASONS, BOOK_REFUSED_PREFERENCES, BOOK_PERSONAS
    ),
    "book_follow_up": Bank(FOLLOW_REQUESTS, FOLLOW_WANTS, FOLLOW_REASONS, BOOK_PREFERENCES, FOLLOW_PERSONAS),
    **MORE,
}
