"""What the model calls of an episode cost.

A price table (`taue run --price-table FILE`: `{"MODEL": {"input": 3.0, "output": 15.0}}`, $ per
million tokens) prices a model by name, and wins. Without a table entry, a hosted API's model is
priced from genai-prices' catalogue (a maintained, offline price list), matched by model name and
endpoint URL; a model served anywhere else (vLLM on your machines, a loopback test server) has no
catalogue price, so its usage carries no cost rather than a guessed one.
"""

from __future__ import annotations

from typing import Any

PriceTable = dict[str, dict[str, float]]


def cost_usd(prompt_tokens: int, completion_tokens: int, price: dict[str, float]) -> float:
    cost = prompt_tokens * price.get("input", 0.0) + completion_tokens * price.get("output", 0.0)
    return round(cost / 1_000_000, 8)


def cost_of(
    prompt_tokens: int,
    completion_tokens: int,
    model: str | None,
    base_url: str | None = None,
    table: PriceTable | None = None,
) -> float | None:
    """The cost of the tokens: from the table, else from the catalogue; None when neither prices it."""
    price = (table or {}).get(model or "")
    if price is not None:
        return cost_usd(prompt_tokens, completion_tokens, price)
    return catalogue_cost(prompt_tokens, completion_tokens, model, base_url)


def catalogue_cost(
    prompt_tokens: int, completion_tokens: int, model: str | None, base_url: str | None
) -> float | None:
    """genai-prices' price of a hosted API's model, or None (no endpoint, unknown provider or model)."""
    if not model or not base_url:
        return None
    from genai_prices import Usage, calc_price

    try:
        found = calc_price(
            Usage(input_tokens=prompt_tokens, output_tokens=completion_tokens),
            model_ref=model,
            provider_api_url=base_url,
        )
    except LookupError:
        return None
    return round(float(found.total_price), 8)


def warm_catalogue(models: list[tuple[str | None, str | None]]) -> None:
    """Price these (model, endpoint) pairs once, so that the catalogue is loaded (~0.2 s of CPU, once
    per process) before a run's episodes start rather than inside the first model call of one."""
    for model, base_url in models:
        catalogue_cost(0, 0, model, base_url)


def priced(
    usage: dict[str, Any], model: str | None, table: PriceTable | None, base_url: str | None = None
) -> dict[str, Any]:
    """`usage` (prompt_tokens, completion_tokens) with `cost_usd` added when the model has a price."""
    if "prompt_tokens" not in usage:
        return usage
    cost = cost_of(usage["prompt_tokens"], usage.get("completion_tokens", 0), model, base_url, table)
    return usage if cost is None else {**usage, "cost_usd": cost}
