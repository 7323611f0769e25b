"""How Northvale students put their needs into words (docs/tracer.md, "Phrase banks"): one `Bank` per
intent, its `{slot}` names filled by the grounders of tracer.py. Registration, drops and section
changes here; money, transcripts and questions in phrases_more.py, merged into `BANKS`."""

from __future__ import annotations

from taue.envs.runtime.authoring import Bank
from taue.envs.school.phrases_more import MORE

# -------------------------------------------------------------------------------------- registration

ADD_REQUESTS = (
    "I'd like to register for {section}, meeting {meets}.",
    "Could you add {section} to my schedule? It meets {meets}.",
    "I need to enrol in {section}, the one that meets {meets}.",
    "Please register me for {section}, the {meets} section.",
    "Is it possible to sign me up for {section}, which meets {meets}?",
    "I'm calling to add {section}, meeting {meets}, to my term.",
    "What I want is a seat in {section}, the {meets} section.",
    "Can we add {section}, meeting {meets}, to my courses this term?",
)
ADD_WANTS = (
    "you want to register for {section}, which meets {meets}",
    "you need {section}, meeting {meets}, added to your schedule",
    "you would like a seat in {section}, meeting {meets}",
    "adding {section}, which meets {meets}, is on your list",
    "you have decided to take {section} this term, the section meeting {meets}",
    "you are hoping to enrol in {section}, the {meets} section",
    "your plan is to sign up for {section}, meeting {meets}",
    "you want {section}, which meets {meets}, on your schedule this term",
)
ADD_REASONS = {
    "": (
        "I have room in my schedule for one more course",
        "the course fits around my other classes",
        "I have heard good things about it from classmates",
        "I want to stay on track with my credits",
        "the meeting time works well with my job",
        "I am curious about the subject",
        "it keeps my options open for next year",
        "a friend recommended the instructor",
    ),
    "major": (
        "it is a course my programme expects me to take",
        "my advisor suggested I take it this term",
        "it counts towards my degree requirements",
        "I want to keep my programme on schedule",
        "it leads into the courses I need next year",
        "I was planning to take it this year anyway",
        "it is one of the core courses in my field",
        "I need it before I can move on in my programme",
    ),
    "elective": (
        "I need an elective outside my programme",
        "I have always wanted to learn more about the subject",
        "it would round out my schedule nicely",
        "a friend took it and loved it",
        "I want a course that is different from my usual ones",
        "it counts as a general elective for me",
        "I think it will help with my career plans",
        "I have space for something outside my main field",
    ),
}
ADD_PREFERENCES = (
    "I'd like the section and the cost read back to me before it is added",
    "please register me only for that section, nothing else",
    "I want to know what it adds to my bill before I say yes",
    "I'd like to hear once I am confirmed in the section",
    "nothing else on my schedule should change",
    "I prefer to confirm every detail first",
    "I'd like a short summary of my schedule once it's added",
    "please tell me if anything stops the registration",
)
REFUSED_ADD_PREFERENCES = (
    "if I can't get into that section, I'd rather leave my schedule as it is",
    "I only want that section, not a different one",
    "if it can't be done, just tell me which rule stops it",
    "I don't want a different course instead",
    "if the answer is no, I'll talk to my advisor myself",
    "I don't want to be registered for anything I haven't asked for",
    "if it doesn't work out, I'd like to know why and leave it there",
    "I'd rather keep my current schedule than take another section",
)
ADD_PERSONAS = (
    "a student who works evenings at a restaurant",
    "a commuter student with a weekend job",
    "a student who works part-time on campus and likes every detail confirmed",
    "a returning student who works full-time",
)
PREREQUISITE_REASONS = {
    "": (
        "I studied the material on my own over the summer",
        "a classmate told me the prerequisite is not strictly checked",
        "I feel ready for the course",
        "I covered similar material at another school",
        "the course description looked manageable to me",
        "I think I can keep up without the earlier course",
        "I want to get ahead in my programme",
        "I was hoping the prerequisite would be waived",
    ),
    "in_progress": (
        "I am taking {prerequisite} this term, so I should be ready",
        "I am enrolled in {prerequisite} right now",
        "I will have finished {prerequisite} by the time it matters",
        "I am halfway through {prerequisite} already",
        "{prerequisite} is on my schedule this term",
        "I am doing well in {prerequisite} this term",
        "I thought taking {prerequisite} at the same time would be enough",
        "my friend took both courses together",
    ),
    "low_grade": (
        "I did pass {prerequisite}, even if the grade was low",
        "I took {prerequisite} already and got credit for it",
        "I completed {prerequisite} before",
        "my grade in {prerequisite} was still a pass",
        "I sat through all of {prerequisite} and know the material",
        "I thought any passing grade in {prerequisite} would count",
        "I have {prerequisite} on my record",
        "I finished {prerequisite} and want to move on",
    ),
    "partial": (
        "I have done most of the groundwork for it",
        "I passed the other courses it builds on",
        "I only lack one of the earlier courses",
        "I know most of what the course assumes",
        "I have already taken related courses",
        "the missing course covers things I already know",
        "I am close to meeting the requirements",
        "I want to keep moving through my programme",
    ),
}
FULL_REASONS = {
    "": (
        "I heard a seat might have opened up",
        "it is the only time that fits my job",
        "a friend in the class said there could be room",
        "the other sections clash with my schedule",
        "I really want that instructor",
        "I need the course this term to stay on track",
        "I was on the page when it filled up and missed it",
        "I was hoping an exception could be made for one more student",
    ),
}
LATE_REASONS = {
    "": (
        "I only just decided I need the course",
        "I was sick during the first week and missed registration",
        "my work schedule changed and now the course fits",
        "I was waiting to hear about my financial aid",
        "another course I planned on was cancelled",
        "my advisor and I only met this week",
        "I was travelling during the add period",
        "I thought the deadline was later",
    ),
}

