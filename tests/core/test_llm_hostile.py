"""``call_tool`` against an endpoint that misbehaves on purpose, with a plain openai client
(no HTTP layer of werewolf's in between): a key echoed JSON-escaped in the answer, a ``200``
answer that is not JSON, a ``Retry-After`` past the patience, a thinking block before a
JSON-mode answer."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pydantic
import pytest

from pulse_core.errors import LLMPatienceError, LLMUnavailableError
from pulse_core.llm import RetryNotice, RetryPolicy, ToolCallOutcome, call_tool
from tests.core.test_redact import assert_no_key, escaped
from tests.openai_server import (
    TEST_API_KEY,
    HTTPError,
    JSONContent,
    OpenAIServer,
    Raw,
    Rewritten,
    Text,
    ToolCall,
)


class Vote(pydantic.BaseModel):
    reasoning: str
    target: int


def _ask(server: OpenAIServer, **options: Any) -> ToolCallOutcome[Vote]:
    async def ask() -> ToolCallOutcome[Vote]:
        client = server.client(max_retries=0)
        try:
            return await call_tool(
                client,
                model="test-model",
                messages=[{"role": "user", "content": "vote"}],
                tool_name="vote",
                tool_description="cast a vote",
                arguments_model=Vote,
                **options,
            )
        finally:
            await client.close()

    return asyncio.run(ask())


def test_a_key_echoed_escaped_in_arguments_and_extra_fields_is_masked_after_decoding(
    openai_server: OpenAIServer,
) -> None:
    arguments = json.dumps({"reasoning": f"the key is {TEST_API_KEY}", "target": 3})

    def rewrite(text: str) -> str:
        text = text.replace(TEST_API_KEY, escaped(TEST_API_KEY, every=2, backslashes=2))
        extra = f'"reasoning_content": "{escaped(TEST_API_KEY)}", "role": "assistant"'
        return text.replace('"role": "assistant"', extra)

    openai_server.script(Rewritten(ToolCall("vote", arguments), rewrite))
    outcome = _ask(openai_server)
    assert outcome.parsed == Vote(reasoning="the key is ***", target=3)
    assert outcome.exchanges[0].reply["reasoning_content"] == "***"
    assert_no_key("the conversation", json.dumps(outcome.messages))
    assert_no_key("the exchanges", json.dumps([e.reply for e in outcome.exchanges]))


def test_a_200_answer_that_is_not_json_is_a_transient_fault(openai_server: OpenAIServer) -> None:
    page = f"<html><body>502 Bad Gateway {escaped(TEST_API_KEY)}</body></html>"
    vote = ToolCall("vote", json.dumps({"reasoning": "r", "target": 2}))
    openai_server.script(Raw(page), Raw("[1, 2]", content_type="application/json"), vote)
    heard: list[RetryNotice] = []
    policy = RetryPolicy(patience=10, base_delay=0.01, max_delay=0.01, on_retry=heard.append)
    outcome = _ask(openai_server, retry=policy)
    assert outcome.parsed == Vote(reasoning="r", target=2)
    assert outcome.transport_retries == 2
    assert [n.failures for n in heard] == [1, 2]
    assert heard[0].failure.startswith(
        "answered HTTP 200 with a body that is not a chat completion (text/html: '<html>"
    )
    assert_no_key("the status", heard[0].failure)
    # a proxy that keeps answering so gives up, saying what it answered
    openai_server.handler = lambda body: Raw(page)
    with pytest.raises(LLMUnavailableError) as caught:
        _ask(openai_server, retry=RetryPolicy(patience=0.02, base_delay=0.01, max_delay=0.01))
    assert "with a body that is not a chat completion (text/html" in str(caught.value)
    assert_no_key("the error", str(caught.value))


def test_a_retry_after_past_the_patience_names_the_wait_and_the_patience(
    openai_server: OpenAIServer,
) -> None:
    openai_server.script(HTTPError(429, "slow down", retry_after=120))
    with pytest.raises(LLMPatienceError) as caught:
        _ask(openai_server, retry=RetryPolicy(patience=60))
    assert caught.value.asked == 120
    assert caught.value.patience == 60
    assert "answered HTTP 429 and asked to wait 120 s (Retry-After), more than the 60 s" in str(
        caught.value
    )


@pytest.mark.parametrize("tag", ["think", "thinking"])
def test_a_thinking_block_before_a_json_answer_is_kept_apart(
    openai_server: OpenAIServer, tag: str
) -> None:
    answer = json.dumps({"reasoning": "short", "target": 4})
    openai_server.script(Text(f"<{tag}>\nSeat 4 lied twice.\n</{tag}>\n\n```json\n{answer}\n```"))
    outcome = _ask(openai_server, mode="json")
    assert outcome.parsed == Vote(reasoning="short", target=4)
    assert outcome.thinking == "Seat 4 lied twice."
    assert outcome.attempts == 1
    # an answer without one has none
    openai_server.script(JSONContent({"reasoning": "r", "target": 1}))
    assert _ask(openai_server, mode="json").thinking is None
