"""LLM roles against a real OpenAI-compatible HTTP server on 127.0.0.1 (tests/openai_server.py):
forced tool calls, validation with feedback and bounded retry, fallback, JSON mode, transport
failures (429, 5xx, hangs) through the openai client's own retries, usage, and the API key
never leaking into errors, meta or the recorded failure of a topic."""

from __future__ import annotations

import asyncio
import json
import traceback
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any, TypeVar

import openai
import pydantic
import pytest

from pulse_core import (
    END,
    ERROR,
    RESUME,
    START,
    Event,
    EventStore,
    LLMError,
    LLMRequestError,
    LLMToolsRefusedError,
    LLMUnavailableError,
    MemoryEventStore,
    PulseError,
    RetryPolicy,
    RoleResult,
    ToolCallOutcome,
    WorkflowError,
    WorkflowRule,
    WorkflowType,
    call_tool,
    llm_role,
    read_attachment,
    read_content,
    tool_role,
)
from tests.openai_server import (
    TEST_API_KEY,
    Empty,
    Hang,
    HTTPError,
    JSONContent,
    OpenAIServer,
    Reset,
    ScriptExhaustedError,
    Text,
    ToolCall,
    Usage,
)

T = TypeVar("T")
TOPIC = "01J00000000000000000000000"


class Vote(pydantic.BaseModel):
    target: int = pydantic.Field(ge=1, le=9, description="seat to vote out")
    reason: str


GOOD = '{"target": 3, "reason": "seat 3 lied about the check"}'
PROMPT = [
    {"role": "system", "content": "You are seat 5."},
    {"role": "user", "content": "Vote now."},
]


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer() as running:
        yield running


def with_client(
    server: OpenAIServer,
    work: Callable[[openai.AsyncOpenAI], Awaitable[T]],
    *,
    timeout: float = 2.0,
    max_retries: int = 2,
) -> T:
    async def main() -> T:
        async with server.client(timeout=timeout, max_retries=max_retries) as client:
            return await work(client)

    return asyncio.run(main())


def vote(server: OpenAIServer, *, client_retries: int = 2, **options: Any) -> ToolCallOutcome[Vote]:
    """``call_tool`` for a ``vote``; ``client_retries`` is the openai client's transport retries."""

    async def work(client: openai.AsyncOpenAI) -> ToolCallOutcome[Vote]:
        return await call_tool(
            client,
            model="test-model",
            messages=PROMPT,
            tool_name="vote",
            tool_description="Vote a living seat out.",
            arguments_model=Vote,
            **options,
        )

    return with_client(server, work, max_retries=client_retries)


def fixed_message(text: str) -> Callable[[Sequence[Event], EventStore], str]:
    def build(chain: Sequence[Event], store: EventStore) -> str:
        return text

    return build


def vote_result(parsed: Vote, chain: Sequence[Event]) -> RoleResult:
    return RoleResult(parsed.reason, {"target": parsed.target})


def abstain(chain: Sequence[Event], problems: list[str]) -> RoleResult:
    return RoleResult("abstain", {"target": None, "problems_seen": len(problems)})


def vote_role(client: openai.AsyncOpenAI, **options: Any) -> Any:
    definition: dict[str, Any] = {
        "model": "test-model",
        "system_prompt": "You are seat 5.",
        "build_user_message": fixed_message("Vote now."),
        "tool_name": "vote",
        "tool_description": "Vote a living seat out.",
        "arguments_model": Vote,
        "to_role_result": vote_result,
        "default_result": abstain,
    }
    return tool_role(client, **{**definition, **options})


def run_role(server: OpenAIServer, role_options: dict[str, Any] | None = None) -> RoleResult:
    async def work(client: openai.AsyncOpenAI) -> RoleResult:
        role = vote_role(client, **(role_options or {}))
        result: RoleResult = await role((), TOPIC, MemoryEventStore())
        return result

    return with_client(server, work)


# -- the forced tool call -------------------------------------------------------------------------
def test_a_good_tool_call_is_parsed_and_the_request_forces_the_function(
    server: OpenAIServer,
) -> None:
    server.script(ToolCall("vote", GOOD))
    outcome = vote(server, temperature=0.2, seed=7)
    assert outcome.parsed == Vote(target=3, reason="seat 3 lied about the check")
    assert (outcome.ok, outcome.attempts, outcome.problems) == (True, 1, [])
    [body] = server.bodies()
    assert body["model"] == "test-model"
    assert body["messages"] == PROMPT
    assert body["tool_choice"] == {"type": "function", "function": {"name": "vote"}}
    [tool] = body["tools"]
    assert tool["type"] == "function"
    assert tool["function"]["name"] == "vote"
    assert tool["function"]["description"] == "Vote a living seat out."
    assert tool["function"]["parameters"] == Vote.model_json_schema()
    assert (body["temperature"], body["seed"]) == (0.2, 7)
    assert "response_format" not in body


