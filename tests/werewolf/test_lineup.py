"""Seat specs and lineup files: validated before a game starts, keys never stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from werewolf.errors import ConfigError
from werewolf.lineup import Lineup, SeatSpec, load_lineup, parse_seat_arg


def test_seat_args() -> None:
    assert parse_seat_arg("3=llm:gpt-4o-mini") == (3, SeatSpec(kind="llm", model="gpt-4o-mini"))
    assert parse_seat_arg("5=human") == (5, SeatSpec(kind="human"))
    assert parse_seat_arg("1=llm:qwen2.5:7b")[1].model == "qwen2.5:7b"  # ollama tags keep colons


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ("x=mock", "write SEAT=KIND"),
        ("3", "write SEAT=KIND"),
        ("3=robot", "kind must be one of mock, random, llm, human"),
        ("3=llm", "an llm seat names its model"),
        ("3=random:gpt", "only llm seats take a model"),
    ],
)
def test_bad_seat_args(arg: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_seat_arg(arg)


def test_a_mock_seat_arg_names_a_personality() -> None:
    assert parse_seat_arg("3=mock:bold") == (3, SeatSpec(kind="mock", personality="bold"))
    assert parse_seat_arg("4=mock") == (4, SeatSpec(kind="mock"))


def test_lineup_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "lineup.toml"
    path.write_text(
        """
[defaults]
kind = "mock"

[seats.3]
kind = "llm"
model = "deepseek-chat"
base_url = "https://api.deepseek.com/v1"
api_key_env = "DEEPSEEK_API_KEY"
temperature = 0.7
personality = "calm"

[prices."deepseek-chat"]
prompt = 0.27
completion = 1.10

[budget]
tokens = 5000
"""
    )
    lineup = load_lineup(path)
    specs = lineup.check(9, env={"DEEPSEEK_API_KEY": "sk-secret"})
    assert specs[3].model == "deepseek-chat"
    assert specs[3].key_env() == "DEEPSEEK_API_KEY"
    assert specs[1].kind == "mock"
    assert lineup.budget.tokens == 5000
    price = lineup.price("deepseek-chat")
    assert price is not None
    assert price.cost(1_000_000, 1_000_000) == pytest.approx(1.37)
    assert "sk-secret" not in lineup.model_dump_json()
    assert specs[3].public() == {"kind": "llm", "model": "deepseek-chat", "personality": "calm"}


def test_lineup_problems_are_reported_together_with_paths(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[seats.3]\nkind = "llm"\ncolour = "red"\n')
    with pytest.raises(ConfigError) as info:
        load_lineup(path)
    assert "seats.3.colour" in str(info.value)

    lineup = Lineup(seats={12: SeatSpec(kind="mock")})
    with pytest.raises(ConfigError, match="no seat 12: seats are 1 to 9"):
        lineup.check(9, env={})

    missing = Lineup(seats={2: SeatSpec(kind="llm", model="m"), 4: SeatSpec(kind="llm")})
    with pytest.raises(ConfigError) as info:
        missing.check(9, env={})
    problems = info.value.problems
    assert ("seats.4.model", "seat 4 is an llm seat without a model") in problems
    assert (
        "",
        "seats 2 and 4 need an API key: the environment variable OPENAI_API_KEY is not set (set "
        "it, or name the variable that holds the key with api_key_env in a lineup)",
    ) in problems

    with pytest.raises(ConfigError, match=r"absent\.toml: no such file"):
        load_lineup(tmp_path / "absent.toml")
    (tmp_path / "broken.toml").write_text("[seats\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_lineup(tmp_path / "broken.toml")


def test_command_line_seats_override_the_file() -> None:
    lineup = Lineup(seats={3: SeatSpec(kind="random")}).with_seats(
        dict([parse_seat_arg("3=human")])
    )
    assert lineup.spec(3).kind == "human"
    with pytest.raises(ConfigError, match="one human seat"):
        lineup.with_seats({4: SeatSpec(kind="human")}).check(9, env={})
