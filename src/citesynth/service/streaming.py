"""Server-sent events from an event stream: a queue between the work and the client.

The work runs as its own task within `limit_s` seconds; the client gets each event as a frame, a
comment line every `KEEPALIVE_SECONDS` while nothing else comes (so proxies keep the
connection), and, when it goes away, the work is cancelled (`on_cancel` is told).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

from citesynth.events import Event

KEEPALIVE_SECONDS = 15.0

Item = Event | BaseException | None
"""An event, the error that ended the work, or None when it finished."""


async def frames(
    events: Callable[[], AsyncIterator[Event]],
    *,
    limit_s: float,
    frame: Callable[[Item], tuple[bytes, bool]],
    on_cancel: Callable[[], None],
    name: str,
) -> AsyncIterator[bytes]:
    """`frame(item)` for each item of `events()` (bytes to send, whether it was the last)."""
    queue: asyncio.Queue[Item] = asyncio.Queue(maxsize=256)

    async def pump() -> None:
        try:
            async with asyncio.timeout(limit_s):
                async for event in events():
                    await queue.put(event)
            await queue.put(None)
        except Exception as error:  # sent to the client as an `error` event
            await queue.put(error)

    task = asyncio.create_task(pump(), name=name)
    finished = False
    try:
        while not finished:
            try:
                item = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield b": keep-alive\n\n"
                continue
            data, finished = frame(item)
            if data:
                yield data
    finally:
        if not task.done():
            task.cancel()  # the client went away: stop the work
            on_cancel()
