"""Connections to PostgreSQL kept for reuse, made in the caller's own task when needed.

Why not `psycopg_pool`: its background workers reconnect with an exponential backoff, so
while the server is down every call waits out the pool timeout before failing with
"couldn't get a connection", and after the server is back the pool can take ten seconds
to notice. Here a call that needs a connection makes one itself: while the server is down
it fails at once with libpq's own reason, and the first call after a restart succeeds.

A connection goes back to the pool only when it is idle and healthy; one that sat unused
for longer than `recheck_after` seconds is probed (an empty query) before it is handed
out again, and a connection error empties the pool, since its siblings died too.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any

import psycopg
from psycopg import AsyncConnection
from psycopg.pq import TransactionStatus

Connect = Callable[[], Awaitable[AsyncConnection[tuple[Any, ...]]]]


class PoolBusyError(Exception):
    """Every connection stayed in use for longer than the wait allowed."""


class ConnectionPool:
    """At most `size` connections at once; idle ones kept for the next caller."""

    def __init__(self, connect: Connect, size: int, *, wait: float, recheck_after: float = 1.0):
        self._connect = connect
        self._size = size
        self._wait = wait
        self._recheck_after = recheck_after
        self._slots = asyncio.Semaphore(size)
        self._idle: list[tuple[AsyncConnection[tuple[Any, ...]], float]] = []
        self._closed = False

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[AsyncConnection[tuple[Any, ...]]]:
        """A connection for the duration of the block (autocommit, idle when it ends).

        Raises:
            PoolBusyError: no connection was free within the wait allowed.
            psycopg.OperationalError: no connection can be made (the server is down).
        """
        if self._closed:
            raise psycopg.OperationalError("the store is closed")
        try:
            async with asyncio.timeout(self._wait):
                await self._slots.acquire()
        except TimeoutError:
            raise PoolBusyError(
                f"all {self._size} database connections stayed busy for {self._wait:.0f} s"
            ) from None
        try:
            connection = await self._take()
            try:
                yield connection
            except psycopg.OperationalError:
                await _close(connection)
                await self._drop_idle()
                raise
            except BaseException:
                await self._give_back(connection)
                raise
            await self._give_back(connection)
        finally:
            self._slots.release()

    async def _take(self) -> AsyncConnection[tuple[Any, ...]]:
        while self._idle:
            connection, since = self._idle.pop()
            if time.monotonic() - since < self._recheck_after:
                return connection
            try:
                await connection.execute("")
                return connection
            except psycopg.Error:
                await _close(connection)
        return await self._connect()

    async def _give_back(self, connection: AsyncConnection[tuple[Any, ...]]) -> None:
        healthy = (
            not self._closed
            and not connection.closed
            and connection.info.transaction_status == TransactionStatus.IDLE
        )
        if healthy:
            self._idle.append((connection, time.monotonic()))
        else:
            await _close(connection)

    async def _drop_idle(self) -> None:
        idle, self._idle = self._idle, []
        for connection, _ in idle:
            await _close(connection)

    async def close(self) -> None:
        """Close the idle connections; connections in use close when given back."""
        self._closed = True
        await self._drop_idle()


async def _close(connection: AsyncConnection[tuple[Any, ...]]) -> None:
    with suppress(psycopg.Error):
        await connection.close()
