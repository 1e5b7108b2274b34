"""Prompt templates: a small, fail-loud subset of Mustache.

Supported, and nothing else:

- ``{{name}}`` and ``{{a.b.c}}``: a dot path looked up in the context, one mapping key per
  segment; a segment of digits also indexes a list (``{{items.0}}``). Spaces inside the
  braces are allowed (``{{ a.b }}``). A name starts with a letter or ``_``; segments use
  letters, digits, ``_`` and ``-``.
- ``\\{{``: an escaped opening; it renders as a literal ``{{`` (the backslash is dropped),
  so ``\\{{x}}`` renders ``{{x}}``. ``escape(text)`` produces it for any text.
- ``{{sys.x}}``: the reserved ``sys.`` namespace, filled from the ``sys`` argument (never from
  the context; dot paths work there too). A ``sys`` value that was not supplied stays in the
  output literally, so a missing system value is visible rather than silently empty.
  ``{{sys}}`` alone is refused.
- Any other reference that does not resolve raises ``TemplateError`` naming it; so does a
  malformed tag (sections, partials, comments, triple braces and unclosed ``{{`` are
  refused, not guessed at).

A string value renders as itself; any other value renders as JSON (``true``, ``null``,
``1.5``, lists and objects with sorted keys, so the text does not depend on key order).
Nothing is HTML-escaped: the output is a prompt, not a web page.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import TemplateError

__all__ = ["SYS_PREFIX", "escape", "render", "template_references"]

SYS_PREFIX = "sys."
"""The reserved namespace: ``{{sys.x}}`` reads ``sys["x"]`` and stays literal if absent."""

_REFERENCE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*")
# At each position, in this order: an escaped opening, a whole tag on one line, a stray opening.
_TOKEN = re.compile(r"\\\{\{|\{\{(?P<body>.*?)\}\}|\{\{")
_MISSING = object()


def _where(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line}, column {column}"


def _tags(text: str) -> list[tuple[re.Match[str], str | None]]:
    """Every token of ``text`` with its reference (``None`` for an escaped ``{{``)."""
    tags: list[tuple[re.Match[str], str | None]] = []
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if token == "\\{{":
            tags.append((match, None))
            continue
        body = match.group("body")
        if body is None:
            raise TemplateError(
                f"unclosed '{{{{' at {_where(text, match.start())}: close it with '}}}}' on "
                f"the same line, or write '\\{{{{' for a literal '{{{{'"
            )
        reference = body.strip()
        if not _REFERENCE.fullmatch(reference):
            raise TemplateError(
                f"malformed tag {token!r} at {_where(text, match.start())}: only "
                f"{{{{name}}}} and {{{{dotted.path}}}} references are supported (no sections, "
                "partials or comments)",
                reference=reference,
            )
        if reference == SYS_PREFIX.rstrip("."):
            raise TemplateError(
                f"tag {token!r} at {_where(text, match.start())} names the reserved 'sys' "
                "namespace itself: name one of its values, as in {{sys.x}}",
                reference=reference,
            )
        tags.append((match, reference))
    return tags


def template_references(text: str) -> list[str]:
    """The references of ``text`` in order of first use, without repeats.

    ``sys.`` references are included. Raises ``TemplateError`` for a malformed tag.
    """
    seen: dict[str, None] = {}
    for _, reference in _tags(text):
        if reference is not None:
            seen.setdefault(reference, None)
    return list(seen)


def escape(text: str) -> str:
    """``text`` as a template that renders back to exactly ``text``."""
    return text.replace("{{", "\\{{")


def _lookup(context: Mapping[str, Any], reference: str) -> Any:
    value: Any = context
    walked: list[str] = []
    for segment in reference.split("."):
        found: Any = _MISSING
        if isinstance(value, Mapping):
            found = value.get(segment, _MISSING)
        elif (
            isinstance(value, Sequence)
            and not isinstance(value, str)
            and segment.isdigit()
            and int(segment) < len(value)
        ):
            found = value[int(segment)]
        if found is _MISSING:
            where = f"{'.'.join(walked)!r} has no {segment!r}" if walked else "not in the context"
            raise TemplateError(f"unknown reference {{{{{reference}}}}}: {where}", reference)
        value = found
        walked.append(segment)
    return value


def _text_of(value: Any, reference: str) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise TemplateError(
            f"reference {{{{{reference}}}}} holds a {type(value).__name__}, which is not JSON",
            reference,
        ) from exc


def render(text: str, context: Mapping[str, Any], *, sys: Mapping[str, Any] | None = None) -> str:
    """Render ``text`` with values from ``context`` (and ``sys`` for ``{{sys.x}}``).

    Raises ``TemplateError`` for a malformed tag or a reference outside ``sys.`` that the
    context does not hold.
    """
    system = sys or {}
    out: list[str] = []
    position = 0
    for match, reference in _tags(text):
        out.append(text[position : match.start()])
        position = match.end()
        if reference is None:
            out.append("{{")
        elif reference.startswith(SYS_PREFIX):
            try:
                value = _lookup(system, reference[len(SYS_PREFIX) :])
            except TemplateError:
                out.append(match.group(0))  # left as written: visible, not silently empty
            else:
                out.append(_text_of(value, reference))
        else:
            out.append(_text_of(_lookup(context, reference), reference))
    out.append(text[position:])
    return "".join(out)
