"""The telehealth domain: patients, clinicians, appointments, medical records, medication suppliers and
remote-monitoring devices, with the published τ-Emotion-Bench telehealth tools."""

from pathlib import Path

from taue.envs.runtime.domain import Domain
from taue.envs.telehealth.generate import generate
from taue.envs.telehealth.models import TABLES
from taue.envs.telehealth.rules import CLOCK
from taue.envs.telehealth.tools import TOOLS

DOMAIN = Domain(
    name="telehealth",
    folder=Path(__file__).parent,
    tables=TABLES,
    tools=TOOLS,
    generate=generate,
    clock=CLOCK,
    tracer=f"{__name__}.tracer:TRACER",
)
