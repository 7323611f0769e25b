"""The basketball domain: a pro league's fan services (game tickets, season passes, rescheduled
games, team-store orders and youth camps)."""

from pathlib import Path

from taue.envs.basketball.generate import generate
from taue.envs.basketball.models import TABLES
from taue.envs.basketball.rules import CLOCK
from taue.envs.basketball.tools import TOOLS
from taue.envs.runtime.domain import Domain

DOMAIN = Domain(
    name="basketball",
    folder=Path(__file__).parent,
    tables=TABLES,
    tools=TOOLS,
    generate=generate,
    clock=CLOCK,
    tracer=f"{__name__}.tracer:TRACER",
)
