"""The travel domain: an online travel agency's hotel stays, car rentals and holiday packages,
grouped in customers' itineraries, with travel insurance and claims."""

from pathlib import Path

from taue.envs.runtime.domain import Domain
from taue.envs.travel.generate import generate
from taue.envs.travel.models import TABLES
from taue.envs.travel.rules import CLOCK
from taue.envs.travel.tools import TOOLS

DOMAIN = Domain(
    name="travel",
    folder=Path(__file__).parent,
    tables=TABLES,
    tools=TOOLS,
    generate=generate,
    clock=CLOCK,
    tracer=f"{__name__}.tracer:TRACER",
)
