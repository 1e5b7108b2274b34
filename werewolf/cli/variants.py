"""``werewolf play``'s rules: ``--board``, ``--config FILE`` and the variant flags, made
into one checked ``GameConfig`` (a problem names the flag or the file's field)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from pulse_core.limits import read_document

from ..argtypes import int_in
from ..boards import BOARDS, with_board
from ..config import GameConfig, field_range, parse_config
from ..errors import ConfigError

__all__ = ["add_variants", "game_config"]


def _read_config_file(path: Path) -> dict[str, Any]:
    """A JSON (``.json``) or TOML config file, read bounded (``pulse_core.limits``)."""
    data = read_document(path)
    if not isinstance(data, dict):
        raise ConfigError([(str(path), "must hold a table of config fields")])
    return data


_VARIANT_FLAGS = {  # option dest -> GameConfig field
    "win_rule": "win_rule",
    "witch_self_save": "witch_self_save",
    "witch_both_potions": "witch_both_potions",
    "tie_policy": "tie_policy",
    "no_empty_kill": "allow_empty_kill",
    "no_self_knife": "wolf_self_knife",
    "wolf_split": "wolf_split",
    "no_abstain": "allow_abstain",
    "self_vote": "allow_self_vote",
    "day_cap": "day_cap",
    "referee_record": "referee_record",
    "discussion": "discussion",
    "speech_rounds": "speech_rounds",
    "speech_budget": "speech_budget",
    "reveal_on_death": "reveal_on_death",
    "wolf_kill": "wolf_kill",
    "all_abstain": "all_abstain",
    "no_last_words": "last_words",
    "speech_order": "speech_order",
    "seer_learns": "seer_learns",
    "seer_before_wolves": "seer_before_wolves",
    "wolf_abstain": "wolf_abstain",
    "night_fallback": "night_fallback",
    "no_retry_illegal": "retry_illegal",
    "doctor_told_save": "doctor_told_save",
    "self_destruct": "self_destruct",
    "self_destruct_last_words": "self_destruct_last_words",
    "sheriff": "sheriff",
    "no_sheriff": "sheriff",
}


def game_config(args: argparse.Namespace) -> GameConfig:
    """The config file (if any), overridden by the variant flags, validated."""
    data = _read_config_file(args.config) if args.config is not None else {}
    data = with_board(data, args.board)
    flagged: dict[str, str] = {}
    for dest, name in _VARIANT_FLAGS.items():
        value = getattr(args, dest)
        if value is None or value is False:
            continue
        data[name] = not value if dest.startswith("no_") else value
        flagged[name] = "--" + dest.replace("_", "-")
    try:
        return parse_config(data, strict=True)  # the file's, and typed flags
    except ConfigError as exc:
        if args.config is None:
            raise
        # a problem of the file names the file; one of a flag, the flag
        raise ConfigError(
            [
                (flagged.get(field.partition(".")[0]) or f"{args.config}: {field}", message)
                for field, message in exc.problems
            ]
        ) from None


def add_variants(parser: argparse.ArgumentParser) -> None:
    rules = parser.add_argument_group("rule variants (flags override --config)")
    rules.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="a TOML or JSON game config (fields: docs/rules.md)",
    )
    rules.add_argument(
        "--board",
        choices=list(BOARDS),
        help="a named board (deck and variants; default standard-9); --config and the "
        "flags below change it",
    )
    rules.add_argument(
        "--win-rule",
        choices=["side", "town", "parity"],
        help="wolves win when every villager or every god is dead (side, default), when "
        "every good player is (town), or when they are as many as the rest (parity)",
    )
    rules.add_argument(
        "--witch-self-save",
        choices=["first-night", "never", "always"],
        help="when the witch may save herself (default first-night)",
    )
    rules.add_argument(
        "--witch-both-potions",
        action="store_true",
        default=None,
        help="the witch may use both potions in one night",
    )
    rules.add_argument(
        "--tie-policy",
        choices=["pk", "none", "random"],
        help="a tied vote: the tied speak and the others vote again (pk, default), "
        "nobody is exiled (none), or one of the tied is drawn at random (random)",
    )
    rules.add_argument("--no-empty-kill", action="store_true", help="the wolves must kill")
    rules.add_argument("--no-self-knife", action="store_true", help="wolves never target wolves")
    rules.add_argument(
        "--wolf-split",
        choices=["empty", "plurality"],
        help="wolves still split after two rounds: kill nobody (default) or the most proposed",
    )
    rules.add_argument("--no-abstain", action="store_true", help="every voter must vote")
    rules.add_argument(
        "--self-vote", action="store_true", default=None, help="voters may vote for themselves"
    )
    rules.add_argument(
        "--day-cap", type=int_in(*field_range("day_cap")), metavar="N", help="a draw after N days"
    )
    rules.add_argument(
        "--discussion",
        choices=["seat-order", "bidding"],
        help="who speaks next in the day: today's seat order (default), or the highest bid "
        "for the floor (every living player bids 0-3 before each speech)",
    )
    rules.add_argument(
        "--speech-rounds",
        type=int_in(*field_range("speech_rounds")),
        metavar="N",
        help="speeches each living player has a day (default 1)",
    )
    rules.add_argument(
        "--speech-budget",
        type=int_in(*field_range("speech_budget")),
        metavar="N",
        help="the most speeches a day's discussion holds (default: every round in full)",
    )
    rules.add_argument(
        "--reveal-on-death",
        choices=["nothing", "team", "identity"],
        help="what everyone learns of a player who dies (default nothing)",
    )
    rules.add_argument(
        "--wolf-kill",
        choices=["agree", "vote"],
        help="the wolves talk and propose until they agree (agree, default), or cast one "
        "ballot each in seat order, the most-voted dying and a tie drawn at random (vote)",
    )
    rules.add_argument(
        "--wolf-abstain",
        action="store_true",
        default=None,
        help="with --wolf-kill vote and no empty kills: a wolf may abstain, a failed ballot "
        "abstains, and if all abstain a random living non-wolf dies",
    )
    rules.add_argument(
        "--night-fallback",
        choices=["first", "nothing"],
        help="a seer or doctor who keeps answering illegally checks or protects the first "
        "legal seat (first, default) or does nothing that night (nothing)",
    )
    rules.add_argument(
        "--no-retry-illegal",
        action="store_true",
        help="an illegal answer takes its fallback at once (default: it is asked again, "
        "with the reason, twice)",
    )
    rules.add_argument(
        "--doctor-told-save",
        action="store_true",
        default=None,
        help="the doctor is told, privately, when her protection saved the wolves' victim",
    )
    rules.add_argument(
        "--all-abstain",
        choices=["nobody", "random"],
        help="a day vote for nobody exiles nobody (default) or a random living player",
    )
    rules.add_argument("--no-last-words", action="store_true", help="the dead give no last words")
    rules.add_argument(
        "--speech-order",
        choices=["after-death", "seat"],
        help="a day's speeches start after the lowest night death (after-death, default) "
        "or at the lowest living seat (seat)",
    )
    rules.add_argument(
        "--seer-learns",
        choices=["team", "identity"],
        help="what the seer learns of her target (default team)",
    )
    rules.add_argument(
        "--seer-before-wolves",
        action="store_true",
        default=None,
        help="the seer checks before the wolves, with the doctor (default: after them)",
    )
    sheriff = rules.add_mutually_exclusive_group()
    sheriff.add_argument(
        "--sheriff",
        action="store_true",
        default=None,
        help="elect a sheriff on day 1 (警长: 1.5 votes, the speaking order, the badge passed "
        "on his death; on for every 12-seat board)",
    )
    sheriff.add_argument(
        "--no-sheriff", action="store_true", help="no sheriff, on a board that elects one"
    )
    rules.add_argument(
        "--self-destruct",
        action="store_true",
        default=None,
        help="a living wolf may self-destruct in place of a day speech: the day ends without "
        "a vote (on for the 12-seat boards but knight-12)",
    )
    rules.add_argument(
        "--self-destruct-last-words",
        action="store_true",
        default=None,
        help="a wolf who self-destructs gives last words",
    )
    rules.add_argument(
        "--referee-record",
        action="store_true",
        default=None,
        help="record each decision's legal options (god view) and the steps skipped because "
        "the game was decided (on for every board but standard-9)",
    )