def test_malformed_json_is_sent_back_and_the_retry_succeeds(server: OpenAIServer) -> None:
    server.script(ToolCall("vote", '{"target": 3, "reason": '), ToolCall("vote", GOOD))
    outcome = vote(server)
    assert outcome.parsed is not None
    assert outcome.parsed.target == 3
    assert outcome.attempts == 2
    [problem] = outcome.problems
    assert problem.startswith("the arguments of `vote` are not valid JSON (")
    first, second = server.bodies()
    # The retry carries the model's broken call and a tool message saying what was wrong.
    assert second["messages"][:2] == first["messages"] == PROMPT
    assistant, feedback = second["messages"][2:]
    assert assistant["role"] == "assistant"
    [call] = assistant["tool_calls"]
    assert call["function"] == {"name": "vote", "arguments": '{"target": 3, "reason": '}
    assert feedback["role"] == "tool"
    assert feedback["tool_call_id"] == call["id"]
    assert feedback["content"] == (
        f"Rejected: {problem}. Call `vote` again with arguments that fix this."
    )
    assert [e.problem for e in outcome.exchanges] == [problem, None]


def test_a_schema_violation_names_each_field_and_what_was_wrong(server: OpenAIServer) -> None:
    server.script(ToolCall("vote", '{"target": 12}'), ToolCall("vote", GOOD))
    outcome = vote(server)
    assert outcome.parsed is not None
    assert outcome.attempts == 2
    [problem] = outcome.problems
    assert problem == (
        "the arguments of `vote` do not match the schema: "
        "`target`: Input should be less than or equal to 9 (got 12); "
        "`reason`: Field required"
    )
    feedback = server.bodies()[1]["messages"][-1]
    assert problem in feedback["content"]


def test_plain_text_instead_of_a_call_is_answered_with_a_user_message(
    server: OpenAIServer,
) -> None:
    server.script(Text("I vote for seat 3."), ToolCall("vote", GOOD))
    outcome = vote(server)
    assert outcome.parsed is not None
    assert outcome.problems == ["no call to the function `vote`: the answer was plain text"]
    assistant, feedback = server.bodies()[1]["messages"][2:]
    assert assistant == {"role": "assistant", "content": "I vote for seat 3."}
    assert feedback["role"] == "user"
    assert "no call to the function `vote`" in feedback["content"]


def test_calling_another_function_is_rejected(server: OpenAIServer) -> None:
    server.script(ToolCall("kill", '{"target": 3}'), ToolCall("vote", GOOD))
    outcome = vote(server)
    assert outcome.problems == ["called `kill`, but the only function is `vote`"]
    assert outcome.parsed is not None


def test_always_bad_gives_up_after_max_retries(server: OpenAIServer) -> None:
    server.script(Text("no"), ToolCall("vote", "{"), ToolCall("vote", '{"target": 0}'))
    outcome = vote(server, max_retries=2)
    assert outcome.parsed is None
    assert not outcome.ok
    assert outcome.attempts == 3
    assert len(outcome.problems) == 3
    assert len(server.bodies()) == 3  # bounded: no fourth request
    assert outcome.messages[-1]["role"] == "tool"  # the last feedback is kept for the record


def test_max_retries_zero_asks_once(server: OpenAIServer) -> None:
    server.script(ToolCall("vote", "{"))
    outcome = vote(server, max_retries=0)
    assert (outcome.parsed, outcome.attempts, len(server.bodies())) == (None, 1, 1)


# -- transport: the openai client's retries, then a clear error ---------------------------------
def test_429_with_retry_after_then_success(server: OpenAIServer) -> None:
    server.script(HTTPError(429, "slow down", retry_after=0.01), ToolCall("vote", GOOD))
    outcome = vote(server)
    assert outcome.parsed is not None
    assert outcome.attempts == 1  # the client's transport retry is not a model attempt
    assert len(server.bodies()) == 2


