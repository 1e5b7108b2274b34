"""An API key echoed back by an endpoint is masked in every form it can take: plain,
JSON-escaped in whole or in part, escaped twice (inside a JSON string in JSON, as tool-call
arguments are), and cut in two."""

from __future__ import annotations

import html
import json
import re

import pytest

from pulse_core.redact import fragment_length, mask_json, mask_json_text, mask_secret, public_url
from tests.openai_server import TEST_API_KEY as KEY

_ESCAPE = re.compile(r"\\+u([0-9a-fA-F]{4})")


def escaped(text: str, every: int = 1, hex_format: str = "04x", backslashes: int = 1) -> str:
    """``text`` with every ``every``-th character written as a ``\\uXXXX`` escape
    (``backslashes=2``: escaped for a JSON string inside a JSON string)."""
    slash = "\\" * backslashes
    return "".join(
        f"{slash}u{ord(c):{hex_format}}" if i % every == 0 else c for i, c in enumerate(text)
    )


def revealed(text: str) -> str:
    """``text`` as any reader could decode it: JSON escapes (however deep), HTML entities."""
    return html.unescape(_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text))


def assert_no_key(where: str, text: str) -> None:
    """Neither the key nor a run of it long enough to be masked, in any escaped form."""
    plain = revealed(text)
    size = fragment_length(KEY)
    for start in range(len(KEY) - size + 1):
        assert KEY[start : start + size] not in plain, f"{where} holds the key"


def decoded(text: str) -> str:
    """``text`` as JSON readers see it, however deeply escaped."""
    while True:
        again = json.loads(f'"{text}"') if '"' not in text else text
        if again == text:
            return text
        text = again


@pytest.mark.parametrize(
    "echo",
    [
        KEY,
        escaped(KEY),  # every character escaped
        escaped(KEY, every=5),  # in part
        KEY[:5] + escaped(KEY[5:9]) + KEY[9:],  # escapes in the middle
        escaped(KEY, every=3).replace("\\u", "\\\\u"),  # escaped twice
        escaped(KEY, every=2, hex_format="04X"),  # upper-case hex digits
        KEY.replace("-", "&#x2d;"),  # an HTML page's character references
        "".join(f"&#{ord(c)};" for c in KEY),
        KEY.replace("-", "%2D"),  # a URL's percent escapes
    ],
)
def test_an_echoed_key_is_masked_in_any_escaped_form(echo: str) -> None:
    text = f"Incorrect API key provided: {echo}. Check your key."
    masked = mask_secret(text, KEY)
    assert masked == "Incorrect API key provided: ***. Check your key."
    assert KEY not in decoded(masked)


def test_a_key_cut_in_two_leaves_no_half_long_enough_to_matter() -> None:
    cut = len(KEY) // 2
    body = json.dumps({"content": f"first {KEY[:cut]}", "reasoning": f"{KEY[cut:]} second"})
    masked = json.loads(mask_json_text(body, KEY))
    assert masked == {"content": "first ***", "reasoning": "*** second"}
    # any longer run of the key is masked wherever it is; shorter ones are left alone
    size = fragment_length(KEY)
    assert mask_secret(KEY[3 : 3 + size], KEY) == "***"
    assert mask_secret(KEY[3 : 3 + size - 1], KEY) == KEY[3 : 3 + size - 1]


def test_json_stays_json_and_escapes_inside_strings_are_found() -> None:
    arguments = json.dumps({"speech": f"my key: {escaped(KEY, every=4)}"}).replace("\\\\", "\\")
    body = json.dumps({"choices": [{"message": {"tool_calls": [{"arguments": arguments}]}}]})
    masked = mask_json_text(body, KEY)
    value = json.loads(masked)  # still JSON
    inner = json.loads(value["choices"][0]["message"]["tool_calls"][0]["arguments"])
    assert inner == {"speech": "my key: ***"}


def test_decoded_values_are_walked_and_other_text_is_left_as_it_was() -> None:
    value = {"a": [f"x{KEY}y", 3, None], KEY: {"b": "nothing here \\u0041"}}
    assert mask_json(value, KEY) == {"a": ["x***y", 3, None], "***": {"b": "nothing here \\u0041"}}
    assert mask_secret("plain words", KEY) == "plain words"
    assert mask_secret(f"short {KEY}", "abc") == f"short {KEY}"  # no placeholder masked
    assert mask_json_text("not json {", KEY) == "not json {"


def test_a_key_with_slashes_is_found_behind_escaped_slashes() -> None:
    key = "AKIAabc/def+ghi/jkl0123456789/xyz"  # base64 keys hold '/', which JSON may escape
    echo = key.replace("/", "\\/")
    assert mask_secret(f'{{"message": "bad key {echo}"}}', key) == '{"message": "bad key ***"}'
    assert mask_json_text(json.dumps({"m": key}).replace("/", "\\/"), key) == '{"m": "***"}'


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://api.openai.com/v1", "https://api.openai.com/v1"),
        ("http://u:pw@127.0.0.1:8000/v1", "http://u:***@127.0.0.1:8000/v1"),
        (f"https://h/v1?api-key={KEY}&b=", "https://h/v1?api-key=***&b=***"),
        (f"https://h/{KEY}/v1", "https://h/***/v1"),  # the key in the path: masked as text
        ("http://[::1]:8080/v1", "http://[::1]:8080/v1"),
        ("http://h:99999/v1", "http://h:99999/v1"),  # no valid port: masked as text only
    ],
)
def test_an_endpoint_is_shown_without_password_token_or_key(url: str, shown: str) -> None:
    assert public_url(url, KEY) == shown
