"""Costs: a price table wins; a hosted API's model is priced from genai-prices' catalogue; a model
served elsewhere (a local vLLM, a loopback server) gets no cost rather than a guessed one."""

from __future__ import annotations

from genai_prices import Usage, calc_price

from taue.runner.pricing import cost_of, priced

OPENAI = "https://api.openai.com/v1"


def test_a_price_table_entry_wins_over_the_catalogue() -> None:
    table = {"gpt-4o": {"input": 1.0, "output": 2.0}}
    assert cost_of(1_000_000, 500_000, "gpt-4o", OPENAI, table) == 2.0


def test_a_hosted_apis_model_is_priced_from_the_catalogue() -> None:
    expected = calc_price(
        Usage(input_tokens=12_000, output_tokens=3_000), model_ref="gpt-4o", provider_id="openai"
    )
    cost = cost_of(12_000, 3_000, "gpt-4o", OPENAI)
    assert cost is not None and cost > 0 and abs(cost - float(expected.total_price)) < 1e-8


def test_models_served_elsewhere_or_unknown_get_no_cost() -> None:
    assert cost_of(1000, 100, "gpt-4o", "http://127.0.0.1:8000/v1") is None  # self-hosted: free here
    assert cost_of(1000, 100, "Qwen/Qwen3-8B", OPENAI) is None
    assert cost_of(1000, 100, "gpt-4o", None) is None
    usage = {"prompt_tokens": 1000, "completion_tokens": 100}
    assert priced(usage, "gpt-4o", None, "http://127.0.0.1:8000/v1") == usage
    assert priced(usage, "gpt-4o", None, OPENAI)["cost_usd"] == cost_of(1000, 100, "gpt-4o", OPENAI)
    assert priced({"model_calls": 0}, "gpt-4o", None, OPENAI) == {"model_calls": 0}