def test_500_then_success_with_the_clients_own_backoff(server: OpenAIServer) -> None:
    server.script(HTTPError(500, "boom"), ToolCall("vote", GOOD))
    assert vote(server).parsed is not None
    assert len(server.bodies()) == 2


def test_an_endpoint_that_stays_down_raises_llm_unavailable(server: OpenAIServer) -> None:
    server.script(*[HTTPError(503, "overloaded", retry_after=0.01)] * 3)
    with pytest.raises(LLMUnavailableError) as info:
        vote(server, client_retries=2)
    message = str(info.value)
    assert server.base_url in message
    assert "'test-model'" in message
    assert "HTTP 503 (3 tries)" in message
    assert "overloaded" in message
    assert isinstance(info.value, LLMError | WorkflowError | PulseError | ConnectionError)
    assert info.value.__cause__ is None
    assert info.value.__suppress_context__


def test_a_hanging_endpoint_times_out_with_a_clear_error(server: OpenAIServer) -> None:
    server.script(Hang(30), Hang(30))
    with pytest.raises(LLMUnavailableError, match=r"did not answer within the timeout \(2 tries\)"):
        vote(server, timeout=0.3, client_retries=1)
    assert len(server.bodies()) == 2


def test_a_refused_request_is_not_retried(server: OpenAIServer) -> None:
    server.script(HTTPError(400, "tools are not supported by this model"))
    with pytest.raises(
        LLMToolsRefusedError, match=r"refused tool calls, HTTP 400: .*not supported"
    ):
        vote(server)
    assert len(server.bodies()) == 1


# -- JSON mode ------------------------------------------------------------------------------------
def test_json_mode_puts_the_schema_in_the_prompt_and_validates_the_same_way(
    server: OpenAIServer,
) -> None:
    fenced = '```json\n{"target": 4, "reason": "quiet"}\n```'
    server.script(Text("seat 4"), JSONContent({"target": "x", "reason": "r"}), Text(fenced))
    outcome = vote(server, mode="json")
    assert outcome.parsed == Vote(target=4, reason="quiet")
    assert outcome.problems[0].startswith("the answer is not valid JSON (")
    assert outcome.problems[1].startswith("the answer does not match the schema: `target`: ")
    first, _, third = server.bodies()
    assert first["response_format"] == {"type": "json_object"}
    assert "tools" not in first
    assert "tool_choice" not in first
    system = first["messages"][0]
    assert system["role"] == "system"
    assert system["content"].startswith("You are seat 5.\n\nAnswer with only a JSON object")
    assert json.dumps(Vote.model_json_schema()) in system["content"]
    assert first["messages"][1:] == PROMPT[1:]
    feedback = third["messages"][-1]
    assert feedback["role"] == "user"
    assert outcome.problems[1] in feedback["content"]


# -- usage ----------------------------------------------------------------------------------------
def test_usage_is_summed_over_attempts(server: OpenAIServer) -> None:
    server.script(
        ToolCall("vote", "{", usage=Usage(120, 9)), ToolCall("vote", GOOD, usage=Usage(150, 20))
    )
    outcome = vote(server)
    assert (outcome.usage.prompt_tokens, outcome.usage.completion_tokens) == (270, 29)
    assert [e.usage.prompt_tokens for e in outcome.exchanges] == [120, 150]
    assert outcome.latency >= sum(e.latency for e in outcome.exchanges) > 0


# -- tool_role ------------------------------------------------------------------------------------
def test_tool_role_records_llm_meta_and_the_exchange(server: OpenAIServer) -> None:
    server.script(
        ToolCall("vote", "{", usage=Usage(100, 5)), ToolCall("vote", GOOD, usage=Usage(130, 12))
    )
    result = run_role(server)
    assert result.content == "seat 3 lied about the check"
    assert result.meta["target"] == 3
    assert "fallback" not in result.meta
    llm = result.meta["llm"]
    assert {
        k: llm[k] for k in ("model", "mode", "attempts", "prompt_tokens", "completion_tokens")
    } == {
        "model": "test-model",
        "mode": "tool",
        "attempts": 2,
        "prompt_tokens": 230,
        "completion_tokens": 17,
    }
    assert isinstance(llm["latency_ms"], int)
    exchange = json.loads(result.attachments["llm_exchange"])
    assert [m["role"] for m in exchange] == ["system", "user", "assistant", "tool", "assistant"]


