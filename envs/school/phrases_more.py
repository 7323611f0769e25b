"""School phrase banks for payments, refunds, transcripts and questions (see phrases.py)."""

from __future__ import annotations

from taue.envs.runtime.authoring import Bank

# ------------------------------------------------------------------------------------------ payments

PAY_REQUESTS = (
    "I want to pay {amount} of my {term} invoice with my {method}.",
    "Could you take a payment of {amount} on my {term} invoice from my {method}?",
    "I need to pay {amount} on my {term} invoice, using my {method}.",
    "I'd like to put {amount} towards my {term} invoice with my {method}.",
    "Is it possible to pay {amount} of the {term} invoice with my {method}?",
    "I'm calling to pay {amount} on my {term} invoice; please use my {method}.",
    "What I want is to pay {amount} of my {term} invoice from my {method}.",
    "Can we make a payment of {amount} on my {term} invoice with my {method}?",
)
PAY_WANTS = (
    "you want to pay {amount} of your {term} invoice with your {method}",
    "you need {amount} paid on your {term} invoice from your {method}",
    "you would like to put {amount} towards your {term} invoice using your {method}",
    "paying {amount} on your {term} invoice with your {method} is your goal",
    "you have set aside {amount} for your {term} invoice and want it taken from your {method}",
    "you are calling to pay {amount} of the {term} invoice with your {method}",
    "you plan to pay {amount} on your {term} invoice from your {method}",
    "you want your {method} used to pay {amount} of your {term} invoice",
)
PAY_PREFERENCES = (
    "I'd like the amount and the account read back to me before anything is charged",
    "please use only the {method}, no other method",
    "I want to know the balance left afterwards",
    "I'd like a confirmation once the payment goes through",
    "my other invoices should stay as they are",
    "I prefer to confirm the details before the payment goes through",
    "I'd like to hear the payment reference at the end",
    "please charge exactly the amount I said, nothing more",
)
PAY_PERSONAS = (
    "a student who pays tuition from a part-time job",
    "a student who works weekends and budgets on a spreadsheet",
    "a returning student who works full-time",
)

PAY = Bank(
    requests=PAY_REQUESTS,
    wants=PAY_WANTS,
    reasons={
        "": (
            "I want to keep my account in good order",
            "I have the money ready now",
            "I don't like owing money",
            "I want this off my mind",
            "it is easier to pay while I remember",
            "I got paid this week",
            "I want to stay on top of my bills",
            "I would rather settle it now than later",
        ),
        "open": (
            "I want it paid before the due date",
            "I would rather pay early than risk a late balance",
            "my pay came in and I want the term covered",
            "I like to settle the term's bill well ahead of the deadline",
            "I want to avoid any hold on my account",
            "I have the money set aside for this term",
            "I want the term invoice cleared before exams get busy",
            "paying now means one less thing to track this term",
        ),
        "overdue": (
            "there is a hold on my account because of it",
            "the overdue balance is holding up things I need",
            "I want the financial hold lifted",
            "I missed the due date and want it cleared",
            "I need the hold gone before I can sort out other things",
            "I only just got the money together",
            "I want my account back in good standing",
            "the late balance has been worrying me",
        ),
        "part": (
            "I can only cover part of it right now",
            "I pay it down in pieces as my wages come in",
            "that is what I can afford this month",
            "I want to chip away at it while I can",
            "I am paying in instalments from my job",
            "the rest will come when my next pay arrives",
            "I would rather pay something now than nothing",
            "my budget this month allows for that much",
        ),
    },
    preferences=PAY_PREFERENCES,
    personas=PAY_PERSONAS,
)