# ---------------------------------------------------------------------------------------- dropping

DROP_REQUESTS = (
    "Please drop me from {section}.",
    "Could you drop {section} from my schedule?",
    "I need to drop {section}.",
    "I'd like to withdraw from {section}.",
    "Is it possible to take {section} off my schedule?",
    "I'm calling to drop {section}.",
    "What I want is to be out of {section}.",
    "Can we remove {section} from my courses this term?",
)
DROP_WANTS = (
    "you want to drop {section}",
    "you need {section} taken off your schedule",
    "you have decided to leave {section}",
    "dropping {section} is what you would like",
    "you would like to be removed from {section}",
    "you no longer want to be enrolled in {section}",
    "your plan is to drop {section} this term",
    "you want out of {section}",
)
DROP_REASONS = {
    "": (
        "the course is not what I expected",
        "my workload this term is too heavy",
        "I need more time for my other courses",
        "my job hours went up",
        "I want to take it in a later term instead",
        "it does not count towards my programme after all",
        "I have too much on my plate this term",
        "I would rather focus on fewer courses",
    ),
    "free": (
        "after the first classes I can see it is not the right fit",
        "I registered for it in a hurry and changed my mind",
        "my workload looks too heavy now that classes have started",
        "I realised it does not count towards my programme",
        "I would rather take it next term",
        "I signed up for one course too many",
        "my work schedule changed just as classes began",
        "the pace of the first classes showed me I should wait",
    ),
    "before": (
        "I signed up for one course too many",
        "I would rather take it in a later term",
        "my work schedule for the second half of the term changed",
        "I realised it does not count towards my programme",
        "I want a lighter load once it would start",
        "I registered for it in a hurry and changed my mind",
        "another commitment now overlaps with its meeting time",
        "I would rather focus on the courses I have already started",
    ),
    "late": (
        "I have fallen behind and cannot catch up",
        "my work hours increased a few weeks into the term",
        "a family matter is taking up my time this term",
        "the course turned out much harder than I expected",
        "I want to protect my grades in my other courses",
        "my health has made it hard to keep up this term",
        "I have missed too many classes to pass",
        "I am overloaded and something has to give",
    ),
}
DROP_PREFERENCES = (
    "I'd like to hear what it means for my bill before it is dropped",
    "please tell me how it will show on my record first",
    "please drop only that course, nothing else",
    "I want the result read back to me once it is done",
    "I'd like to know the details before I say yes",
    "my other courses should stay as they are",
    "I'd like a short confirmation at the end",
    "I want to be sure which section is being dropped",
)
REFUSED_DROP_PREFERENCES = (
    "if it can't be dropped, I want to know exactly why",
    "if the answer is no, nothing else should change",
    "I'd rather hear the rule than be passed around",
    "if it's too late, I'll think about my options myself",
    "please leave my other courses as they are whatever happens",
    "if it can't be dropped, I want to hear that plainly",
    "I don't want anything else changed if this can't be done",
    "if it's not possible, tell me the deadline that stopped it",
)
DROP_PERSONAS = (
    "a student who pays tuition from a part-time job",
    "a commuter student who works evenings",
    "a returning student who works full-time",
)

