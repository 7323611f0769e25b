"""Basketball's phrase banks for season passes, team-store returns and youth camps (merged into
phrases.BANKS). Slots: `{pass_words}` and `{length}` for a pause, `{items}` and `{order}` for a return,
`{player}` (`{first}` the first name), `{camp}` and `{pay}` for a camp place. No text names a refund
or fee amount."""

from __future__ import annotations

from taue.envs.runtime.authoring import Bank

HOLDERS = (
    "a season-pass holder who rarely misses a home game",
    "a longtime pass holder with a busy spring ahead",
    "a pass holder who shares the seats with friends",
)
SHOPPERS = (
    "a fan who buys most of their gear from the team store",
    "a shopper who orders team merchandise online",
    "a supporter who likes to wear the team colours",
)
PARENTS = (
    "a parent whose child lives for basketball",
    "a parent juggling work and practice schedules",
    "a guardian who keeps track of every youth programme",
)

# ------------------------------------------------------------------------------------------ pausing

PAUSE_REQUESTS = (
    "Please pause my {pass_words} for {length}.",
    "I'd like to pause my {pass_words} for {length}, starting today.",
    "Could you put my {pass_words} on hold for {length}?",
    "I'm calling to pause my {pass_words} for {length}.",
    "Is it possible to pause my {pass_words} for {length} from today?",
    "What I need is a {length} pause on my {pass_words}.",
    "Can we freeze my {pass_words} for {length}?",
    "I need my {pass_words} paused for {length}.",
)
PAUSE_WANTS = (
    "you want your {pass_words} paused for {length}, starting today",
    "you would like a {length} pause on your {pass_words}, from today",
    "you need to put your {pass_words} on hold for {length}, beginning today",
    "pausing your {pass_words} for {length} from today is the point of your call",
    "you have decided to pause your {pass_words} for {length}, starting now",
    "you are asking for your {pass_words} to be paused for {length}, from today",
    "you hope to freeze your {pass_words} for {length}, starting today",
    "you want a break of {length} on your {pass_words}, counted from today",
)
PAUSE_REASONS = {
    "": (
        "I'll be travelling for work and can't use the seats",
        "I'm having a minor operation and will be resting at home",
        "I've got a busy stretch at work and won't make the games",
        "I'm going abroad for a while",
        "I'm moving house and my evenings are taken",
        "I'm helping out a relative out of town for a few weeks",
        "my shifts changed and I can't get to home games for now",
        "I'd rather not waste the seats while I'm away",
    ),
}

PAUSE = Bank(
    requests=PAUSE_REQUESTS,
    wants=PAUSE_WANTS,
    reasons=PAUSE_REASONS,
    preferences=(
        "I'd like to know which games the pause covers before you do it",
        "the pause should start today, not later",
        "please read the pause back to me before you make it",
        "I only want the pause, nothing else changed on the pass",
        "please tell me the date the pass becomes active again",
        "I'd like one pause of {length}, not two shorter ones",
        "I'd like to confirm the pass and the length before it's done",
        "once it's paused, I'd like to hear it went through",
    ),
    personas=HOLDERS,
)

PAUSE_DENIED = Bank(
    requests=PAUSE_REQUESTS,
    wants=PAUSE_WANTS,
    reasons=PAUSE_REASONS,
    preferences=(
        "if it can't be paused, I'll keep the pass as it is",
        "I don't want the pass cancelled, only paused",
        "if the pause isn't allowed, I'd like to know the rule",
        "please don't change anything else on the pass",
        "if the answer is no, I'll find someone to use the seats",
        "I'd like a clear yes or no on the pause",
        "I only want it paused if the rules allow it",
        "if it can't be done, please just say so",
    ),
    personas=HOLDERS,
)

# ------------------------------------------------------------------------------------------ returns