def test_tool_role_falls_back_to_default_result_and_says_why(server: OpenAIServer) -> None:
    server.script(Text("pass"), ToolCall("vote", "{"), ToolCall("vote", '{"target": 99}'))
    result = run_role(server)
    assert result.content == "abstain"
    assert result.meta["target"] is None
    assert result.meta["problems_seen"] == 3
    fallback = result.meta["fallback"]
    assert fallback["reason"] == "no valid `vote` call in 3 attempts"
    assert fallback["problems"][0] == "no call to the function `vote`: the answer was plain text"
    assert "`target`: Input should be less than or equal to 9 (got 99)" in fallback["problems"][2]
    assert result.meta["llm"]["attempts"] == 3


def test_tool_role_in_a_workflow_reads_its_input_and_resumes_after_an_outage(
    server: OpenAIServer,
) -> None:
    store = MemoryEventStore()
    server.script(
        *[HTTPError(500, f"backend down; key was {TEST_API_KEY}", retry_after=0.01)] * 3,
        ToolCall("vote", GOOD),
    )

    def ask_about_input(chain: Sequence[Event], store: EventStore) -> str:
        return f"Question: {read_content(store, chain[0])}"

    async def main() -> str:
        async with server.client(max_retries=2) as client:
            role = tool_role(
                client,
                model="test-model",
                system_prompt="You are seat 5.",
                build_user_message=ask_about_input,
                tool_name="vote",
                tool_description="Vote a living seat out.",
                arguments_model=Vote,
                to_role_result=vote_result,
                default_result=abstain,
            )

            def moderator(last: Event, state: object) -> str:
                return "vote" if last.role == START else END

            rule = WorkflowRule(WorkflowType("day", {"vote": role}, moderator), store)
            topic = rule.start("who is the wolf?")
            assert await rule.run([topic]) == {topic: "failed"}
            rule.resume(topic)
            assert await rule.run([topic]) == {topic: "ended"}
            return topic

    topic = asyncio.run(main())
    chain = store.chain(topic)
    assert [e.role for e in chain] == [START, ERROR, RESUME, "vote"]
    failure = chain[1]
    assert failure.meta["error"].startswith("LLMUnavailableError: ")
    recorded = read_content(store, failure) + json.dumps(failure.meta)
    assert "HTTP 500" in recorded
    assert TEST_API_KEY not in recorded  # the server echoed the key; the record must not
    done = chain[-1]
    assert done.meta["target"] == 3
    assert done.meta["llm"]["attempts"] == 1
    exchange = read_attachment(store, done, "llm_exchange")
    assert exchange is not None
    assert "Question: who is the wolf?" in exchange
    assert server.bodies()[-1]["messages"][1]["content"] == "Question: who is the wolf?"


# -- llm_role -------------------------------------------------------------------------------------
def test_llm_role_parses_free_text_and_records_usage(server: OpenAIServer) -> None:
    server.script(Text("Seat 3 is the wolf.", usage=Usage(40, 6)))
    seen: list[str] = []

    def parse(text: str, chain: Sequence[Event]) -> RoleResult:
        seen.append(text)
        return RoleResult(text.upper(), {"status": "done"})

    async def work(client: openai.AsyncOpenAI) -> RoleResult:
        role = llm_role(
            client,
            model="test-model",
            system_prompt="Be brief.",
            build_user_message=fixed_message("Who is the wolf?"),
            parse_response=parse,
            max_tokens=50,
        )
        result: RoleResult = await role((), TOPIC, MemoryEventStore())
        return result

    result = with_client(server, work)
    assert seen == ["Seat 3 is the wolf."]
    assert result.content == "SEAT 3 IS THE WOLF."
    assert result.meta["status"] == "done"
    llm = result.meta["llm"]
    assert (llm["mode"], llm["attempts"], llm["prompt_tokens"], llm["completion_tokens"]) == (
        "text",
        1,
        40,
        6,
    )
    [body] = server.bodies()
    assert body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Who is the wolf?"},
    ]
    assert body["max_tokens"] == 50
    assert "tools" not in body


# -- the API key never leaks ----------------------------------------------------------------------
def test_the_api_key_never_appears_in_errors(server: OpenAIServer) -> None:
    server.script(HTTPError(401, f"Incorrect API key provided: {TEST_API_KEY}"))
    with pytest.raises(LLMRequestError) as info:
        vote(server)
    error = info.value
    assert "HTTP 401" in str(error)
    assert TEST_API_KEY not in str(error)
    assert TEST_API_KEY not in "".join(traceback.format_exception(error))
    # ... while the client really did send it, so the check above can fail.
    [request] = server.completions()
    assert request.headers["authorization"] == f"Bearer {TEST_API_KEY}"


