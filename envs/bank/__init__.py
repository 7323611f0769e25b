"""The bank domain: a retail bank's customer service over accounts, transfers, payees, debit cards,
card disputes and loans."""

from pathlib import Path

from taue.envs.bank.generate import generate
from taue.envs.bank.models import TABLES
from taue.envs.bank.rules import CLOCK
from taue.envs.bank.tools import TOOLS
from taue.envs.runtime.domain import Domain

DOMAIN = Domain(
    name="bank",
    folder=Path(__file__).parent,
    tables=TABLES,
    tools=TOOLS,
    generate=generate,
    clock=CLOCK,
    tracer=f"{__name__}.tracer:TRACER",
)
