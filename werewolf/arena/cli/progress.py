"""The progress bar of ``werewolf arena run``: games done, time spent and left, running
win rates, tokens and cost."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..spec import RunSpec
from ..tally import RunProgress

__all__ = ["ProgressView"]


class ProgressView:
    """A rich progress bar with games done, time spent and left, running win rates, tokens
    and cost. Time left is estimated from the games ended since this command started (a
    continued run's earlier games do not count as speed)."""

    def __init__(
        self, console: Console, spec: RunSpec, get_time: Callable[[], float] | None = None
    ) -> None:
        self.spec = spec
        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[status]}"),
            console=console,
            transient=False,
            get_time=get_time,
        )
        self.task = self.progress.add_task(spec.name, total=spec.games, status="")
        self._seen = False

    def update(self, progress: RunProgress) -> None:
        rates = " ".join(
            f"{p.name} {100 * r:.0f}%"
            for p in self.spec.players
            if (r := progress.win_rate(p.name)) is not None
        )
        status = f"wins: {rates}" if rates else ""
        if progress.tokens:
            status += f" | {progress.tokens:,} tokens"
            if progress.cost is not None:
                status += f", ${progress.cost:.4f}"
        if not self._seen:  # games ended before now are where the bar starts, not speed
            self._seen = True
            self.progress.reset(self.task, completed=len(progress.ended), status=status)
        else:
            self.progress.update(self.task, completed=len(progress.ended), status=status)
