"""The scripted user's phrase banks and patterns for reading agent messages (`understanding.py` applies
them; docs/simulator.md lists them). Plain data: every decision can be traced to one of these."""

from __future__ import annotations

import re

REQUEST_PHRASES = (
    "please provide",
    "please tell",
    "please share",
    "please confirm",
    "please give",
    "please send",
    "please specify",
    "please let me know",
    "please verify",
    "provide your",
    "provide the",
    "provide me",
    "share your",
    "let me know your",
    "let me know which",
    "let me know the",
    "let me know if",
    "let me know whether",
    "let me know how",
    "let me know what",
    "let me know where",
    "let me know when",
    "tell me the",
    "tell me your",
    "tell me what",
    "tell me which",
    "tell me where",
    "tell me when",
    "tell me how many",
    "give me your",
    "i need your",
    "i'll need your",
    "i will need your",
    "i need the",
    "i'll need the",
    "i will need the",
    "i need to know",
    "i'll need to know",
    "i would need",
    "i'd need",
    "may i have",
    "kindly provide",
    "kindly confirm",
    "can you confirm",
    "could you confirm",
    "(yes/no)",
    "(y/n)",
    "yes or no",
    "reply yes",
    "once you confirm",
    "once confirmed",
)
NEED_REQUEST = re.compile(
    r"\b(?:i|we)(?: will|'ll| would|'d)?(?: still| also| just| first| now| really)? need "
    r"(?:your|the|you to|to know)\b"
)
"""'I still need your user ID', 'I need you to confirm the order ID': a request, whatever adverb it holds."""
WISH_PHRASES: tuple[str, ...] = (
    "confirm if you",
    "confirm that you",
    "confirm whether you",
    "if you would like to",
)
WISH_PHRASES += (
    "would you like to",
    "once you confirm",
    "once confirmed",
    "confirm you'd like",
    "confirm you want",
)
"""A fact request that also asks to go ahead ("Please confirm if you want to cancel it and give the
reason"): the user answers the facts and approves the change."""
INFO_REQUESTS = (
    "need to know",
    "need your",
    "need the",
    "let me know the",
    "let me know which",
    "let me know your",
    "let me know about the",
    "any idea about",
    "thought about the",
)
HANDOVER_PHRASES = ("human agent", "human representative", "live agent", "transfer you", "connect you with")
"""An offer to hand the user over to a person: no goal of the user's, never a proposal of one."""
BACK = re.compile(
    r"\b(those|these|them|the above|that information|those details|this information|which ones?)\b"
)
ASKS_USER = re.compile(
    r"(please )?(could|can|would|will) you (please )?(?!like|want|prefer|confirm|be\b|mind if)"
)
"""'Could you describe …?': the user is asked to do something, not to approve the agent's change."""
VAGUE = re.compile(r"\b(any (specific|other|particular)|such as)\b")
"""A question offering nothing in particular ("any specific action, such as a return?")."""
CONFIRM_THE = re.compile(
    r"\b(confirm|specify|verify) (the|your) (?!following|details|above|change|information|order details)"
)
"""'Please confirm the reason …' asks for a fact; 'please confirm the following details' reads back."""
PURPOSE = re.compile(
    r"\b(so (that )?(i|we) can|in order to|to help me"
    r"|(?<!manage )(?<!able )(?<!try )to (locate|find|identify|access)) [^,;]*"
    r"|\b(for|from) (the|which|an?) [^,?]*?\b(you|you'd) (want|wish|would like|'d like|need)\b[^,;]*"
    r"|\b(proceed|go ahead|continue) with "
    r"(?:(?! and (?:provide|let|tell|share|give|confirm|specify|send|choose|please|also)\b)[^,;?])*"
)
"""A purpose clause ("…so I can locate your user ID") or what a proposal would do ("confirm if you want to
proceed with the exchange using your card ending in 7312"): the facts it names are not asked for."""
NOT_PROPOSING = re.compile(
    r"(?:\b(?:i'll|i will|i can|we'll|we will|then i)"
    r"|(?<!like )(?<!want )(?<!wish )(?<!ok )(?<!okay )(?<!alright )(?<!ready )(?<!me )"
    r"(?<!confirmation )(?<!approval )(?<!permission )(?<!consent )\bto) (proceed|go ahead)\b"
)
"""'To proceed with the return, …', '…, and I'll proceed with the exchange': a purpose or the agent's plan,
not a proposal ('Would you like to proceed?', 'OK to go ahead?', 'Shall I proceed?' still are)."""
APPROVES_BACK = re.compile(
    r"\b(proceed|go ahead|continue|apply|make|submit)\b(?: [\w']+){0,3}? (these|those|them|the above|both)\b"
)
"""'Shall I proceed with these changes?': it asks to approve what was listed, not for the facts in it."""
_CLAUSE_OPENERS = (
    "you|you'd|you'll|you've|you're|i|we|would|do|does|did|should|shall|can|could|will|is|are|was|were"
)
RELATIVE_CLAUSE = re.compile(
    rf"\b((?:which|what) (?!(?:{_CLAUSE_OPENERS})\b)(?:[\w'-]+ ){{0,2}}?[\w'-]+) "
    rf"(?:that )?(?:{_CLAUSE_OPENERS})\b[^,;?]*"
)
"""'which order you'd like to change the address for', 'what changes would you like to make to your order':
the words after "which"/"what" name what is asked; the clause after them only describes it."""
OR_INSTEAD = re.compile(
    r"(if (you )?(don't|do not|can't|cannot) (have|find|remember)[^,]*,"
    r"|if not,|alternatively,?|otherwise,?|or) "
)
"""A statement after a request that offers alternatives ("If you don't have that, your name and zip code
will work as well."): the facts it names belong to the request."""
LEADING_CLAUSE = re.compile(r"^(to|before|since|as|once|after|in order to) [^,?]*, ")
"""'To proceed with the exchange, could you give me …': the opening clause names the task, not the ask."""
WH_CHOICE = re.compile(r"\b(how|what|which|when|where)\b( \w+)? (you|you'd|would|do|should|to)\b")
"""'…how you'd like to proceed', 'what you would like to change': the user chooses, nothing is proposed."""
WISH_QUESTION = re.compile(
    r"\b(what|how)\b[^?.;]{0,40}\b(you'd|you would|would you|you want|you wish|you need|do you)\b"
    r"[^?.;]{0,40}\b(change|changes|modify|modification|update|make|do|proceed|adjust|done|help|assist)\b"
    r"|\b(let me know|tell me)\b[^?.;]{0,25}\b(changes?|modifications?|updates?)\b[^?.;]{0,20}\b(you|you'd)\b"
)
"""'What changes would you like to make?', 'how would you like to proceed': the user is asked what it
wants done, and says its need."""
POLITE_REQUEST = re.compile(r"(?:^|:\s*)your\b[^.?!]*,?\s*please[.!]?$", re.IGNORECASE)
""""Your order number, please." / "One more thing: your email, please.": a request without a verb."""
OFFER_LEADS = ("can i", "could i", "may i", "if i", "let me", "i could", "i can", "should i", "shall i")
"""Openings of an offer whose verb says what is offered: "Can I check …" is a lookup offer."""
PROPOSAL_PHRASES = (
    "shall i",
    "should i",
    "do you want me",
    "would you like me",
    "would you like for me",
    "may i proceed",
    "may i go ahead",
    "can i proceed",
    "can i go ahead",
    "shall we",
    "is it ok if i",
    "is it okay if i",
    "ok to",
    "okay to",
    "alright to",
    "ok if i",
    "okay if i",
    "alright if i",
    "all right if i",
    "fine if i",
    "mind if i",
    "want me to",
    "like me to",
    "proceed",
    "go ahead",
)
PROPOSAL_LEAD = 25
LOOKUP_LEAD = 40
"""A proposal phrase this close to the start of a question makes it a proposal even if it names facts."""
CONFIRMATION_PHRASES = (
    "is that correct",
    "is this correct",
    "is that right",
    "is this right",
    "correct?",
    "(yes/no)",
    "yes or no",
    "yes/no",
    "(y/n)",
    "do you confirm",
    "confirm that",
    "please confirm",
    "confirm if",
    "confirm whether",
    "do you want to",
    "would you like to",
    "is it ok",
    "is it okay",
    "sound good",
    "sounds good",
    "reply yes",
    "reply with yes",
    "respond with yes",
    "say yes",
    "confirm:",
    "once you confirm",
    "does that work",
    "shall i",
    "should i",
)
HELP_OFFER = re.compile(
    r"\bif (?:you|there is|there's) (?:need|require|have|is|anything)\b[^.?!]{0,30}"
    r"\b(?:assistance|help|questions?|concerns?|anything|information|details)\b"
    r"|\bif you (?:decide|choose|change your mind)\b"
)
"""'If you need further assistance, please let me know': an offer of help, asking for nothing."""
CONFIRMED_THINGS = (
    r"(?:booking|reservation|appointment|order|transfer|request|purchase|rental|ride|visit|changes?|plan"
    r"|ticket|tickets|table|room|rooms)"
)
"""What "please confirm your …" asks the user to approve (not a fact: "please confirm your email")."""
CONFIRM_LEAD = re.compile(
    r"^(?:(?:ok(?:ay)?|alright|all right|so|great|sure(?: thing)?|certainly|perfect|got it|thanks?|thank you"
    r"|just to check|understood|no problem)[,.!]?\s+)*"
    r"(?:(?:just )?confirming\b|to (?:confirm|review|recap|summari[sz]e|verify)\b"
    r"|is (?:the following|this|that|everything|all (?:of )?this) (?:correct|right)\b"
    r"|seeking (?:your )?approval\b"
    r"|are you confirming\b|are you happy for me to\b"
    r"|(?:just )?let(?:'s| me| us) (?:just )?(?:confirm|review|recap|verify)\b|confirm:"
    r"|just to (?:confirm|be sure|make sure|double[- ]check)\b"
    r"|(?:please )?(?:(?:can|could|would|will) you (?:please )?|kindly )?"
    r"confirm (?:me\b|the following|the details|these|that)"
    r"|are you ready to confirm\b"
    r"|confirm (?!the |your |if |whether |which |what |how |who )\w"
    r"|(?:i )?(?:kindly )?(?:ask|need) you to (?:\w+ and )?confirm\b"
    r"|(?:i )?need your (?:final )?confirmation\b"
    r"|please give (?:me )?(?:your )?confirmation|please confirm:|so (?:that's|that is|this is)\b"
    r"|(?:please |pleas |kindly )confirm (?!the |your |if |whether |which |what |how |who |my )\w"
    r"|(?:please |pleas |kindly )?confirm your (?:\w+ )?" + CONFIRMED_THINGS + r"\b"
    r"|(?:please |pleas |kindly )?(?:once again )?(?:verify|check|review|ensure)"
    r"(?: and (?:confirm|review|verify))?"
    r"(?: (?:the following|the details|these details|this|that,|that you|below)|[,:;])"
    r"|(?:just )?to be (?:clear|sure)(?:[,:;] |[,:]? (?:you|so|that|i'll|i will|i'm)\b)"
    r"|please be clear on this"
    r"|to firm up\b|(?:i think )?i (?:have|got) it[:.]"
    r"|if i understand(?: you)? correct(?:ly)?\b"
    r"|(?:please )?give me (?:your |the )?(?:final )?confirmation\b|with your permission\b"
    r"|(?:please )?(?:conform|confrim|confrm) (?:that )?\w"
    r"|let me (?:see|check|make sure) (?:if |that )?i (?:got|have|understood)\b"
    r"|(?:so )?(?:for|as a) confirmation\b|(?:please )?let me know if i (?:got|have) (?:anything|something)"
    r"|(?:can|could) you confirm (?:you're|you are|that you|you want|you'd)\b)"
)
"""A sentence that sets out an action's details for the user's approval ("Confirming a table for 2 at
7 pm.", "To review: you'd like …", "Let's confirm the details."): a confirmation request, with or
without "?"."""
READBACK = re.compile(
    r"^(?:(?:ok(?:ay)?|alright|all right|so|sure(?: thing)?|great|then|fine|got it|understood|i understand"
    r"|perfect|(?:just )?to (?:check|clarify)|if i understand(?: you)? correct(?:ly)?)[,.!]?\s+)*"
    r"(?:you(?:'d| would) (?:like|prefer)\b"
    r"|you are (?:picking up|booking|renting|reserving|buying|scheduling)\b"
    r"|you (?:want|need|wish|require)\b(?! to (?:go|reach|watch|pay|call|arrive|be|get to)\b)"
    r"|(?:booking|reserving|scheduling|renting|buying|purchasing) (?:a|an|the|your|\d)"
    r"|book (?:a|an|\d)"
    r"|i (?:will|'ll) (?:\w+ )?(?:book|reserve|schedule|rent|buy|purchase|set up|transfer|play)\b"
    r"|here(?:'s| is) what i have\b|what i have:)"
)
"""An action's details read back as a statement ("You want a table for 2 at 7 pm.", "Booking 3 tickets
for March 2nd."): it asks the user to check them (with a value in it, and no report of a change)."""
BOOKING_VERBS = r"(?:book|reserve|play|rent|buy|schedule|set|make|transfer|send|add|see|visit|watch)"
"""Verbs of a booking read back as a question ("You'll book 1 room …?", "So I should play it on …?")."""
DECLARATIVE_CHECK = re.compile(
    r"^(?:(?:ok(?:ay)?|alright|so|and|great|sure|just|then)[,.]?\s+)*"
    r"(?:you(?:'d|'re| (?:instead |still |also |just |really )?(?:would|want|wish|will))\b"
    r"|(?:you'll|i should) (?:\w+ )?" + BOOKING_VERBS + r"\b|you'll be \w+ing\b"
    r"|so (?:a|an|the|that)\b|that(?:'s| is| will be)\b"
    r"|this (?:is|will be)\b|a (?:table|reservation|booking|ticket|ride|room|transfer|appointment)\b)"
)
"""A statement asked as a question ("You'd like to rent it?", "So a table for 4 at 7 pm?"): it checks
the action's details with the user (one naming no wh-word)."""
TAG_CHECK = re.compile(
    r"\b(?:is (?:it|that|this|everything|all(?: of)? (?:that|this)) (?:right|correct|ok(?:ay)?|fine|good)"
    r"|is (?:this|that|it) what you (?:want|wanted|need|asked for|meant|had in mind|would like)\b"
    r"|is (?:this|that) (?:acceptable|your desire)\b|do i understand(?: you)? correct(?:ly)?\b"
    r"|do i have (?:that|this|it|everything) (?:right|correct)|does (?:that|this|everything) (?:sound|look) "
    r"(?:right|correct|good|ok(?:ay)?)|(?:,\s*|\s)(?:right|okay|ok|correct)\s*[?.]?\s*$)"
)
"""A tag asking the user to check what was just set out ("…, is it right?", "Do I have that correct?")."""
HOW_ABOUT = re.compile(r"^(?:(?:ok(?:ay)?|so|then)[,.]?\s+)?(?:how|what) about \w+ing\b")
"""'How about renting it?': an offer to do something."""
OPTION_OFFER = re.compile(
    r"^(?:(?:ok(?:ay)?|so|then|sure|well|alright)[,.]?\s+)?"
    r"(?:(?:how|what) about|what do you think (?:of|about)|how do you feel about) "
    r"(?!(?:the|your) (?:\w+ )?(?:date|day|time|city|place|location|number|name|address|amount|price)s?\b)"
    r"(?!(?:it|that|this|them|you|me|now|later|then)\b)"
)
"""'How about Delta Airlines?', 'What about the bus leaving at 8 am?': one option offered to take."""
INTENT_OFFER = re.compile(
    r"^(?:(?:ok(?:ay)?|so|sure|then|alright|great|now)[,.!]?\s+)*"
    r"(?:(?:do|did|would) you (?:still )?(?:want|wish|like|care|need|require|wanna)(?: me)? (?:to|a|an)\b"
    r"|(?:you )?(?:want|wish)(?: me)? to|wanna"
    r"|(?:are|were) you (?:looking|thinking|planning|wanting|hoping|ready|interested)(?: to| of| in| about)?"
    r"|(?:can|could|may|shall) i (?:assist|help) you (?:in|with)"
    r"|(?:do )?you (?:need|require)(?: me)? to|are you willing to|(?:any|do you have a(?:ny)?) plans? to"
    r"|(?:can|could|may|shall) i (?:book|buy|reserve|rent|purchase|grab|make|schedule|set up)\b"
    r"|(?:do|did|would) you wanna (?=\w)|(?:should|shall) we\b"
    r"|(?:please )?let me know if you (?:wish|want|would like|'d like) to\b"
    r"|(?:make|book|reserve|buy|purchase|rent|schedule|play|transfer|add|send|order|get)\b)"
)
"""'Want to book this car?', 'Were you thinking of making a transfer?', 'Make a transfer?': the agent
offers to carry out a change; a proposal when a verb of change or of a transaction follows."""
TRANSACTION = re.compile(
    r"\b(?:make|making|get|getting|set(?:ting)? up|play|playing|buy|buying|book|booking|"
    r"reserve|reserving|rent|renting|purchase|purchasing|schedule|scheduling|reservation|booking)\b"
)
HELP_MORE = re.compile(
    r"\b(?:can|could|may|shall) i (?:still |further |also |now )?(?:help|assist) you\b"
    r"(?! (?:to |with (?!anything|something)|in \w+ing\b"
    r"|(?:book|reserve|make|buy|rent|schedule|set up|get)\b))"
    r"|\b(?:need|needing|want|like|require) (?:any |some )?(?:more|further|additional|other|else|extra) "
    r"(?:help|assistance)\b|\bassist you with (?:anything|something) (?:else|more)\b|\bneed another\b"
    r"|\bwill that be all\b|\banything (?:else )?(?:i|we) can (?:help|assist|do)\b"
    r"|\b(?:help|assist)(?: you)? (?:some|any) ?more\b"
    r"|\bbe of (?:any )?(?:further|more|additional) (?:help|assistance)\b"
    r"|\b(?:help|assist) (?:you )?with (?:anything|something) (?:else|more)\b"
    r"|^(?:(?:is there |do you (?:need|want) |you want )?(?:anything|something) (?:else|more)\b[^?]{0,30}\?)"
)
"""'Can I still help you?', 'Do you need more help?': an offer of further help."""
PREFERENCE_QUESTION = re.compile(
    r"^(?:do you have|is there|are there|have you got|do you prefer|would you prefer)\b[^?]{0,20}"
    r"(?:\b(?:favou?rite|prefer|preferred|particular|specific|preference|kind|type|category|in mind)\b"
    r"|\bor\b)"
    r"|^(?:will you be|are you (?!sure|confirming|happy for me|ok with|okay with|ready to confirm)|did you"
    r"|do you think|were you|are you going)\b"
)
"""'Do you have a preferred restaurant?', 'Will you be leaving on March 1st?': a question about the
user's preference or plan, not a proposal."""
VAGUE_WORDS = frozenset(
    [
        "details",
        "detail",
        "information",
        "info",
        "more",
        "clarify",
        "clarification",
        "elaborate",
        "explain",
        "mean",
        "meant",
        "something",
        "anything",
        "further",
        "else",
        "help",
        "assistance",
        "specifics",
        "exactly",
        "bit",
        "describe",
        "describing",
        "situation",
        "issue",
        "problem",
        "happened",
        "happening",
        "going",
        "context",
        "say",
        "tell",
    ]
)
"""Words of a question that name nothing in particular ("Could you give me more details?")."""
OPEN_OFFERS = (
    "anything else",
    "something else",
    "how can i help",
    "how may i help",
    "how can i assist",
    "how may i assist",
    "what can i do for you",
    "any other",
    "any further",
    "any more questions",
    "anything more",
    "anything further",
    "need anything",
    "help further",
    "more questions",
    "other questions",
)
ACKNOWLEDGEMENTS = (
    "sorry",
    "apologi",
    "i understand",
    "understandable",
    "i hear you",
    "i can see",
    "i can imagine",
    "frustrating",
    "stressful",
    "that must be",
    "i know this",
    "thank you for your patience",
    "that sounds",
    "i appreciate",
    "don't worry",
    "no need to worry",
    "rest assured",
    "i'm here to help",
    "i am here to help",
)
REFUSALS = (
    "cannot",
    "can't",
    "can not",
    "unable to",
    "not able to",
    "not allowed",
    "not permitted",
    "not eligible",
    "ineligible",
    "not possible",
    "won't be able",
    "will not be able",
    "i'm afraid",
    "against our policy",
    "against the policy",
    "policy does not allow",
    "policy doesn't allow",
    "not allow",
    "not be allowed",
    "have to decline",
    "must decline",
    "non-refundable",
    "nonrefundable",
    "not refundable",
    "is not an option",
)
REASON_MARKERS = (
    "because",
    "since ",
    " as ",
    "due to",
    "policy",
    "policies",
    "only ",
    "eligible",
    "non-refundable",
    "nonrefundable",
    "rule",
    "require",
    "must",
    "according to",
    "per our",
    "under our",
    "under the",
    "beyond",
    "past the",
    "after the",
    "already",
    "expired",
    "limit",
    "not enough",
    "insufficient",
    "exceeds",
    "outside",
)
"""A refusal holding one of these gives a reason (the user may still disagree with it)."""
IDENTITY_PHRASES = (
    "verify your identity",
    "confirm your identity",
    "verify who you are",
    "identify you",
    "authenticate",
    "locate your account",
    "locate your profile",
    "find your account",
    "find your profile",
    "look up your account",
    "look you up",
    "pull up your account",
    "access your account",
    "locate you",
    "find you in",
)
ERROR_LEAK_PATTERNS = (
    re.compile(r"traceback \(most recent call last\)", re.IGNORECASE),
    re.compile(r"error executing tool", re.IGNORECASE),
    re.compile(r"validation errors? for \w+", re.IGNORECASE),
    re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception):"),
    re.compile(r"(?:^|[\n`\"'>])\s*Error:"),
    re.compile(r"\{\s*\"(?:error|detail|errors)\"\s*:"),
)
"""Raw tool errors quoted at the user: tracebacks, exception names, `Error:` lines, JSON error bodies.
Plain-language refusals ("I cannot make an exception") are never leaks."""

