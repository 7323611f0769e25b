"""The retail domain: an online store's orders, products and customers (τ-Emotion-Bench tools)."""

from pathlib import Path

from taue.envs.retail.generate import generate
from taue.envs.retail.models import Order, Product, User
from taue.envs.retail.rules import CLOCK
from taue.envs.retail.tools import TOOLS
from taue.envs.runtime.domain import Domain

DOMAIN = Domain(
    name="retail",
    folder=Path(__file__).parent,
    tables=[Order, Product, User],
    tools=TOOLS,
    generate=generate,
    clock=CLOCK,
    tracer=f"{__name__}.tracer:TRACER",
)
