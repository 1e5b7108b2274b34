"""Prompt templates: dot paths, escapes, the sys namespace, and failing loud."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pulse_core import PulseError, TemplateError, WorkflowError
from pulse_core.template import escape, render, template_references


def test_dot_paths_reach_into_nested_objects_and_lists() -> None:
    context = {"user": {"name": "Ada", "langs": ["en", "fr"]}, "n": 3}
    assert render("{{user.name}} speaks {{user.langs.1}} ({{n}})", context) == ("Ada speaks fr (3)")


def test_spaces_inside_the_braces_are_allowed() -> None:
    assert render("[{{ a.b }}]", {"a": {"b": "x"}}) == "[x]"


def test_non_string_values_render_as_json() -> None:
    context = {"items": [1, "two", None], "obj": {"z": 1, "a": True}, "f": 1.5, "b": False}
    assert render("{{items}}|{{obj}}|{{f}}|{{b}}", context) == (
        '[1, "two", null]|{"a": true, "z": 1}|1.5|false'
    )


def test_objects_render_the_same_whatever_their_key_order() -> None:
    assert render("{{o}}", {"o": {"b": 1, "a": 2}}) == render("{{o}}", {"o": {"a": 2, "b": 1}})


def test_unicode_is_kept_in_json_values() -> None:
    assert render("{{x}}", {"x": ["狼人"]}) == '["狼人"]'


def test_an_escaped_opening_renders_literally() -> None:
    assert render(r"say \{{name}} to {{name}}", {"name": "Bo"}) == "say {{name}} to Bo"


def test_an_escaped_opening_needs_no_reference_behind_it() -> None:
    assert render(r"\{{ not a tag", {}) == "{{ not a tag"


def test_unknown_sys_values_stay_literal_and_known_ones_render() -> None:
    text = "{{sys.cwd}} and {{ sys.user }} and {{sys.id.short}}"
    assert render(text, {}, sys={"cwd": "/tmp", "id": {"short": "7"}}) == (
        "/tmp and {{ sys.user }} and 7"
    )


def test_sys_references_never_read_the_context() -> None:
    assert render("{{sys.x}}", {"sys": {"x": "from context"}}) == "{{sys.x}}"


def test_an_unknown_reference_raises_and_names_it() -> None:
    with pytest.raises(TemplateError, match=r"unknown reference \{\{missing\}\}") as info:
        render("hello {{missing}}", {"present": 1})
    assert info.value.reference == "missing"


def test_an_unknown_nested_reference_says_where_the_path_stopped() -> None:
    with pytest.raises(TemplateError, match=r"\{\{a\.b\.c\}\}: 'a\.b' has no 'c'") as info:
        render("{{a.b.c}}", {"a": {"b": {"d": 1}}})
    assert info.value.reference == "a.b.c"


@pytest.mark.parametrize("reference", ["xs.2", "xs.first", "s.0"])
def test_list_indexes_out_of_range_or_into_strings_are_unknown(reference: str) -> None:
    with pytest.raises(TemplateError, match="unknown reference"):
        render("{{" + reference + "}}", {"xs": ["a", "b"], "s": "text"})


def test_a_value_that_is_not_json_raises() -> None:
    with pytest.raises(TemplateError, match=r"\{\{when\}\} holds a datetime"):
        render("{{when}}", {"when": datetime(2024, 1, 1, tzinfo=UTC)})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{{#items}}x{{/items}}", "malformed tag '{{#items}}' at line 1, column 1"),
        ("a\n  {{> partial}}", "malformed tag '{{> partial}}' at line 2, column 3"),
        ("{{! comment }}", "malformed tag"),
        ("{{{raw}}}", "malformed tag"),
        ("{{}}", "malformed tag"),
        ("{{a b}}", "malformed tag"),
        ("{{a..b}}", "malformed tag"),
        ("{{sys}}", "reserved 'sys' namespace"),
        ("text {{open", "unclosed '{{' at line 1, column 6"),
        ("{{split\n}}", "unclosed '{{' at line 1, column 1"),
    ],
)
def test_malformed_templates_raise_with_where(text: str, message: str) -> None:
    with pytest.raises(TemplateError) as info:
        render(text, {"items": [], "a": 1, "b": 2, "raw": "x", "open": 1, "split": 1})
    assert message in str(info.value)
    with pytest.raises(TemplateError):
        template_references(text)


def test_template_error_is_part_of_the_exception_tree() -> None:
    assert issubclass(TemplateError, WorkflowError)
    assert issubclass(TemplateError, PulseError)
    assert issubclass(TemplateError, ValueError)


def test_references_are_listed_in_order_of_first_use_without_escapes() -> None:
    text = r"{{b}} {{ a.x }} \{{skipped}} {{b}} {{sys.topic}}"
    assert template_references(text) == ["b", "a.x", "sys.topic"]


def test_escape_guards_every_opening() -> None:
    assert escape("{{a}} and {{{b}}}") == r"\{{a}} and \{{{b}}}"
    assert template_references(escape("{{a}} {{b.c}}")) == []


@given(st.text().filter(lambda text: "{{" not in text), st.dictionaries(st.text(), st.text()))
def test_text_without_openings_renders_as_itself(text: str, context: dict[str, str]) -> None:
    assert render(text, context) == text


@given(st.text(alphabet=st.sampled_from(["{", "}", "\\", "a", ".", " ", "\n", "é"])))
def test_escaping_round_trips_brace_heavy_text(text: str) -> None:
    assert render(escape(text), {}) == text


@given(st.text())
def test_escaping_round_trips_any_text(text: str) -> None:
    assert render(escape(text), {}) == text