OVERPAY = Bank(
    requests=PAY_REQUESTS,
    wants=PAY_WANTS,
    reasons={
        "": (
            "I want the extra to sit as credit for next term",
            "I would like to pay ahead for next term while I have the money",
            "I have savings ready and want to get ahead",
            "I prefer to have credit on my account for next term",
            "paying ahead means one less bill in January",
            "I received a lump sum and want it all on my account",
            "I want to be ahead on tuition for peace of mind",
            "it is easier to pay one larger amount now",
        ),
    },
    preferences=(
        "if I can't pay that amount, I'd rather not pay anything today",
        "I only want to pay the amount I said, not a different one",
        "if overpaying isn't allowed, just tell me and leave the invoice as it is",
        "I don't want a smaller amount charged without being asked",
        "if the answer is no, I'll sort out the payment another day",
        "I don't want anything charged unless it's that exact amount",
        "if it can't be done, I'd like to know the rule",
        "please leave my account untouched if the full amount isn't possible",
    ),
    personas=PAY_PERSONAS,
)

# ------------------------------------------------------------------------------------------- refunds

REFUND_REQUESTS = (
    "I believe I have money coming back on my {term} invoice; please refund it to my {method}.",
    "Could you refund the credit on my {term} invoice to my {method}?",
    "I need the money owed to me on my {term} invoice sent to my {method}.",
    "I'd like the credit from my {term} invoice paid out to my {method}.",
    "Is it possible to get the credit on my {term} invoice refunded to my {method}?",
    "I'm calling to get the money on my {term} invoice back, into my {method}.",
    "What I want is the credit on my {term} invoice refunded to my {method}.",
    "Can we send the credit from my {term} invoice to my {method}?",
)
REFUND_WANTS = (
    "you believe your {term} invoice leaves money owed to you, and want it refunded to your {method}",
    "you want the credit on your {term} invoice paid out to your {method}",
    "you need the money owed on your {term} invoice sent to your {method}",
    "getting the credit on your {term} invoice refunded to your {method} is your aim",
    "you would like what you are owed on the {term} invoice deposited into your {method}",
    "you are after a refund of the {term} invoice credit to your {method}",
    "you expect money back on your {term} invoice and want it in your {method}",
    "you want your {method} to receive the credit from your {term} invoice",
)
REFUND_PERSONAS = (
    "a student who budgets every month on a spreadsheet",
    "a student saving up for next year's books",
    "a student who keeps every receipt in a folder",
)
REFUND = Bank(
    requests=REFUND_REQUESTS,
    wants=REFUND_WANTS,
    reasons={
        "": (
            "my account shows a credit and I would rather have the money",
            "I don't want money sitting on my account",
            "I need the money for rent this month",
            "I was told credits can be paid back out",
            "I want to use that money for books",
            "my payments came to more than I owed",
            "I would rather have it in my bank than on my account",
            "I want to close out that invoice",
        ),
        "award": (
            "my {award} came to more than the charges",
            "the {award} left me with a credit",
            "the {award} covered everything and then some",
            "my {award} was larger than my tuition",
            "I was told the {award} would leave money over",
            "after the {award} my account shows a credit",
            "the {award} paid more than I owed",
            "the extra from my {award} is meant for living costs",
        ),
    },
    preferences=(
        "I'd like the amount read back to me before it is sent",
        "please send it only to the {method}",
        "I'd like to know when the deposit should arrive",
        "please confirm once the refund is on its way",
        "I don't want it moved to any other account",
        "nothing else on my account should change",
        "I'd like to hear which invoice the refund comes from",
        "a short confirmation at the end is fine",
    ),
    personas=REFUND_PERSONAS,
)
REFUND_WITHOUT_CREDIT = Bank(
    requests=(
        "I believe I have money coming back on my {term} invoice; please refund it to my {method}.",
        "Could you check my {term} invoice and refund what I'm owed to my {method}?",
        "I think I'm owed money on my {term} invoice, and I'd like it paid to my {method}.",
        "I'd like a refund from my {term} invoice into my {method}.",
        "Is it possible to get money back from my {term} invoice, paid into my {method}?",
        "I'm calling about a refund due on my {term} invoice; please send it to my {method}.",
        "What I want is the money I'm owed on my {term} invoice, sent to my {method}.",
        "Can we get a refund from my {term} invoice into my {method}?",
    ),
    wants=(
        "you believe your {term} invoice leaves money owed to you, and want it refunded to your {method}",
        "you think you are owed money on your {term} invoice and want it paid into your {method}",
        "you expect a refund from your {term} invoice and want it sent to your {method}",
        "getting money back from your {term} invoice into your {method} is what you need",
        "you are convinced the {term} invoice owes you money and want it in your {method}",
        "you want whatever you are owed on the {term} invoice refunded to your {method}",
        "you are after a refund from the {term} invoice, paid into your {method}",
        "you hope to have money from your {term} invoice returned to your {method}",
    ),
    reasons={
        "": (
            "I think I paid more than I owed that term",
            "I believe part of that term's payment should come back to me",
            "a friend said students get something back at the end of a term",
            "I remember being told I would get money back",
            "I think one of my payments was counted twice",
            "I assumed there was something left over after I paid",
            "I was expecting a refund for that term",
            "my bank statement makes me think I overpaid",
        ),
        "dropped": (
            "I dropped a course that term and think I am owed money for it",
            "I withdrew from a course that term and expected money back",
            "I left a course partway through that term",
            "dropping a course that term should have lowered my bill",
            "I stopped attending a course that term after I dropped it",
            "I thought a dropped course meant a refund",
            "I was told dropping a course brings some tuition back",
            "I paid for a course that term that I later dropped",
        ),
    },
    preferences=(
        "if there is nothing to refund, I'd like to know why",
        "nothing should change if the refund can't be done",
        "if I'm wrong about the money, just explain it to me",
        "I don't want any other account touched",
        "if there is no credit, I'll accept that but want the reason",
        "please show me what the invoice says if the answer is no",
        "I'd rather hear a clear no than be passed around",
        "if it isn't possible, please leave my account as it is",
    ),
    personas=REFUND_PERSONAS,
)

