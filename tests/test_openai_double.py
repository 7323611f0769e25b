"""The OpenAI-compatible test double answers the real `openai` client as scripted."""

from __future__ import annotations

import openai
import pytest

from tests.openai_double import OpenAIDouble


async def test_double_serves_scripted_completions_to_the_openai_client() -> None:
    replies = [
        {"tool_calls": [{"name": "get_user_details", "arguments": {"user_id": "u1"}}]},
        {"content": "All done."},
        {"status": 503},
    ]
    async with OpenAIDouble(replies) as double:
        client = openai.AsyncOpenAI(base_url=double.base_url, api_key="test-key", max_retries=0)
        first = await client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}], temperature=0, seed=3
        )
        call = first.choices[0].message.tool_calls[0]
        assert call.function.name == "get_user_details" and call.function.arguments == '{"user_id": "u1"}'
        second = await client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "and?"}]
        )
        assert second.choices[0].message.content == "All done." and second.usage.total_tokens == 18
        with pytest.raises(openai.APIStatusError):
            await client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
        assert double.requests[0]["temperature"] == 0 and double.requests[0]["seed"] == 3
        assert double.headers[0]["authorization"] == "Bearer test-key"
        assert len(double.requests) == 3
