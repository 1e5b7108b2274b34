"""Loading a game log for replay: from a replay file, or from a store by game id.

Both give a ``GameLog``: the chain of events and every text it refers to (contents and
attachments), checked. A file is checked line by line by ``pulse_core.transfer`` (JSON,
fields, versions, hashes, the header's version and count); on top of that every event must
be a werewolf event whose meta fits its model (``format.check_meta``), the chain must
fold into a game, and every event must follow from the rules and the decisions it records
(``judge.rejudge``; ``trust=True`` skips that, on the caller's word). Every problem raises
with ``file:line`` (or ``store game version``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from pulse_core import (
    ATTACHMENTS,
    START,
    Event,
    EventStore,
    TopicFile,
    import_topic,
    is_ulid,
    load_topic_file,
    parse_topic,
)
from pulse_core.limits import clip
from pulse_core.workflow import is_control

from ..cast import Team, team_of
from ..errors import GameFileError, GameStateError
from ..game import fold_event
from ..state import GameState
from ..storefaults import check_chain, open_store

if TYPE_CHECKING:  # the models take a while to build: imported where a log is checked
    from .format import StartMeta

__all__ = [
    "GameLog",
    "check_game",
    "import_replay",
    "load_game",
    "load_replay",
    "load_replay_file",
    "parse_replay",
]


@dataclass(frozen=True, slots=True)
class GameLog:
    """One game's events and their texts, ready to render."""

    source: str  # the file, or "store#game"
    game_id: str
    chain: tuple[Event, ...]
    texts: Mapping[str, str]  # by hash: every content and attachment of the chain
    from_file: bool = True

    def where(self, event: Event) -> str:
        """Where ``event`` lives, for messages: ``file:line`` or ``store version N``."""
        return _where(self.source, event.version, self.from_file)

    def content(self, event: Event) -> str:
        return self.texts[event.hash]

    def attachment(self, event: Event, name: str) -> str | None:
        digest = event.meta.get(ATTACHMENTS, {}).get(name)
        return None if digest is None else self.texts.get(digest)

    @property
    def state(self) -> GameState:
        """The game state after the whole log."""
        state: GameState | None = None
        for event in self.chain:
            state = fold_event(state, event)
        if state is None:  # check_game refused such a log already
            raise GameStateError(f"{self.source}: no start event")
        return state

    @property
    def finished(self) -> bool:
        return self.state.ended


def _where(source: str, version: int, from_file: bool) -> str:
    # line 1 of a file is the header, so event version N is on line N + 1
    return f"{source}:{version + 1}" if from_file else f"{source} version {version}"


def check_game(
    chain: Sequence[Event],
    where: Callable[[Event], str],
    *,
    trust: bool = False,
    content: Callable[[Event], str | None] = lambda event: None,
    text: Callable[[str], str | None] = lambda digest: None,
) -> None:
    """Raise GameFileError unless ``chain`` is a werewolf game: a start event, then werewolf
    events whose meta fits its model, folding into a game state without error, each of
    them what the rules give from the state and the decisions it records (unless
    ``trust``); ``content`` gives an event's content and ``text`` an attachment's by its
    digest, to check them too, where they are at hand."""
    _check_structure(chain, where)
    if not trust:
        from .judge import rejudge

        rejudge(chain, where, content, text)


def _check_structure(chain: Sequence[Event], where: Callable[[Event], str]) -> None:
    from .format import KIND_PREFIX, StartMeta, check_meta

    if not chain:
        raise GameFileError("an empty log is not a game")
    first = chain[0]
    if first.kind != KIND_PREFIX + START:
        raise GameFileError(
            f"{where(first)}: not a werewolf game: it begins with {clip(repr(first.kind))}, "
            f"not {KIND_PREFIX + START!r}"
        )
    start = check_meta(first.kind, first.meta, where(first))
    if not isinstance(start, StartMeta):
        raise GameFileError(f"{where(first)}: not a start event")
    seats = _seat_count(start, where(first))
    state: GameState | None = None
    for index, event in enumerate(chain):
        if not event.kind.startswith(KIND_PREFIX):
            raise GameFileError(f"{where(event)}: {clip(repr(event.kind))} is not a werewolf event")
        if index > 0 and event.role == START:
            raise GameFileError(f"{where(event)}: a second start event")
        # every seat a later event names must be one of the game's: a reader indexes by them
        meta = check_meta(event.kind, event.meta, where(event), seats=seats)
        _check_against_deal(event.role, meta, start, where(event))
        if is_control(event):
            continue
        try:
            state = fold_event(state, event)
        except (GameStateError, ValueError, KeyError, IndexError) as exc:
            raise GameFileError(f"{where(event)}: the game cannot apply this event: {exc}") from exc


