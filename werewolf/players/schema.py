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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

from ..decisions import MAX_SPEECH_CHARS, Answer, Choice, DecisionKind, Request, Speech, WitchChoice
from .prompting import PromptSet, option_order, options_text, prompt_set, tool_name

__all__ = ["NOBODY", "DecisionTool", "decision_tool"]

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


def decision_tool(request: Request, lang: str) -> DecisionTool:
    """The function for ``request``: its name, description and arguments model."""
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
    elif kind is DecisionKind.WITCH:
        witch = request.witch
        if witch is not None and witch.can_save:
            fields["save"] = (bool, Field(False, description=ps.say("field.save")))
        if witch is not None and witch.poison_targets:
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
        shown = options_text(ps, names, shown_options)
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
    return DecisionTool(name, ps.say(f"tool.{name}"), model, kind)
