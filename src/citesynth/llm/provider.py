"""The base of the HTTP adapters: the connection is shared, only the wire format differs.

In the spirit of pydantic-ai's model/provider split, `HTTPModel` owns what every remote
provider has (model id, base URL, API key, timeout, retries, the transport seam) and the one
`stream` loop: build the body, POST it, read server-sent events. A subclass states its wire
format and nothing else:

    class MyCloudModel(HTTPModel):
        family = "mycloud"                                # names: mycloud:MODEL
        default_base_url = "https://api.mycloud.example"
        def url(self) -> str: ...                         # where to POST
        def headers(self) -> dict[str, str]: ...          # authentication
        def request_body(self, messages, options): ...    # messages, tools, options
        async def decode(self, events): ...               # events -> text, ToolCall, Usage
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from contextlib import aclosing
from typing import Any, ClassVar

import httpx

from citesynth.errors import ConfigError, ModelError
from citesynth.llm.base import ChatOptions, Message, Piece
from citesynth.llm.http import Retry, ServerEvent, client, stream_events

DEFAULT_TIMEOUT = 120.0


class HTTPModel(ABC):
    """A chat model behind a streaming HTTP API; subclasses give the wire format."""

    family: ClassVar[str]  # the prefix of the default name, `family:model`
    default_base_url: ClassVar[str | None] = None
    key_required: ClassVar[bool] = True

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        name: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        extra_body: dict[str, Any] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        retry: Retry = Retry(),
    ) -> None:
        base = base_url or self.default_base_url
        if not base:
            raise ConfigError(f"{type(self).__name__} needs a base_url (the server's address)")
        if self.key_required and not api_key:
            raise ConfigError(
                f"no API key for {self.family!r}: pass api_key to {type(self).__name__}"
            )
        self.model = model
        self.name = name or f"{self.family}:{model}"
        self.base_url = base.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.extra_body = extra_body or {}
        self.transport = transport
        self.retry = retry

    @abstractmethod
    def url(self) -> str:
        """The address that streams a reply."""

    @abstractmethod
    def headers(self) -> dict[str, str]:
        """The headers of every request (authentication, API version)."""

    @abstractmethod
    def request_body(self, messages: Sequence[Message], options: ChatOptions) -> dict[str, Any]:
        """The JSON body of one streaming request, in the provider's wire format."""

    @abstractmethod
    def decode(self, events: AsyncIterator[ServerEvent]) -> AsyncGenerator[Piece, None]:
        """Turn the server-sent events of one reply into text, tool calls and the usage.

        Raises:
            ModelError: the provider reported an error mid-stream, or sent a malformed call.
        """

    async def stream(
        self, messages: Sequence[Message], options: ChatOptions
    ) -> AsyncIterator[Piece]:
        """Stream a reply: text deltas and tool calls, then the usage when reported."""
        body = {**self.request_body(messages, options), **self.extra_body}
        async with client(
            self.transport, options.timeout or self.timeout, base_url=self.base_url
        ) as http:
            events = stream_events(
                http,
                self.url(),
                body=body,
                headers=self.headers(),
                provider=self.name,
                retry=self.retry,
            )
            async with aclosing(events), aclosing(self.decode(events)) as pieces:
                async for piece in pieces:
                    yield piece


def tool_arguments(provider: str, tool: str, arguments: object) -> dict[str, Any]:
    """A tool call's arguments as a dict, from the JSON text (or object) the model sent.

    Raises:
        ModelError: the arguments are not a JSON object.
    """
    if arguments is None or (isinstance(arguments, str) and not arguments.strip()):
        return {}  # a call without arguments
    parsed = arguments
    if isinstance(arguments, str):
        try:
            parsed = json.loads(arguments)
        except json.JSONDecodeError as error:
            raise ModelError(
                f"{provider} called the tool {tool!r} with arguments that are not valid JSON "
                f"({error.msg} at character {error.pos}): {arguments[:200]!r}"
            ) from None
    if not isinstance(parsed, dict):
        raise ModelError(
            f"{provider} called the tool {tool!r} with arguments that are not a JSON object: "
            f"{json.dumps(parsed)[:200]}"
        )
    return parsed
