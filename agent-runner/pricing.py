"""What the model calls of an episode cost: a price table of $ per million tokens per model name,
`{"MODEL": {"input": 3.0, "output": 15.0}}` (`taue run --price-table FILE`)."""

from __future__ import annotations

from typing import Any

PriceTable = dict[str, dict[str, float]]


def cost_usd(prompt_tokens: int, completion_tokens: int, price: dict[str, float]) -> float:
    cost = prompt_tokens * price.get("input", 0.0) + completion_tokens * price.get("output", 0.0)
    return round(cost / 1_000_000, 8)


def priced(usage: dict[str, Any], model: str | None, table: PriceTable | None) -> dict[str, Any]:
    """`usage` (prompt_tokens, completion_tokens) with `cost_usd` added when the table prices `model`."""
    price = (table or {}).get(model or "")
    if price is None or "prompt_tokens" not in usage:
        return usage
    return {**usage, "cost_usd": cost_usd(usage["prompt_tokens"], usage.get("completion_tokens", 0), price)}
