"""The telehealth domain: patients, clinicians, appointments, medical records, medication suppliers and
remote-monitoring devices, with the published τ-Emotion-Bench telehealth tools."""

from pathlib import Path

from envs.runtime.domain import Domain
from envs.telehealth.generate import CLOCK, generate
from envs.telehealth.models import TABLES
from envs.telehealth.tools import TOOLS

DOMAIN = Domain(
    name="telehealth",
    folder=Path(__file__).parent,
    tables=TABLES,
    tools=TOOLS,
    generate=generate,
    clock=CLOCK,
)
