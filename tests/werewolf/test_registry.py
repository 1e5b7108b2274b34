"""The registry: every list that names the identities is read from their specs, and the
rules and the state import no identity module and no player."""

from __future__ import annotations

import ast
from pathlib import Path

import werewolf
from werewolf.cast import GODS, Identity, Team, team_of
from werewolf.moderator import night_order
from werewolf.phases import phase_roles
from werewolf.players.prompting import tool_names
from werewolf.registry import gods, identity_spec, identity_specs

PACKAGE = Path(werewolf.__file__).parent


def _module_imports(module: str) -> set[str]:
    """The werewolf modules ``module`` imports when it is imported (not for typing only,
    not inside a function)."""
    path = PACKAGE.joinpath(*module.split(".")[1:])
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            target = f"{base}.{node.module}" if node.module else base
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)
    return {m for m in found if _exists(m)}


def _exists(module: str) -> bool:
    path = PACKAGE.joinpath(*module.split(".")[1:])
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _closure(module: str) -> set[str]:
    seen, todo = set(), [module]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        parts = current.split(".")
        todo += [".".join(parts[:i]) for i in range(2, len(parts))]  # parent packages run
        todo += _module_imports(current)
    return seen


def test_importing_the_rules_or_the_state_loads_no_identity_phase_or_player_module() -> None:
    for module in ("werewolf.rules", "werewolf.state", "werewolf.moderator"):
        loaded = _closure(module)
        assert not {m for m in loaded if m.startswith("werewolf.players")}, module
        assert not {m for m in loaded if m.startswith("werewolf.identities")}, module
        assert not {m for m in loaded if m.startswith("werewolf.phases")}, module


def test_the_night_order_is_the_one_the_moderator_always_played() -> None:
    plain = [s.phase for s in night_order()]
    assert plain == [
        "cupid-link",
        "lovers-told",
        "guard-protect",
        "doctor-protect",
        "wolf-night",
        "witch-action",
        "seer-check",
    ]
    early = [s.phase for s in night_order(seer_first=True)]
    assert early == [*plain[:4], "seer-check", "wolf-night", "witch-action"]


def test_the_gods_teams_tools_and_roles_come_from_the_specs() -> None:
    assert GODS == gods() == werewolf.GODS
    assert Identity.CUPID not in gods()  # no god for 屠边
    assert Identity.KNIGHT in gods()
    for spec in identity_specs():
        assert team_of(spec.identity) is spec.team
        for decision in spec.decisions:
            assert tool_names()[decision.kind] in (decision.tool, "speak", "vote")
        assert set(spec.phases) <= set(phase_roles())
    assert team_of(Identity.WEREWOLF) is Team.WOLVES
    assert list(dict.fromkeys(tool_names().values()))[:6] == [
        "speak",
        "wolf_kill",
        "seer_check",
        "hunter_shot",
        "vote",
        "witch_action",
    ]
    assert identity_spec(Identity.VILLAGER).unique is False
