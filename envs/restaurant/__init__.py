"""The restaurant domain: the Olive & Ember group's guest services across five locations — table
reservations, takeaway and delivery orders, and the loyalty programme."""

from pathlib import Path

from taue.envs.restaurant.generate import generate
from taue.envs.restaurant.models import TABLES
from taue.envs.restaurant.rules import CLOCK
from taue.envs.restaurant.tools import TOOLS
from taue.envs.runtime.domain import Domain

DOMAIN = Domain(
    name="restaurant",
    folder=Path(__file__).parent,
    tables=TABLES,
    tools=TOOLS,
    generate=generate,
    clock=CLOCK,
    tracer=f"{__name__}.tracer:TRACER",
)