RETURN_REQUESTS = (
    "I'd like to return the {items} from my {order}.",
    "Could you process a return for the {items} from my {order}?",
    "Please return the {items} from my {order}.",
    "I'm calling to send back the {items} from my {order}.",
    "Is it possible to return the {items} from my {order}?",
    "What I need is a return of the {items} from my {order}.",
    "Can we set up a return for the {items} from my {order}?",
    "I want to send the {items} from my {order} back.",
)
RETURN_WANTS = (
    "you want to return the {items} from your {order}",
    "you would like to send back the {items} from your {order}",
    "returning the {items} from your {order} is the plan",
    "you need a return for the {items} from your {order}",
    "you have decided to return the {items} from your {order}",
    "you want the {items} from your {order} taken back",
    "you are hoping to hand back the {items} from your {order}",
    "sending the {items} from your {order} back is what you are ringing about",
)
RETURN_REASONS = {
    "": (
        "it wasn't quite what I expected",
        "I changed my mind after it arrived",
        "I ordered more than I needed",
        "the colour looks different from the picture",
        "it was meant as a gift and the plans changed",
        "I found I don't really need it",
        "the quality isn't what I hoped for",
        "I bought it on impulse and regret it",
    ),
    "sized": (
        "it doesn't fit well",
        "the size runs smaller than I expected",
        "it's too big for me",
        "the fit isn't right",
        "I picked the wrong size when I ordered",
        "it was meant as a gift and doesn't fit the person",
        "I tried it on and it just doesn't sit right",
        "the cut is different from what I'm used to",
    ),
}

RETURN = Bank(
    requests=RETURN_REQUESTS,
    wants=RETURN_WANTS,
    reasons=RETURN_REASONS,
    preferences=(
        "the refund should go back to the card the order was paid with",
        "I'd like to hear what I get back before the return is made",
        "please return only the items I named, nothing else",
        "I'd like the return read back to me first",
        "please tell me once the return is processed",
        "I don't need a replacement, only the return",
        "I'd like to confirm the items before you go ahead",
        "the rest of the order stays with me",
    ),
    personas=SHOPPERS,
)

RETURN_DENIED = Bank(
    requests=RETURN_REQUESTS,
    wants=RETURN_WANTS,
    reasons={
        **RETURN_REASONS,
        "personalized": (
            "the custom name doesn't look how I imagined",
            "I changed my mind about the personalised print",
            "the name on the back isn't something I want to wear any more",
            "the custom jersey turned out differently from what I pictured",
            "I ordered the custom print in a rush and regret it",
            "the personalised jersey was a gift that didn't land",
            "I'd rather have a plain one after all",
            "the lettering looks off to me",
        ),
        "late": (
            "I only got around to trying it on now",
            "I've been away and only just opened the package",
            "it sat in the box for a while before I looked at it",
            "I didn't have time to deal with it until now",
            "I put off sorting it out for a few weeks",
            "it took me a while to decide it wasn't for me",
            "I forgot about it until I was clearing out the closet",
            "life got busy and I'm only dealing with it now",
        ),
    },
    preferences=(
        "if it can't be returned, I'll keep it",
        "if the return isn't allowed, I'd like to know the rule",
        "please don't change anything else on the order",
        "I only want the return if the policy allows it",
        "I'd like a straight answer either way",
        "if it's a no, please just say so",
        "I don't want store credit, only a proper return if possible",
        "if it can't go back, I'll try to give it away",
    ),
    personas=SHOPPERS,
)

# -------------------------------------------------------------------------------------------- camps