# --------------------------------------------------------------------------------------- transcripts

TRANSCRIPT_REQUESTS = (
    "I need {copies} sent {how} to {recipient}, paid with my {method}.",
    "Could you send {copies} {how} to {recipient}? Please charge my {method}.",
    "I'd like to order {copies} {how} for {recipient}, using my {method}.",
    "Please send {copies} {how} to {recipient} and charge it to my {method}.",
    "Is it possible to have {copies} sent {how} to {recipient}, on my {method}?",
    "I'm calling to order {copies}, {how}, to {recipient}; my {method} can pay for it.",
    "What I need is {copies} going {how} to {recipient}, charged to my {method}.",
    "Can we order {copies} {how} to {recipient}, paid with my {method}?",
)
TRANSCRIPT_WANTS = (
    "you need {copies} sent {how} to {recipient}, charged to your {method}",
    "you want {copies} to go {how} to {recipient}, paid with your {method}",
    "you would like to order {copies} {how} for {recipient} on your {method}",
    "getting {copies} {how} to {recipient}, paid by your {method}, is what you want",
    "you are ordering {copies} {how} to {recipient} and want your {method} charged",
    "you have to send {copies} {how} to {recipient}, using your {method}",
    "you plan to have {copies} delivered {how} to {recipient}, paid with your {method}",
    "you want {recipient} to receive {copies} {how}, charged to your {method}",
)
TRANSCRIPT_REASONS = {
    "": (
        "they asked me for an official record of my courses",
        "my application is not complete without it",
        "they need it to check my grades",
        "it is the last document missing from my file",
        "the deadline for my documents is coming up",
        "they only accept transcripts sent by the university",
        "I was asked to send it as soon as possible",
        "they want to see my record so far",
    ),
    "school_email": (
        "I am applying to a programme there and the application asks for it",
        "the admissions office needs it to review my application",
        "my application there closes soon",
        "they want official results before they can decide on my file",
        "the programme asked for transcripts to come straight from the university",
        "they told me an electronic copy is fastest",
        "I am applying for further study and they need my record",
        "my application is complete apart from the transcript",
    ),
    "school_mail": (
        "the admissions office asked for a paper copy in the post",
        "they only accept transcripts by post",
        "I am applying for further study there and they want it mailed",
        "their application instructions say transcripts must be posted",
        "the admissions office told me email copies are not accepted",
        "they keep paper files for every applicant",
        "I am applying there and the transcript is the last item missing",
        "they want an original sent to their office",
    ),
    "employer_email": (
        "a company I interviewed with wants to see my grades",
        "the job offer depends on a transcript check",
        "the recruiter asked for an electronic copy this week",
        "my internship application asks for an official record",
        "their HR team needs it before they can send a contract",
        "they verify grades for every new hire",
        "I am applying for a job that asks for academic records",
        "the employer prefers transcripts by email",
    ),
    "employer_mail": (
        "the firm I am applying to wants a paper copy",
        "their recruiting team only takes transcripts by post",
        "my job application asks for a transcript by mail",
        "the hiring team asked for an original in the post",
        "they need it on file before my start date",
        "their offer is conditional on a mailed transcript",
        "the firm keeps paper records for every candidate",
        "the recruiter told me a posted copy is required",
    ),
    "scholarship_email": (
        "I am applying for a scholarship and they need my grades",
        "the scholarship committee asked for an official record",
        "my scholarship application closes soon",
        "the foundation reviews transcripts before awarding funding",
        "they need proof of my academic record",
        "they accept transcripts by email straight from the university",
        "the funding would really help with next year's fees",
        "the scholarship form lists a transcript as required",
    ),
}
TRANSCRIPT_PERSONAS = (
    "a student preparing applications this autumn",
    "a student planning the next step after this year",
    "a student who keeps a checklist of every application deadline",
)
TRANSCRIPT = Bank(
    requests=TRANSCRIPT_REQUESTS,
    wants=TRANSCRIPT_WANTS,
    reasons=TRANSCRIPT_REASONS,
    preferences=(
        "I'd like the number of copies, the recipient and the cost read back to me first",
        "please charge only the {method}",
        "I want to hear what it costs before the order is placed",
        "please make sure the recipient is written exactly as I gave it",
        "I'd like a confirmation once the order is placed",
        "I don't want more copies than I asked for",
        "I prefer to confirm every detail before the order is placed",
        "I'd like to know when it should arrive",
    ),
    personas=TRANSCRIPT_PERSONAS,
)
TRANSCRIPT_ON_HOLD = Bank(
    requests=TRANSCRIPT_REQUESTS,
    wants=TRANSCRIPT_WANTS,
    reasons=TRANSCRIPT_REASONS,
    preferences=(
        "I can't pay anything else today, so if something blocks it I'll deal with that later",
        "if the transcript can't go out, I'd like to know exactly why",
        "I don't want any other payment taken today",
        "if it's blocked, nothing else on my account should change",
        "if there is a problem, just tell me the rule and leave my account as it is",
        "I only want the transcript order, nothing else charged",
        "if it can't be sent now, I'll sort it out another day",
        "I don't want a payment taken on any invoice today",
    ),
    personas=TRANSCRIPT_PERSONAS,
)

