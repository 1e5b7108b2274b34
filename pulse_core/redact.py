"""Masking a secret (an API key) that an endpoint echoed back, in whatever form it came.

An endpoint may echo the key as it was sent, JSON-escaped (``\\u0073`` for ``s``, or escaped
again inside a JSON string, as tool-call arguments are), escaped only in part, or split over
two fields or chunks. So the search runs on the text as a JSON reader would decode its
``\\uXXXX`` and ``\\/`` escapes (any number of backslashes before them), an HTML page's
character references (``&#x2F;``) and a URL's percent escapes, and masks every
run of at least ``fragment_length(key)`` consecutive characters of the key, not only the
whole key: a key cut in two leaves at least one half long enough to be found, and what is
left of the other is too short to matter. The masked span in the original text is replaced
whole, escapes included, so JSON stays JSON.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

__all__ = ["MASK", "fragment_length", "mask_json", "mask_json_text", "mask_secret", "public_url"]

MASK = "***"
_MIN_SECRET = 4  # shorter "keys" are placeholders: masking them would mangle words
_MIN_FRAGMENT = 12  # a run of the key this long is never a word of a game's text
# where a key's characters can hide: JSON escapes (any depth), and the character references
# and percent escapes of a page or URL (a proxy's HTML page writes ``/`` as ``&#x2F;``)
_ESCAPE = re.compile(
    r"\\+(?:u([0-9a-fA-F]{4})|/)|&#(?:([0-9]{1,7})|[xX]([0-9a-fA-F]{1,6}));|%([0-9a-fA-F]{2})"
)


def _escaped_char(found: re.Match[str]) -> str:
    """The character an escape ``_ESCAPE`` found stands for."""
    json_hex, decimal, ref_hex, percent = found.groups()
    if decimal is not None:
        code = int(decimal)
    elif json_hex or ref_hex or percent:
        code = int(json_hex or ref_hex or percent, 16)
    else:
        return "/"  # ``\\/``
    return chr(code) if code <= 0x10FFFF else "\ufffd"


def fragment_length(secret: str) -> int:
    """The shortest run of ``secret`` that is masked: half of it, at least 12 characters
    (the whole of a shorter one)."""
    return min(len(secret), max(_MIN_FRAGMENT, len(secret) // 2))


def _decoded(text: str) -> tuple[str, list[int] | None]:
    """``text`` with its ``\\uXXXX`` and ``\\/`` escapes decoded, and where each decoded
    character starts in ``text`` (plus the end, last); ``None`` when nothing was decoded."""
    if _ESCAPE.search(text) is None:
        return text, None
    chars: list[str] = []
    starts: list[int] = []
    at = 0
    for found in _ESCAPE.finditer(text):
        for i in range(at, found.start()):
            chars.append(text[i])
            starts.append(i)
        chars.append(_escaped_char(found))
        starts.append(found.start())
        at = found.end()
    for i in range(at, len(text)):
        chars.append(text[i])
        starts.append(i)
    starts.append(len(text))
    return "".join(chars), starts


def _spans(view: str, secret: str) -> list[tuple[int, int]]:
    """The merged spans of ``view`` covered by runs of ``secret`` long enough to mask."""
    size = fragment_length(secret)
    found: list[tuple[int, int]] = []
    for i in range(len(secret) - size + 1):
        fragment = secret[i : i + size]
        at = view.find(fragment)
        while at != -1:
            found.append((at, at + size))
            at = view.find(fragment, at + 1)
    found.sort()
    merged: list[tuple[int, int]] = []
    for start, end in found:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def mask_secret(text: str, secret: str | None) -> str:
    """``text`` with every echo of ``secret`` (see the module docstring) replaced by ``***``."""
    if not secret or len(secret) < _MIN_SECRET or not text:
        return text
    view, starts = _decoded(text)
    spans = _spans(view, secret)
    if not spans:
        return text
    out: list[str] = []
    at = 0
    for start, end in spans:
        if starts is not None:  # back to the original text: an escape is replaced whole
            start, end = starts[start], starts[end]
        out.append(text[at:start])
        out.append(MASK)
        at = end
    out.append(text[at:])
    return "".join(out)


def mask_json(value: Any, secret: str | None) -> Any:
    """A decoded JSON value with ``secret`` masked in every string (and key) in it."""
    if not secret:
        return value
    if isinstance(value, str):
        return mask_secret(value, secret)
    if isinstance(value, list):
        return [mask_json(item, secret) for item in value]
    if isinstance(value, dict):
        return {mask_secret(str(k), secret): mask_json(v, secret) for k, v in value.items()}
    return value


def mask_json_text(text: str, secret: str | None) -> str:
    """A JSON document (or any text) with ``secret`` masked: every string decoded first,
    so escapes hide nothing; text that is not JSON is masked as it is (escapes decoded)."""
    if not secret or len(secret) < _MIN_SECRET:
        return text
    masked = mask_secret(text, secret)
    try:
        value = json.loads(masked)
    except ValueError:
        return masked
    clean = mask_json(value, secret)
    if clean == value:
        return masked
    text = json.dumps(clean, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate the body escaped: escaped it stays
        return json.dumps(clean)
    return text


def public_url(url: str, secret: str | None = None) -> str:
    """``url`` fit to show: a password in it and the value of every query parameter
    (``?api-key=...``) become ``***``, and ``secret`` is masked in what is left; an endpoint
    is named in messages, status lines and logs, and some carry a token in the URL."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return mask_secret(url, secret)
    netloc = parts.hostname or ""
    if ":" in netloc:
        netloc = f"[{netloc}]"
    if port is not None:
        netloc = f"{netloc}:{port}"
    if parts.username is not None:
        login = parts.username + (f":{MASK}" if parts.password is not None else "")
        netloc = f"{login}@{netloc}"
    query = "&".join(
        f"{name}={MASK}" for name, _value in parse_qsl(parts.query, keep_blank_values=True)
    )
    shown = urlunsplit((parts.scheme, netloc, parts.path, query, ""))
    return mask_secret(shown, secret)