INFO_PHRASES = (
    "here is",
    "here are",
    "here's",
    " you have ",
    " there are ",
    " there is ",
    "currently",
    " status",
    " balance",
    " total",
    " cost",
    " price",
    " fee",
    " due ",
    " available",
    " eligible",
    " scheduled",
    " includes",
    " shows",
    "according to",
    " policy",
)
"""Statement phrases that tell the user something (beside values: digits, amounts, ids)."""
PLANS: tuple[str, ...] = (
    " i can (?!see|tell|confirm)",
    " i will ",
    " i'll ",
    " i would ",
    " i'd ",
    " let me ",
    " my proposal",
    " proposed",
    " next,",
)
PLANS += (
    " to do that",
    " i'm going to",
    " i am going to",
    " here is the change",
    " here's the plan",
    " step ",
)
"""A statement of what the agent would do: a plan, not information."""
PLAN = re.compile("|".join(PLANS))
VALUE = re.compile(r"\d|\$")
MONTH_DAY = r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d"
"""A date written with its month ("March 3rd", "mar. 3"), up to its first digit."""
ONE_VALUE = re.compile(MONTH_DAY + r"+(?:st|nd|rd|th)?\b|\b(?:today|tomorrow)\b|\$?\d[\d,.:]*(?: ?[ap]m)?")
"""One value put to the user: a date, a time, a sum, a number (a booking's details put several)."""
WH_WORDS = frozenset(
    {"which", "what", "when", "where", "who", "whom", "whose", "how", "why", "what's", "where's", "who's"}
)
AUXILIARIES = frozenset(
    {"is", "are", "was", "do", "does", "did", "would", "could", "can", "shall", "should", "will", "may"}
    | {"might", "must", "have", "has", "isn't", "aren't", "don't", "doesn't", "won't", "wouldn't"}
)
YES_NO_WORDS = frozenset({"ok", "okay", "alright", "agreed", "good", "right", "correct", "fine"})
WORD = re.compile(r"[a-z0-9']+")


EXPLAINED = re.compile(r"[:(—–]\s*\w")
"""A refusal followed by a colon, a dash or a bracket goes on to say why."""
CONTRACTED = {"can't": "cannot", "won't": "will not", "isn't": "is not", "aren't": "are not"}
SUBORDINATORS = frozenset({"before", "so", "once", "after", "until", "that", "where", "when", "as"})
REQUEST_VERBS = frozenset(
    {"provide", "share", "tell", "telling", "send", "give", "spell", "enter", "type", "remind", "specify"}
)