# ---------------------------------------------------------------------------------- a section change

SWAP = Bank(
    requests=(
        "Can you move me from {old_id} to {new_id} in {course}?",
        "Could you switch me from section {old_id} to section {new_id} of {course}?",
        "I need to change from {old_id} to {new_id} in {course}.",
        "I'd like to swap my {course} section, {old_id}, for {new_id}.",
        "Is it possible to move from {old_id} to {new_id} in {course}?",
        "I'm calling to switch sections in {course}: from {old_id} to {new_id}.",
        "What I want is section {new_id} of {course} instead of {old_id}.",
        "Please put me in {new_id} instead of {old_id} for {course}.",
    ),
    wants=(
        "you are enrolled in {old} and want to move to section {new_id} of the same course, which meets "
        "{new_meets}",
        "you want to switch from {old} to section {new_id}, meeting {new_meets}",
        "you need to change your {course} section from {old_id} to {new_id}, which meets {new_meets}",
        "moving from {old_id} to {new_id}, the {new_meets} section of {course}, is why you are calling",
        "you would like section {new_id} of {course}, meeting {new_meets}, instead of {old_id}",
        "you have decided to swap {old_id} for {new_id} in {course}; the new one meets {new_meets}",
        "you are hoping to move to the {new_meets} section of {course}, {new_id}, out of {old_id}",
        "your plan is to leave {old_id} for section {new_id} of {course}, meeting {new_meets}",
    ),
    reasons={
        "": (
            "the other section suits me better",
            "I want to keep the same course but change sections",
            "a friend is in the other section",
            "the other section fits my week more neatly",
            "I prefer the other section's room and setup",
            "I signed up for the wrong section by mistake",
            "I would learn better in the other section",
            "the change makes my week easier",
        ),
        "time": (
            "the new time ({new_meets}) suits me better",
            "my current section clashes with my work shifts",
            "I have another commitment during my current section",
            "the {new_meets} slot leaves me time to commute",
            "my bus schedule changed and the new time is easier",
            "I want my classes closer together on the same days",
            "my current section runs into my lab time",
            "I learn better at the new section's time of day",
        ),
        "instructor": (
            "I would like to have {new_instructor} as my instructor",
            "I have taken a class with {new_instructor} before and liked it",
            "a friend recommended {new_instructor}'s teaching",
            "the other section is taught by {new_instructor}, whose style suits me",
            "I learn well with {new_instructor}",
            "I want a different teaching style for this course",
            "classmates said {new_instructor} explains things clearly",
            "I met {new_instructor} at an open day and liked the approach",
        ),
    },
    preferences=(
        "I'd like the new section's details read back to me before the switch",
        "please keep me in the same course, only the section changes",
        "I want to be sure nothing about my bill changes",
        "I don't want to be dropped from the course at any point",
        "I'd like a confirmation once I'm in the new section",
        "none of my other courses should change",
        "I'd like to confirm the meeting time first",
        "a short summary at the end is all I need",
    ),
    personas=(
        "a student who works part-time at a bookshop",
        "a commuter student with a part-time job",
        "a student who works shifts at a campus coffee shop",
    ),
)