# --------------------------------------------------------------------------------------- information

GRADES = Bank(
    requests=(
        "I took {course} in {term}. What was my GPA that term, and what is my cumulative GPA?",
        "Could you tell me my GPA for {term}, when I took {course}, and my cumulative GPA?",
        "I need my {term} GPA (the term I took {course}) and my overall GPA.",
        "I'd like to know my GPA for {term}, the term of {course}, and my cumulative GPA.",
        "Is it possible to get my {term} GPA, when I did {course}, and my cumulative GPA?",
        "I'm calling about my grades: what was my GPA in {term}, when I took {course}, and overall?",
        "What I want to know is my GPA for {term} (I took {course} then) and my cumulative GPA.",
        "Can you look up my GPA for {term}, the term with {course}, and my cumulative one?",
    ),
    wants=(
        "you took {course} in {term} and want to know your GPA for that term and your cumulative GPA",
        "you need your {term} GPA, the term you took {course}, and your cumulative GPA",
        "you would like to hear your GPA for {term} (when you took {course}) and your overall GPA",
        "learning your {term} GPA, the term of {course}, and your cumulative GPA is what you ask for",
        "you want both numbers: your GPA for {term}, when you took {course}, and your cumulative GPA",
        "you are after your {term} GPA (you took {course} then) and your cumulative GPA",
        "you hope to find out your GPA in {term}, the term of {course}, and your cumulative GPA",
        "you want your GPA for the term you took {course}, {term}, and your cumulative GPA",
    ),
    reasons={
        "": (
            "a scholarship form asks for my GPA",
            "I want to know where I stand before registering for next term",
            "I am updating my CV",
            "an application asks for my term and overall GPA",
            "I want to check whether I am in good standing",
            "I am setting myself a target for this term",
            "my advisor asked me to bring the numbers to our meeting",
            "I cannot find them in the student portal",
        ),
    },
    preferences=(
        "I only need the numbers, no changes to anything",
        "please give me both numbers clearly",
        "I'd like the term GPA first, then the cumulative one",
        "a quick answer is all I need",
        "nothing on my record should change",
        "I'd like to hear the numbers exactly as the record shows them",
        "no need for the full transcript, just the GPAs",
        "please repeat the numbers once so I can note them down",
    ),
    personas=(
        "a student preparing scholarship applications",
        "a student who tracks grades in a notebook",
        "a student meeting an advisor next week",
    ),
)

