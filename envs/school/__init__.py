"""The school domain: Northvale University's student services desk (enrolment, course registration and
drops, grades, tuition invoices, payments and refunds, transcript orders)."""

from pathlib import Path

from taue.envs.runtime.domain import Domain
from taue.envs.school.generate import generate
from taue.envs.school.models import TABLES
from taue.envs.school.rules import CLOCK
from taue.envs.school.tools import TOOLS

DOMAIN = Domain(
    name="school",
    folder=Path(__file__).parent,
    tables=TABLES,
    tools=TOOLS,
    generate=generate,
    clock=CLOCK,
    tracer=f"{__name__}.tracer:TRACER",
)
