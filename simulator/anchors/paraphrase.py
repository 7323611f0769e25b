"""Paraphrasing anchors through an OpenAI-compatible chat endpoint (vLLM, llama.cpp, a hosted API).

Every request runs at temperature 0 with a fixed seed. A paraphrase is kept only when it still reads
as an anchor (second person, 2-4 sentences, no first person, no stop tokens) and is new; otherwise the
phrase-bank text stays, so the output always holds distinct, valid anchors.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence

import openai
from pydantic import BaseModel

from taue.simulator.anchors.compose import Anchor, sentences

SYSTEM_PROMPT = (
    "You rewrite instructions for a simulated customer in a customer-service benchmark. Rewrite the "
    "instruction in your own words. Keep it in the second person (start with 'You'), 2 to 4 sentences, "
    "with exactly the same feelings, politeness, urgency and trust. Do not add goals, requests, facts, "
    "names or events. Reply with the rewritten instruction only."
)
MAX_CHARS = 600
_FIRST_PERSON = re.compile(r"\b(I|I'm|I've|me|my|mine)\b")


class ParaphraseResult(BaseModel):
    anchors: list[Anchor]
    rewritten: int
    kept: int


def acceptable(text: str) -> bool:
    """Whether a paraphrase still has the anchor's form."""
    return (
        text.startswith("You")
        and 2 <= len(sentences(text)) <= 4
        and len(text) <= MAX_CHARS
        and "###" not in text
        and not _FIRST_PERSON.search(text)
    )


async def _rewrite(
    client: openai.AsyncOpenAI, model: str, seed: int, text: str, gate: asyncio.Semaphore
) -> str:
    async with gate:
        completion = await client.chat.completions.create(
            model=model,
            messages=[{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": text}],
            temperature=0,
            seed=seed,
            max_tokens=200,
        )
    content = completion.choices[0].message.content if completion.choices else None
    return " ".join((content or "").split())


async def paraphrase_anchors(
    anchors: Sequence[Anchor],
    model: str,
    base_url: str,
    api_key: str = "EMPTY",
    seed: int = 0,
    concurrency: int = 8,
) -> ParaphraseResult:
    """Each anchor rewritten by `model`, or kept as it is when the rewrite is unusable."""
    gate = asyncio.Semaphore(concurrency)
    async with openai.AsyncOpenAI(base_url=base_url, api_key=api_key, max_retries=3, timeout=120) as client:
        rewrites = await asyncio.gather(*(_rewrite(client, model, seed, a.text, gate) for a in anchors))
    seen = {a.text for a in anchors}
    out: list[Anchor] = []
    for original, rewrite in zip(anchors, rewrites, strict=True):
        if acceptable(rewrite) and rewrite not in seen:
            seen.add(rewrite)
            out.append(original.model_copy(update={"text": rewrite}))
        else:
            out.append(original)
    rewritten = sum(a.text != o.text for a, o in zip(out, anchors, strict=True))
    return ParaphraseResult(anchors=out, rewritten=rewritten, kept=len(out) - rewritten)
