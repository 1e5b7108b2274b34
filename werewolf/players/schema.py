"""The function an LLM seat calls for one decision: a pydantic model made per request whose
fields admit exactly the legal answers, and the ``Answer`` a validated call becomes.

Every model starts with ``reasoning`` (private: only the god view shows it), then:

- speeches (wolf talk, day speech, last words): ``speech``, 1 to ``MAX_SPEECH_CHARS``
  characters;
- choices (wolf kill, seer, hunter, vote): ``target``, an integer whose JSON schema ``enum``
  lists the legal seats, with ``0`` for "nobody" where the rules allow no target;
- the witch: ``save`` (only when she may save tonight) and ``poison`` (the legal seats, or
  0), checked together against the one-potion rule.

A dead seat, a seat that does not exist, or a potion she cannot use fails validation, and
``pulse_core.llm.call_tool`` tells the model exactly why.

What is offered to the model is either that per-request model's schema, the legal seats in
its ``enum`` (``enum_targets = true`` in a lineup), or by default ``stable_tools(lang)``: the
same array of every function for the whole game, ``target`` and ``poison`` plain integers,
the legal options stated in the request's last message. The array then never changes, so a
provider's prompt cache (which puts tools before the messages) reuses every request's
prefix; the per-request model still checks the answer. With stable tools the witch's model
always has ``save`` and ``poison`` (a refused ``save = true`` says why).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

from ..cast import Identity
from ..decisions import (
    MAX_SPEECH_CHARS,
    YES_NO,
    Answer,
    Choice,
    DecisionKind,
    Request,
    Speech,
    WitchChoice,
)
from ..registry import identity_specs
from .prompting import PromptSet, option_order, options_text, prompt_set, tool_name, tool_names
from .promptset import SHERIFF_TOOLS

__all__ = ["NOBODY", "DecisionTool", "decision_tool", "stable_tools"]

NOBODY = 0
"""The code for "no target" (abstain, no kill, keep the bullet, keep the poison)."""


class _Arguments(BaseModel):
    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True, slots=True)
class DecisionTool:
    """The function offered for one request, and how its arguments become an answer."""

    name: str
    description: str
    model: type[BaseModel]
    kind: DecisionKind

    def answer(self, arguments: BaseModel) -> Answer:
        data = arguments.model_dump()
        reasoning = str(data.get("reasoning", ""))
        if self.kind.speaks:
            if data.get("self_destruct"):  # a wolf's speech offers it (config self_destruct)
                take = int(data.get("take", NOBODY))
                return Choice(None if take == NOBODY else take, reasoning=reasoning)
            return Speech(str(data["speech"]), reasoning=reasoning)
        if self.kind is DecisionKind.WITCH:
            poison = int(data.get("poison", NOBODY))
            return WitchChoice(
                save=bool(data.get("save", False)),
                poison=None if poison == NOBODY else poison,
                reasoning=reasoning,
            )
        if self.kind is DecisionKind.BID:
            return Choice(int(data["bid"]), reasoning=reasoning)
        target = int(data["target"])
        told = data.get("beliefs")
        beliefs = {int(s): float(p) for s, p in told.items()} if told else None
        return Choice(None if target == NOBODY else target, reasoning=reasoning, beliefs=beliefs)


def _literal(values: list[int]) -> Any:
    """``Literal[v1, v2, ...]`` for values known only at run time."""
    return cast(Any, Literal).__getitem__(tuple(values))


def _literal_str(values: list[str]) -> Any:
    """``Literal["1", "2", ...]``: the seat numbers a JSON object may use as keys."""
    return cast(Any, Literal).__getitem__(tuple(values))


def _reasoning(ps: PromptSet) -> Any:
    return (str, Field(description=ps.say("field.reasoning")))


def decision_tool(request: Request, lang: str, *, stable: bool = False) -> DecisionTool:
    """The function for ``request``: its name, description and arguments model (``stable``:
    the witch's model has both fields, as ``stable_tools`` offers them)."""
    ps = prompt_set(lang)
    kind, names = request.kind, request.view.names
    name = tool_name(kind)
    fields: dict[str, Any] = {"reasoning": _reasoning(ps)}
    validators: dict[str, Any] = {}
    if kind.speaks:
        fields["speech"] = (
            str,
            Field(min_length=1, max_length=MAX_SPEECH_CHARS, description=ps.say("field.speech")),
        )
        if stable and request.view.config.self_destruct:  # as the stable array has it
            fields |= _destruct_fields(ps, ())
        elif request.offers_self_destruct:
            fields |= _destruct_fields(ps, request.options)
    elif kind is DecisionKind.WITCH:
        witch = request.witch
        if witch is not None and (witch.can_save or stable):
            fields["save"] = (bool, Field(False, description=ps.say("field.save")))
        if witch is not None and (witch.poison_targets or stable):
            codes = [*sorted(witch.poison_targets), NOBODY]
            shown = options_text(ps, names, [*sorted(witch.poison_targets), None])
            fields["poison"] = (
                _literal(codes),
                Field(NOBODY, description=ps.say("field.poison", options=shown)),
            )
        if witch is not None:
            rules = witch

            def one_potion(self: BaseModel) -> BaseModel:
                poison = getattr(self, "poison", NOBODY)
                reason = rules.allows(
                    bool(getattr(self, "save", False)), None if poison == NOBODY else poison
                )
                if reason is not None:
                    raise ValueError(reason)
                return self

            validators["check_potions"] = model_validator(mode="after")(one_potion)
    elif kind is DecisionKind.BID:
        fields["bid"] = (
            _literal([int(o) for o in request.options if o is not None]),
            Field(description=ps.say("field.bid")),
        )
    else:
        if not request.options:
            raise ValueError(f"a {kind} request needs its legal options")
        shown_options = option_order(request.options)
        codes = [NOBODY if o is None else o for o in shown_options]
        shown = (
            ps.say("option.yes-no") if kind in YES_NO else options_text(ps, names, shown_options)
        )
        fields["target"] = (
            _literal(codes),
            Field(description=ps.say("field.target", options=shown)),
        )
        if kind is DecisionKind.VOTE and request.context.get("beliefs"):
            others = [str(s) for s in request.view.alive if s != request.seat]
            probability = Annotated[float, Field(ge=0.0, le=1.0)]
            fields["beliefs"] = (
                cast(Any, dict).__class_getitem__((_literal_str(others), probability)),
                Field(description=ps.say("field.beliefs", seats=", ".join(others))),
            )
    model: type[BaseModel] = create_model(
        f"{name}_arguments",
        __base__=_Arguments,
        __validators__=validators or None,
        **fields,
    )
    return DecisionTool(
        name, ps.say(tool_key(name, ballots=bool(request.context.get("ballot")))), model, kind
    )


def _destruct_fields(ps: PromptSet, options: tuple[int | None, ...]) -> dict[str, Any]:
    """A speech's self-destruct (a wolf's, config ``self_destruct``): the flag, and the seat
    the white wolf king takes (0: nobody) when he is offered seats."""
    fields: dict[str, Any] = {
        "self_destruct": (bool, Field(False, description=ps.say("field.self_destruct")))
    }
    seats = sorted(o for o in options if o is not None)
    if seats:
        take = (_literal([*seats, NOBODY]), Field(NOBODY, description=ps.say("field.take")))
        fields["take"] = take
    elif not options:  # the stable array: any seat, checked by the rules
        fields["take"] = (int, Field(NOBODY, ge=0, description=ps.say("field.take")))
    return fields


@cache
def _identity_tools() -> dict[str, Identity]:
    """The tools only a deck holding their identity needs (the identities beyond the
    nine-player board, those with a prompt file of their own): a board without them
    offers none."""
    return {
        d.tool: spec.identity
        for spec in identity_specs()
        if spec.prompt is not None
        for d in spec.decisions
    }


def tool_key(name: str, *, ballots: bool = False) -> str:
    """The phrase describing the function ``name``: the wolves' one reads as a ballot where
    they vote (``wolf_kill = "vote"``), else as a proposal to the pack."""
    return "tool.wolf_kill.ballot" if ballots and name == "wolf_kill" else f"tool.{name}"


@cache
def stable_tools(
    lang: str,
    deck: frozenset[Identity] = frozenset(),
    *,
    bidding: bool = False,
    beliefs: bool = False,
    ballots: bool = False,
    destruct: bool = False,
    sheriff: bool = False,
) -> tuple[dict[str, Any], ...]:
    """Every function a seat may be asked to call, the same for the whole game and for every
    seat (the array reveals no card): targets are plain integers, the options are in the
    request's message. Build the request's ``tools`` from it as it is. ``deck`` (the
    identities dealt) adds the guard's, the doctor's and cupid's tools when the game has
    them; a game whose config bids for the floor adds ``bid``; one that asks for beliefs
    gives ``vote`` a ``beliefs`` object; ``ballots`` (the wolves vote) words ``wolf_kill``
    as a ballot (all from the config: the array never changes in a game)."""
    ps = prompt_set(lang)
    reasoning = _reasoning(ps)
    target = (int, Field(ge=0, description=ps.say("field.target.any")))
    probability = Annotated[float, Field(ge=0.0, le=1.0)]
    fields_by_name: dict[str, dict[str, Any]] = {
        "speak": {
            "reasoning": reasoning,
            "speech": (
                str,
                Field(
                    min_length=1, max_length=MAX_SPEECH_CHARS, description=ps.say("field.speech")
                ),
            ),
        },
        "witch_action": {
            "reasoning": reasoning,
            "save": (bool, Field(False, description=ps.say("field.save"))),
            "poison": (int, Field(NOBODY, ge=0, description=ps.say("field.poison.any"))),
        },
        "bid": {
            "reasoning": reasoning,
            "bid": (int, Field(ge=0, le=3, description=ps.say("field.bid"))),
        },
    }
    if destruct:  # config self_destruct: a wolf's speech may be a self-destruct
        fields_by_name["speak"] |= _destruct_fields(ps, ())
    if beliefs:
        fields_by_name["vote"] = {
            "reasoning": reasoning,
            "target": target,
            "beliefs": (
                dict[str, probability],
                Field(description=ps.say("field.beliefs", seats="...")),
            ),
        }
    tools: list[dict[str, Any]] = []
    for name in dict.fromkeys(tool_names().values()):  # one per name, in a fixed order
        if name in (only := _identity_tools()) and only[name] not in deck:
            continue
        if name == "bid" and not bidding:
            continue
        if name in SHERIFF_TOOLS and not sheriff:  # a game without a sheriff offers none
            continue
        fields = fields_by_name.get(name, {"reasoning": reasoning, "target": target})
        model = create_model(f"{name}_arguments", __base__=_Arguments, **fields)
        function = {
            "name": name,
            "description": ps.say(tool_key(name, ballots=ballots)),
            "parameters": model.model_json_schema(),
        }
        tools.append({"type": "function", "function": function})
    return tuple(tools)