def test_the_api_key_never_appears_in_meta_or_the_exchange(server: OpenAIServer) -> None:
    server.script(ToolCall("vote", "{"), ToolCall("vote", GOOD))
    result = run_role(server)
    assert TEST_API_KEY not in json.dumps(result.meta)
    assert TEST_API_KEY not in "".join(result.attachments.values())
    assert TEST_API_KEY not in json.dumps(server.bodies())


# -- definitions that cannot work -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"tool_name": "cast vote"}, "tool name 'cast vote'"),
        ({"max_retries": -1}, "max_retries must be 0 or more"),
        ({"tools": []}, "sampling options may not set tools"),
    ],
)
def test_bad_tool_role_definitions_are_refused(options: dict[str, Any], message: str) -> None:
    client = openai.AsyncOpenAI(base_url="http://127.0.0.1:9/v1", api_key=TEST_API_KEY)
    with pytest.raises(WorkflowError, match=message):
        vote_role(client, **options)


# -- the test server itself ------------------------------------------------------------------
def test_the_test_server_lists_models_and_fails_loudly_past_its_script() -> None:
    server = OpenAIServer(models=["model-a", "model-b"]).start()
    server.script(Text("only one"))

    async def work(client: openai.AsyncOpenAI) -> list[str]:
        listed = [m.id for m in (await client.models.list()).data]
        hello: Any = [{"role": "user", "content": "hello"}]
        await client.chat.completions.create(model="model-a", messages=hello)
        with pytest.raises(openai.InternalServerError):  # not retried: x-should-retry false
            await client.chat.completions.create(model="model-a", messages=hello)
        return listed

    assert with_client(server, work) == ["model-a", "model-b"]
    assert len(server.bodies()) == 2
    with pytest.raises(ScriptExhaustedError, match="script of 1 replies is exhausted"):
        server.stop()


# -- a RetryPolicy: transient faults retried here, with back-off, until the patience runs out ----
FAST = RetryPolicy(patience=5.0, base_delay=0.01, max_delay=0.05)


def test_transient_faults_are_retried_with_a_policy_and_empty_answers_are_billed(
    server: OpenAIServer,
) -> None:
    server.script(
        Empty(Usage(50, 0)),
        HTTPError(503, "overloaded"),
        Reset(),
        HTTPError(429, "slow down", retry_after=0.02),
        Hang(30),
        ToolCall("vote", GOOD, usage=Usage(100, 10)),
    )
    # the timeout only has to cut the 30 s hang short; a tighter one let the answer after
    # it time out too on a loaded machine (one retry more than scripted)
    outcome = vote(server, client_retries=0, retry=FAST, timeout=1.5)
    assert outcome.parsed == Vote(target=3, reason="seat 3 lied about the check")
    assert outcome.attempts == 1
    assert outcome.transport_retries == 5
    assert (outcome.usage.prompt_tokens, outcome.usage.completion_tokens) == (150, 10)
    times = [r.started for r in server.completions()]
    assert times[4] - times[3] >= 0.02  # Retry-After was honoured


def test_an_endpoint_down_past_the_patience_gives_up(server: OpenAIServer) -> None:
    server.handler = lambda body: HTTPError(502, f"bad gateway; key {TEST_API_KEY}")
    policy = RetryPolicy(patience=0.3, base_delay=0.05, max_delay=0.1, jitter=0)
    with pytest.raises(LLMUnavailableError) as caught:
        vote(server, client_retries=0, retry=policy)
    message = str(caught.value)
    # waits 0.05, 0.1, 0.1: down 0.25 s after the third failure; one more wait passes 0.3 s
    assert "answered HTTP 502 (4 tries)" in message
    assert TEST_API_KEY not in message
    assert len(server.bodies()) == 4


def test_only_a_refusal_that_names_tools_is_a_tools_refusal(server: OpenAIServer) -> None:
    server.script(HTTPError(400, "context length exceeded"))
    with pytest.raises(LLMRequestError) as caught:
        vote(server, retry=FAST)
    assert not isinstance(caught.value, LLMToolsRefusedError)
    server.script(HTTPError(400, "this model does not support tools"))
    with pytest.raises(LLMToolsRefusedError):
        vote(server, retry=FAST)