DEADLINE = Bank(
    requests=(
        "Until what date can I drop {section} and still get all my tuition back?",
        "Could you tell me the last day to drop {section} with a full refund?",
        "I need to know the latest date I could drop {section} and get a full refund.",
        "I'd like to know until when I can drop {section} without losing any tuition.",
        "Is it possible to find out the full-refund drop deadline for {section}?",
        "I'm calling to ask the last day I could drop {section} and still get everything back.",
        "What I want to know is the deadline for dropping {section} with a full refund.",
        "Can you check until what date I could drop {section} for a full refund?",
    ),
    wants=(
        "you are unsure about {section} and want to know the last day you could drop it with a full refund",
        "you want the full-refund drop deadline of {section}",
        "you need to know until when you could drop {section} and get all the tuition back",
        "you would like the last date to drop {section} without losing tuition",
        "finding out the full-refund drop deadline for {section} is your request",
        "you are weighing up {section} and want the deadline for a full-refund drop",
        "you hope to learn the last day to drop {section} with a full refund",
        "you want to know how long you have to decide about {section} and still get a full refund",
    ),
    reasons={
        "before": (
            "I am not sure I can fit it in once it starts",
            "my plans for the second half of the term are still open",
            "I want to see how my other courses go before it starts",
            "I am weighing whether I have too many courses",
            "my schedule outside class might change before it begins",
            "I want to keep my options open for a little longer",
            "I am waiting to hear about my financial aid",
            "I like to know my deadlines in advance",
        ),
        "": (
            "I am not sure the course is right for me yet",
            "the first classes were harder than I expected",
            "I want to see how the first assignment goes before I decide",
            "my schedule outside class might change soon",
            "I am weighing whether I have too many courses",
            "I want to keep my options open for a little longer",
            "I am waiting to hear about my financial aid",
            "I like to know my deadlines in advance",
        ),
    },
    preferences=(
        "I don't want to drop it yet, only to know the date",
        "my enrolment should stay as it is",
        "I only need the date, nothing else",
        "please keep me enrolled; I'm just asking",
        "I'd like the date said clearly so I can note it down",
        "I'm not ready to decide, so nothing should be dropped",
        "a quick answer is fine; no changes today",
        "please leave my schedule exactly as it is",
    ),
    personas=(
        "a student who works evenings and worries about workload",
        "a student who keeps a calendar of every deadline",
        "a returning student easing back into classes",
    ),
)

MORE: dict[str, Bank] = {
    "pay": PAY,
    "overpay": OVERPAY,
    "refund": REFUND,
    "refund_without_credit": REFUND_WITHOUT_CREDIT,
    "transcript": TRANSCRIPT,
    "transcript_on_hold": TRANSCRIPT_ON_HOLD,
    "grade_lookup": GRADES,
    "drop_deadline": DEADLINE,
}
