"""A scripted model that ships in the package: for tests, demos and overhead benchmarks.

    model = ScriptedModel(["The bridge opened in 2009 [1].", ModelTimeout("slow")])

Each call takes the next scripted reply (a string, a function of the messages, or an
exception to raise); when the script runs out it repeats `default`. Replies stream in small
pieces, optionally with a delay per piece, and every prompt is recorded in `calls`.
`get_model("fake")` gives one whose default reply cites the first source it was shown.

A reply can also call tools, as an agent loop's model would: a `ToolCall` alone, or a
sequence mixing text and calls, streamed in order (text in small pieces, each call whole):

    search = ToolCall("call_1", "search", {"query": "connect timeout"})
    model = ScriptedModel([
        ["Let me look that up.", search],                 # turn 1: text, then a call
        lambda messages: f"It is {messages[-1].content}.",  # turn 2: reads the tool result
    ])

A function of the messages may return any of these forms too.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Callable, Sequence

from citesynth.analysis import estimate_tokens
from citesynth.llm.base import ChatOptions, Message, Piece, ToolCall, Usage

Turn = str | ToolCall | Sequence[str | ToolCall]
Reply = Turn | Callable[[Sequence[Message]], Turn] | BaseException

_SOURCE_HEADER = re.compile(r"^\[(\d+)[^\]\n]*\]", re.M)
_SENTENCE = re.compile(r"^(.+?[.!?])(\s|$)")


def cite_first_source(messages: Sequence[Message]) -> str:
    """A grounded reply: the first prose sentence of the first numbered source, cited."""
    prompt = "\n".join(m.content for m in messages if m.role == "user")
    header = _SOURCE_HEADER.search(prompt)
    if header is None:
        return "Not found in the sources."
    following = _SOURCE_HEADER.search(prompt, header.end())
    block = prompt[header.end() : following.start() if following else len(prompt)]
    # Under the answer prompts' context the rest of the header line is its location and
    # subject; the naive prompt puts the source's text right after its number.
    if any(m.role == "system" for m in messages):
        block = block.partition("\n")[2]
    for line in block.splitlines():
        text = line.strip().lstrip("…").strip()
        if len(text.split()) >= 4 and not text.startswith(("#", "```", "|", "===")):
            sentence = _SENTENCE.match(text)
            return f"{(sentence.group(1) if sentence else text).strip()} [{header.group(1)}]"
    return "Not found in the sources."


class ScriptedModel:
    """Replies from a script; records the prompts it was given."""

    def __init__(
        self,
        replies: Sequence[Reply] = (),
        *,
        default: Reply = cite_first_source,
        delay: float = 0.0,
        piece_chars: int = 6,
        name: str = "fake",
    ) -> None:
        self.name = name
        self._script = list(replies)
        self.default = default
        self.delay = delay
        self.piece_chars = max(1, piece_chars)
        self.calls: list[list[Message]] = []

    async def stream(
        self, messages: Sequence[Message], options: ChatOptions
    ) -> AsyncIterator[Piece]:
        """Stream the next scripted reply: text in pieces of `piece_chars`, each call whole."""
        self.calls.append(list(messages))
        reply = self._script.pop(0) if self._script else self.default
        if isinstance(reply, BaseException):
            raise reply
        turn = reply(messages) if callable(reply) else reply
        parts = [turn] if isinstance(turn, str | ToolCall) else list(turn)
        completion = 0
        for part in parts:
            if isinstance(part, ToolCall):
                completion += estimate_tokens(f"{part.name} {json.dumps(part.arguments)}")
                yield part
                continue
            completion += estimate_tokens(part)
            for start in range(0, len(part), self.piece_chars):
                if self.delay:
                    await asyncio.sleep(self.delay)
                yield part[start : start + self.piece_chars]
        prompt = sum(estimate_tokens(m.content) for m in messages)
        yield Usage(prompt_tokens=prompt, completion_tokens=completion)
