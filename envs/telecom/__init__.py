"""The telecom domain: customers, service plans, devices, bills and support tickets (τ-Emotion-Bench tools).

No tool ends the conversation: the published environment declares `transfer_to_human_support` as
terminating but never registers it, and neither do we (docs/compatibility.md).
"""

from pathlib import Path

from taue.envs.runtime.domain import Domain
from taue.envs.telecom.generate import generate
from taue.envs.telecom.models import TABLES
from taue.envs.telecom.rules import CLOCK
from taue.envs.telecom.tools import TOOLS

DOMAIN = Domain(
    name="telecom",
    folder=Path(__file__).parent,
    tables=TABLES,
    tools=TOOLS,
    generate=generate,
    clock=CLOCK,
    tracer=f"{__name__}.tracer:TRACER",
)
