"""The conformance suite for identities, event kinds and boards: one contract, checked
against everything the registry holds, and against an identity of one's own.

Subclass a suite in a test module under a ``Test...`` name and say what it checks; pytest
collects every ``test_*`` method::

    class TestKnight(IdentityConformance):
        identity = Identity.KNIGHT

    class TestKnightBoard(BoardConformance):
        config = board_config("knight-12")

``EventConformance`` checks one event kind (``kind = "knight-duel"``). The base classes
are not named ``Test...``, so pytest never collects them on their own; the checks are plain
``assert`` statements (register the module for pytest's assertion rewriting to get detailed
messages: ``pytest.register_assert_rewrite("werewolf.conformance")``). What a board suite
checks it checks on played games: mock players play ``seeds`` games in each language, and
every decision any seat is asked is also put to the LLM seat's prompt and tool builders, so
a phrase missing from a prompt file shows up as a failure here, not in a paid game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from importlib.resources import files
from pathlib import Path
from typing import Any, ClassVar

from pulse_core import Event, MemoryEventStore, WorkflowRule, export_topic_lines

from .cast import Identity
from .config import GameConfig
from .decisions import Answer, Request
from .game import fold_chain, start_game, werewolf_workflow
from .registry import (
    EventSpec,
    IdentitySpec,
    Meaning,
    event_spec,
    identity_spec,
    identity_specs,
)
from .ruletext import rules_text
from .state import GameState

__all__ = [
    "BoardConformance",
    "EventConformance",
    "IdentityConformance",
    "PlayedBoard",
    "play_board",
]

LANGS = ("en", "zh")


# -- identities -------------------------------------------------------------------------------
class IdentityConformance:
    """What every identity declares: names, team, rules text, prompts, tools, mock
    strategy and events, each in en and zh where it has words."""

    identity: ClassVar[Identity]

    @property
    def spec(self) -> IdentitySpec:
        return identity_spec(self.identity)

    def test_it_is_registered_under_its_own_identity(self) -> None:
        assert self.spec.identity is self.identity

    def test_its_names_are_given_in_both_languages_and_are_its_own(self) -> None:
        spec = self.spec
        for lang in LANGS:
            name = spec.names(lang)
            assert name.strip(), f"{self.identity}: no {lang} name"
            others = {s.names(lang) for s in identity_specs() if s.identity is not self.identity}
            assert name not in others, f"{self.identity}: the {lang} name {name!r} is taken"

    def test_the_rules_text_describes_it_in_both_languages(self) -> None:
        """An identity with a line of its own has it in the rules text, in both languages
        (the wolves and the villagers are the core text's own)."""
        if self.spec.rules is None:
            return
        config = _a_config_with(self.identity)
        for lang in LANGS:
            text = rules_text(config, lang)
            line = self.spec.rules(config, lang)
            assert line.strip(), f"{self.identity}: an empty {lang} line"
            assert line in text, f"{self.identity}: its {lang} line is missing"

    def test_its_prompt_file_names_its_card_and_ability_in_both_languages(self) -> None:
        spec = self.spec
        if spec.prompt is None:
            return
        for lang in LANGS:
            text = (files("werewolf") / "prompts" / lang / f"{spec.prompt}.txt").read_text("utf-8")
            for key in (f"identity.{spec.prompt}", f"ability.{spec.prompt}"):
                assert f"{key} = " in text, f"prompts/{lang}/{spec.prompt}.txt has no {key}"

    def test_every_decision_has_a_tool_and_a_mock_strategy(self) -> None:
        from .players.mock.strategy import handler_for  # a player module: loaded here only

        for decision in self.spec.decisions:
            assert decision.tool.isidentifier(), f"{decision.kind}: tool {decision.tool!r}"
            if decision.mock is not None:
                module, _, name = decision.mock.partition(":")
                assert callable(getattr(import_module(module), name))
            assert callable(handler_for(self.identity, _decision_kind(decision.kind)))

    def test_every_decision_has_its_task_and_tool_phrases_in_both_languages(self) -> None:
        from .players.prompting import prompt_set

        for lang in LANGS:
            phrases = prompt_set(lang).phrases
            for decision in self.spec.decisions:
                task = f"task.{decision.kind}"
                assert any(k == task or k.startswith(task + ".") for k in phrases), (
                    f"{self.identity}: no {task} phrase in {lang}"
                )
                assert f"tool.{decision.tool}" in phrases, (
                    f"{self.identity}: no tool.{decision.tool} phrase in {lang}"
                )

    def test_every_event_it_writes_is_registered(self) -> None:
        for kind in self.spec.events:
            assert event_spec(kind) is not None, f"{self.identity}: event {kind!r} unregistered"

    def test_its_phases_are_its_steps(self) -> None:
        spec = self.spec
        steps = {s.phase for s in spec.night} | {s.phase for s in spec.day}
        assert steps <= set(spec.phases), f"{self.identity}: steps without a role: {steps}"


def _decision_kind(kind: str) -> Any:
    from .decisions import DecisionKind

    return DecisionKind(kind)


def _a_config_with(identity: Identity) -> GameConfig:
    """A named board dealing ``identity``, else the standard board with one villager
    replaced by it."""
    from .boards import BOARDS

    for board in BOARDS.values():
        if identity in board.identities:
            return board.config()
    deck = list(GameConfig().identities)
    deck[deck.index(Identity.VILLAGER)] = identity
    return GameConfig(identities=tuple(deck), referee_record=True)


# -- event kinds ------------------------------------------------------------------------------
class EventConformance:
    """What every event kind declares: labels in both languages, typed shapes, and death
    causes each with a label in both languages."""

    kind: ClassVar[str]

    @property
    def spec(self) -> EventSpec:
        spec = event_spec(self.kind)
        assert spec is not None, f"no event spec for {self.kind!r}"
        return spec

    def test_it_is_registered_under_its_own_kind(self) -> None:
        assert self.spec.kind == self.kind

    def test_it_has_a_label_in_both_languages(self) -> None:
        for lang in LANGS:
            assert self.spec.label(lang).strip(), f"{self.kind}: no {lang} label"

    def test_every_cause_it_writes_has_a_label_in_both_languages(self) -> None:
        for cause, label in self.spec.causes.items():
            for lang in LANGS:
                assert label(lang).strip(), f"{self.kind}: cause {cause!r} has no {lang} label"

    def test_the_viewer_has_words_for_it_and_its_causes_in_both_languages(self) -> None:
        from .replay.labels import page_labels

        labels = page_labels()
        for lang in LANGS:
            assert labels[lang]["kinds"].get(self.kind), f"{self.kind}: no {lang} viewer label"
            for cause in self.spec.causes:
                assert labels[lang]["causes"].get(cause), f"{cause}: no {lang} viewer label"

    def test_its_shapes_are_typed(self) -> None:
        for shape in (self.spec.diff, self.spec.detail):
            assert getattr(shape, "__annotations__", None) is not None, f"{self.kind}: {shape}"

    def test_an_empty_event_means_nothing_or_fails_plainly(self) -> None:
        try:
            meaning = self.spec.meaning({}, {})
        except (KeyError, TypeError, ValueError):
            return  # a kind whose diff must hold something: refused, not misread
        assert isinstance(meaning, Meaning)


# -- boards -----------------------------------------------------------------------------------
@dataclass
class PlayedBoard:
    """Games played on one board by mock players, with every decision also put to the
    prompt and tool builders."""

    games: list[tuple[str, tuple[Event, ...], bytes]] = field(default_factory=list)
    asked: set[str] = field(default_factory=set)  # decision kinds asked


class _PromptedMock:
    """A mock player whose every request is also built into the LLM seat's prompt and
    tool in both languages (a missing phrase raises there)."""

    immediate = True

    def __init__(self, inner: Any, asked: set[str]) -> None:
        self._inner = inner
        self._asked = asked

    async def decide(self, request: Request) -> Answer:
        from .players.prompting import decision_prompt
        from .players.schema import decision_tool

        self._asked.add(request.kind.value)
        for lang in LANGS:
            assert decision_prompt(request, lang).strip()
            decision_tool(request, lang)
        answer: Answer = await self._inner.decide(request)
        return answer


class _PromptedSeating:
    """Each game's seats, made once: a prompted mock player per seat."""

    def __init__(self, lang: str, asked: set[str]) -> None:
        self._lang = lang
        self._asked = asked
        self._seated: dict[int, Any] = {}

    def __call__(self, game_id: str, state: GameState) -> Mapping[int, Any]:
        from .players import MockPlayer

        if not self._seated:
            for seat in state.seats:
                inner = MockPlayer(state.seed, seat, lang=self._lang)
                self._seated[seat] = _PromptedMock(inner, self._asked)
        return self._seated


def play_board(config: GameConfig, seeds: Sequence[int], lang: str) -> PlayedBoard:
    """Play one mock game per seed on ``config`` in ``lang``, in memory."""
    played = PlayedBoard()
    for seed in seeds:
        store = MemoryEventStore()
        seating = _PromptedSeating(lang, played.asked)
        rule = WorkflowRule(werewolf_workflow(seating), store)
        game_id = start_game(rule, seed=seed, config=config)
        status = asyncio.run(rule.run())[game_id]
        chain = tuple(store.chain(game_id))
        assert status == "ended", f"seed {seed}: the game did not end ({status})"
        data = "".join(f"{line}\n" for line in export_topic_lines(store, game_id)).encode()
        played.games.append((game_id, chain, data))
    return played


class BoardConformance:
    """What every board must do: play whole mock games in both languages whose every event
    kind is registered, folds and means what the fold says, renders in the terminal and
    on the page, and re-judges on loading."""

    config: ClassVar[GameConfig]
    seeds: ClassVar[tuple[int, ...]] = (1, 2, 3)
    reference: ClassVar[Path | None] = None  # a replay file of the board, kept as a sample
    _played: ClassVar[dict[tuple[int, str], PlayedBoard]] = {}

    def played(self, lang: str) -> PlayedBoard:
        key = (id(self.config), lang)
        if key not in BoardConformance._played:
            BoardConformance._played[key] = play_board(self.config, self.seeds, lang)
        return BoardConformance._played[key]

    def test_every_identity_dealt_is_registered(self) -> None:
        for identity in set(self.config.identities):
            assert identity_spec(identity).identity is identity

    def test_every_event_kind_is_registered_and_folds(self) -> None:
        for lang in LANGS:
            for _, chain, _ in self.played(lang).games:
                for event in chain[1:]:
                    if event.role.startswith("__"):
                        continue
                    spec = event_spec(event.role)
                    assert spec is not None, f"{event.role}: no event spec"
                final = fold_chain(chain)
                assert final.ended

    def test_the_meanings_announce_every_death_the_fold_records(self) -> None:
        for lang in LANGS:
            for game_id, chain, _ in self.played(lang).games:
                told: list[tuple[int, str | None]] = []
                for event in chain[1:]:
                    spec = event_spec(event.role)
                    if spec is None:
                        continue
                    meta = event.meta
                    meaning = spec.meaning(meta.get("diff", {}), meta.get("detail", {}))
                    told += meaning.deaths
                deaths = fold_chain(chain).deaths
                assert sorted(s for s, _ in told) == sorted(d.seat for d in deaths), game_id
                causes = {d.seat: str(d.cause) for d in deaths}
                for seat, cause in told:
                    assert cause is None or cause == causes[seat], (game_id, seat, cause)

    def test_the_games_load_re_judged_and_render_in_every_view(self) -> None:
        from .replay import ViewKind, ViewSpec, parse_replay, replay_html, replay_text

        for lang in LANGS:
            for game_id, chain, data in self.played(lang).games:
                log = parse_replay(data, f"{game_id}.jsonl")  # re-judged: trust=False
                assert log.chain == chain
                seats = len(self.config.identities)
                for spec in (
                    ViewSpec(ViewKind.GOD),
                    ViewSpec(ViewKind.PUBLIC),
                    ViewSpec(ViewKind.SEAT, seat=seats),
                ):
                    assert replay_text(log, spec).strip()
                    assert "</html>" in replay_html(log, spec)

    def test_its_reference_replay_loads_re_judged_with_every_kind_registered(self) -> None:
        from .replay import ViewKind, ViewSpec, load_replay_file, replay_text

        if self.reference is None:
            return
        log = load_replay_file(self.reference)  # re-judged: trust=False
        assert log.state.config == self.config, f"{self.reference}: another board's game"
        for event in log.chain[1:]:
            if not event.role.startswith("__"):
                assert event_spec(event.role) is not None, f"{event.role}: no event spec"
        assert replay_text(log, ViewSpec(ViewKind.GOD)).strip()