OTHER_SECTION = Bank(
    requests=(
        "If that one is full, could you put me in {section} instead? It meets {meets}.",
        "Then please register me for {section}, the one that meets {meets}.",
        "In that case I'll take {section}; it meets {meets}.",
        "Alright, could I have {section} then? {meets} works for me.",
        "If there's no seat, please add me to {section} instead, meeting {meets}.",
        "Then let's go with {section}, which meets {meets}.",
        "Could you sign me up for {section} then? That's my second choice, {meets}.",
        "Fine, {section} on {meets} will do if the other one is full.",
    ),
    wants=("you would take {section}, which meets {meets}",),
    reasons={"": ("",)},
    preferences=(
        "if that section is full, I'd settle for {section}, which meets {meets}",
        "should there be no seat, {section} on {meets} works for me too",
        "if I can't get in, I'll take {section} instead, meeting {meets}",
        "failing that, {section} ({meets}) is my second choice",
        "if the rules say no, a seat in {section}, which meets {meets}, is fine",
        "when that section is ruled out, {section} on {meets} suits me",
        "if it has to be another section, I'd have {section}, which meets {meets}",
        "if my first pick is refused, {section} on {meets} is the one I'd take",
    ),
)

PREREQUISITE_INSTEAD = Bank(
    requests=(
        "If I can't skip the prerequisite, could you put me in {section} instead? It meets {meets}.",
        "Then please register me for {section} this term, the one that meets {meets}.",
        "In that case I'll take the prerequisite first: {section}, meeting {meets}.",
        "Alright, could I have {section} then? {meets} works for me.",
        "If it can't be waived, please add me to {section} instead, meeting {meets}.",
        "Then let's do the earlier course now: {section}, which meets {meets}.",
        "Could you sign me up for {section} then? That's my second choice, {meets}.",
        "Fine, {section} on {meets} will do so I can take the other course later.",
    ),
    wants=("you would take {section}, which meets {meets}, to do the prerequisite first",),
    reasons={"": ("",)},
    preferences=(
        "if the prerequisite can't be waived, I'd settle for taking it now: {section}, which meets {meets}",
        "should I be refused, {section} on {meets} works for me, so I do the earlier course first",
        "if I can't get in without it, I'll take {section} this term instead, meeting {meets}",
        "failing that, the prerequisite itself, {section} ({meets}), is my second choice",
        "if the rules say no, a seat in {section}, which meets {meets}, is fine for now",
        "when that course is ruled out, {section} on {meets} suits me as a first step",
        "if I have to do the earlier course first, I'd have {section}, which meets {meets}",
        "if my first pick is refused, {section} on {meets} is the one I'd take this term",
    ),
)

BANKS: dict[str, Bank] = {
    "other_section": OTHER_SECTION,
    "prerequisite_instead": PREREQUISITE_INSTEAD,
    "register": Bank(ADD_REQUESTS, ADD_WANTS, ADD_REASONS, ADD_PREFERENCES, ADD_PERSONAS),
    "register_missing_prerequisite": Bank(
        ADD_REQUESTS, ADD_WANTS, PREREQUISITE_REASONS, REFUSED_ADD_PREFERENCES, ADD_PERSONAS
    ),
    "register_full_section": Bank(
        ADD_REQUESTS, ADD_WANTS, FULL_REASONS, REFUSED_ADD_PREFERENCES, ADD_PERSONAS
    ),
    "register_after_deadline": Bank(
        ADD_REQUESTS, ADD_WANTS, LATE_REASONS, REFUSED_ADD_PREFERENCES, ADD_PERSONAS
    ),
    "drop": Bank(DROP_REQUESTS, DROP_WANTS, DROP_REASONS, DROP_PREFERENCES, DROP_PERSONAS),
    "drop_after_withdrawal_deadline": Bank(
        DROP_REQUESTS, DROP_WANTS, {"": DROP_REASONS["late"]}, REFUSED_DROP_PREFERENCES, DROP_PERSONAS
    ),
    "swap": SWAP,
    **MORE,
}