def _check_against_deal(kind: str, meta: BaseModel, start: StartMeta, where: str) -> None:
    """What the deal decides: the wolves' night is told to the wolves, and a seer's check
    says what the deal says of its target. A forged file that contradicts it is refused."""
    wolves = [seat for seat, i in enumerate(start.deal, start=1) if team_of(i) is Team.WOLVES]
    if kind == "wolf-night":
        audience = getattr(meta, "visible_to", None)
        if sorted(audience or ()) != wolves:
            raise GameFileError(f"{where}: the wolves' night is told to {audience}, not {wolves}")
    if kind != "seer-check":
        return
    diff: dict[str, Any] = getattr(meta, "diff", {})  # its shape: events.seer.SeerDiff
    target, said = diff.get("target"), diff.get("wolf")
    if target is None:  # no check (night_fallback = "nothing"): nothing is said
        if said is not None:
            raise GameFileError(f"{where}: the seer checked nobody, yet wolf={said}")
        return
    wolf = team_of(start.deal[target - 1]) is Team.WOLVES
    if said != wolf:
        raise GameFileError(
            f"{where}: the seer's check of seat {target} says wolf={said}, but the deal says {wolf}"
        )


def _seat_count(start: BaseModel, where: str) -> int:
    """The game's seat count, once the start event's deal and names agree with its config."""
    from .format import KIND_PREFIX, StartMeta

    if not isinstance(start, StartMeta):
        raise GameFileError(f"{where}: not a start event")
    seats = start.game.config.seats
    for field, values in (("deal", start.deal), ("game.names", start.game.names)):
        if len(values) != seats:
            raise GameFileError(
                f"{where}: {KIND_PREFIX + START} meta.{field}: {len(values)} entries for "
                f"{seats} seats"
            )
    return seats


def _from_topic(topic: TopicFile, trust: bool) -> GameLog:
    chain = tuple(topic.chain)
    texts = topic.texts
    check_game(
        chain,
        lambda event: _where(topic.path, event.version, True),
        trust=trust,
        content=lambda event: texts.get(event.hash),
        text=texts.get,
    )
    return GameLog(source=topic.path, game_id=topic.key, chain=chain, texts=texts)


def load_replay_file(path: str | os.PathLike[str], *, trust: bool = False) -> GameLog:
    """Read and check a replay file (a werewolf game exported as a pulse topic file);
    ``trust`` skips re-judging its events by the rules."""
    return _from_topic(load_topic_file(path), trust)  # TopicFileError names file:line


def parse_replay(data: bytes, source: str = "<replay>", *, trust: bool = False) -> GameLog:
    """Check a replay file's bytes; ``source`` names it in messages."""
    return _from_topic(parse_topic(data, source), trust)


def import_replay(store: EventStore, path: str | os.PathLike[str], *, trust: bool = False) -> str:
    """Import the replay file at ``path`` into ``store`` and return the game id: checked as
    ``load_replay_file`` checks it (re-judged unless ``trust``) before anything is written."""
    return import_topic(store, path, check=lambda topic: _from_topic(topic, trust))


def load_game(
    store: EventStore, game_id: str, source: str = "store", *, trust: bool = False
) -> GameLog:
    """Read and check one game from ``store``; ``source`` names the store in messages."""
    chain = tuple(store.chain(game_id))
    if not chain:
        raise GameFileError(f"{source}: no game {game_id}")
    label = f"{source}#{game_id}"
    check_chain(chain, label)
    _check_structure(chain, lambda event: _where(label, event.version, False))
    texts: dict[str, str] = {}
    for event in chain:
        digests = [event.hash, *event.meta.get(ATTACHMENTS, {}).values()]
        for digest in digests:
            if digest not in texts:
                texts[digest] = store.objects.get(digest).decode("utf-8", errors="replace")
    if not trust:
        from .judge import rejudge

        rejudge(
            chain,
            lambda event: _where(label, event.version, False),
            lambda event: texts.get(event.hash),
            texts.get,
        )
    return GameLog(source=label, game_id=game_id, chain=chain, texts=texts, from_file=False)


def load_replay(
    target: str, store_path: str | os.PathLike[str] | None = None, *, trust: bool = False
) -> GameLog:
    """A replay file, or (when ``target`` is a game id and no such file exists) that game
    in the store at ``store_path``; ``trust`` skips re-judging its events by the rules."""
    if Path(target).exists() or store_path is None or not is_ulid(target):
        return load_replay_file(target, trust=trust)
    path = Path(store_path)
    if not path.is_file():
        raise GameFileError(f"{target}: no such file, and no store at {path} to look it up in")
    store = open_store(path, read_only=True)
    try:
        return load_game(store, target, str(path), trust=trust)
    finally:
        store.close()