CAMP_REQUESTS = (
    "Please sign up {player} for the {camp}, paid with my {pay}.",
    "I'd like to register {player} for the {camp}; please charge my {pay}.",
    "Could you enrol {player} in the {camp}? I'll pay with my {pay}.",
    "I'm calling to get {player} a place at the {camp}, using my {pay}.",
    "Is it possible to register {player} for the {camp}? My {pay} is fine for the fee.",
    "What I need is a place for {player} in the {camp}, paid with my {pay}.",
    "Can we book {player} into the {camp}? Please use my {pay}.",
    "I want {player} signed up for the {camp}, with the fee on my {pay}.",
)
CAMP_WANTS = (
    "you want your child {player} registered for the {camp}, the fee paid with your {pay}",
    "you would like to sign {player} up for the {camp}, paying with your {pay}",
    "getting {player} a place at the {camp} is what you are looking for, charged to your {pay}",
    "you need {player} enrolled in the {camp}, with your {pay} covering the fee",
    "you have decided to register {player} for the {camp} and pay with your {pay}",
    "you hope to book {player} into the {camp}, using your {pay}",
    "you want a place for {player} at the {camp}, paid for with your {pay}",
    "you are signing {player} up for the {camp}, the fee going on your {pay}",
)
CAMP_REASONS = {
    "": (
        "{first} has been asking to go for months",
        "{first} wants to work on their game over the break",
        "the camp fits the school holidays nicely",
        "{first}'s coach suggested a camp to build skills",
        "{first} loved watching the team and wants to learn from the pros",
        "a few of {first}'s teammates are going",
        "I want {first} to stay active during the holidays",
        "{first} is trying out for a team and wants the practice",
    ),
}

REGISTER = Bank(
    requests=CAMP_REQUESTS,
    wants=CAMP_WANTS,
    reasons=CAMP_REASONS,
    preferences=(
        "I'd like to hear the fee before anything is charged",
        "please charge only the card I named",
        "I'd like the camp dates read back to me first",
        "please confirm the player and the camp with me before registering",
        "I'd like the registration number once it's done",
        "only {first} needs a place, nobody else",
        "I want to give my okay before the fee is taken",
        "please let me know once the place is confirmed",
    ),
    personas=PARENTS,
)

REGISTER_DENIED = Bank(
    requests=CAMP_REQUESTS,
    wants=CAMP_WANTS,
    reasons=CAMP_REASONS,
    preferences=(
        "if {first} can't get a place, I'd like to know why",
        "if it isn't possible, please don't charge anything",
        "I only want the place if {first} can actually attend",
        "if the answer is no, I'll look for another programme myself",
        "please don't register anyone else instead",
        "I'd like a clear yes or no",
        "if there's a problem, please explain it plainly",
        "please don't charge my card unless the place is confirmed",
    ),
    personas=PARENTS,
)

CANCEL_INSTEAD = Bank(
    requests=(
        "If they can't be exchanged, could you cancel my {tickets} instead and refund what the rules allow?",
        "Then please cancel the {tickets} for a refund.",
        "In that case, cancel my {tickets}; I'll take the refund the rules give.",
        "Alright, could you cancel the {tickets} then?",
        "If an exchange isn't allowed, I'll cancel the {tickets} instead.",
        "Then let's cancel my {tickets} and refund them.",
        "Could you cancel the {tickets} then? That's my second choice.",
        "Fine, cancelling the {tickets} works if they can't be moved.",
    ),
    wants=("you would have your {tickets} cancelled for a refund",),
    reasons={"": ("",)},
    preferences=(
        "if they can't be exchanged, I'd settle for cancelling the {tickets} and getting a refund",
        "should the exchange be refused, cancelling the {tickets} works for me",
        "if the rules don't allow a move, I'll cancel the {tickets} instead",
        "failing an exchange, a cancellation of the {tickets} is my second choice",
        "if the rules say no, cancelling the {tickets} for whatever refund applies is fine",
        "when an exchange is ruled out, cancelling the {tickets} suits me",
        "if they have to stay on that date, I'd rather cancel the {tickets}",
        "if my exchange is refused, I'd cancel the {tickets} and take the refund",
    ),
)

MORE: dict[str, Bank] = {
    "cancel_instead": CANCEL_INSTEAD,
    "pause_pass": PAUSE,
    "pause_denied": PAUSE_DENIED,
    "return_items": RETURN,
    "return_denied": RETURN_DENIED,
    "register_player": REGISTER,
    "register_denied": REGISTER_DENIED,
}
