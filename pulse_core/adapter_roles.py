"""Running a tick's roles at once (``pulse_core.adapter``): the roles of eager topics start
inline, and only those that wait get a task.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Generator, Sequence
from typing import Any, TypeVar

from .adapter_steps import Prepared, Run

__all__ = ["run_roles"]

S = TypeVar("S")


async def run_roles(
    runs: Sequence[Run[S]],
    run_role: Callable[[Run[S], asyncio.Semaphore | None], Coroutine[Any, Any, Prepared]],
    limit: asyncio.Semaphore | None,
    eager: Callable[[str, S], bool] | None,
) -> list[Prepared | BaseException]:
    """Each run's result (``run_role(run, limit)``, a ``Prepared``) or the exception it
    raised, as ``gather`` with ``return_exceptions`` gives them. Roles of topics ``eager``
    names start inline, outside ``limit``: one that finishes without waiting needs no task;
    one that waits carries on in a task."""
    results: dict[int, Prepared | BaseException] = {}
    waiting: list[tuple[int, asyncio.Future[Prepared]]] = []
    try:
        for index, run in enumerate(runs):
            if eager is None or not eager(run.key, run.topic.state):
                waiting.append((index, asyncio.ensure_future(run_role(run, limit))))
                continue
            # an eager role does no I/O (WorkflowType.eager): it takes no slot of the cap,
            # which bounds roles waiting at once, and finishes before the next one starts
            coro = run_role(run, None)
            try:
                awaited = coro.send(None)
            except StopIteration as stop:
                results[index] = stop.value
            except (Exception, asyncio.CancelledError) as exc:  # noqa: BLE001 - as gather gives it
                results[index] = exc
            else:
                waiting.append((index, asyncio.ensure_future(_carry_on(coro, awaited))))
        if waiting:
            done = await asyncio.gather(*(task for _, task in waiting), return_exceptions=True)
            for (index, _), result in zip(waiting, done, strict=True):
                results[index] = result  # a Prepared or what the role raised
    except BaseException:
        for _, task in waiting:
            task.cancel()
        raise
    return [results[index] for index in range(len(runs))]


class _CarryOn:
    """Awaits what an inline-started coroutine waits for, then drives it to its end: what
    its task would have done had it had one from the start."""

    def __init__(self, coro: Coroutine[Any, Any, Any], awaited: Any) -> None:
        self._coro = coro
        self._awaited = awaited

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, awaited = self._coro, self._awaited
        while True:
            try:
                sent = yield awaited
            except BaseException as exc:  # noqa: BLE001 - thrown in by the task: pass it on
                try:
                    awaited = coro.throw(exc)
                except StopIteration as stop:
                    return stop.value
            else:
                try:
                    awaited = coro.send(sent)
                except StopIteration as stop:
                    return stop.value


async def _carry_on(coro: Coroutine[Any, Any, Prepared], awaited: Any) -> Prepared:
    result: Prepared = await _CarryOn(coro, awaited)
    return result
