"""The movie domain: guest services of the Lumen Cinemas chain (showtimes, seats and tickets,
exchanges and refunds, memberships)."""

from pathlib import Path

from taue.envs.movie.generate import generate
from taue.envs.movie.models import TABLES
from taue.envs.movie.rules import CLOCK
from taue.envs.movie.tools import TOOLS
from taue.envs.runtime.domain import Domain

DOMAIN = Domain(
    name="movie",
    folder=Path(__file__).parent,
    tables=TABLES,
    tools=TOOLS,
    generate=generate,
    clock=CLOCK,
    tracer=f"{__name__}.tracer:TRACER",
)
