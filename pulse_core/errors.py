"""The one exception tree of pulse_core.

::

    PulseError(Exception)
    ├── ConflictError              a stale writer: the topic moved past the expected version
    ├── InvalidEventError(ValueError)      an event that breaks the model (kind, key, meta)
    ├── ObjectNotFoundError(KeyError)      no object with that hash
    ├── CorruptObjectError(ValueError)     an object whose bytes no longer match its hash
    ├── TopicFileError(ValueError)         a damaged or unreadable exported topic file
    ├── ImmutableLogError                  an attempt to update or delete an event
    ├── StoreLockedError(TimeoutError)     another process held a store's write lock
    │                                      past the writer's lock timeout
    ├── LimitError(ValueError)             a file a user handed over that is over a limit,
    │                                      or not a document at all (``pulse_core.limits``)
    ├── NumberTooLargeError(ValueError)    a number over the limit, met inside a parser's
    │                                      hook; the reader turns it into ``LimitError``
    └── WorkflowError                      a workflow definition or run that cannot go on
        ├── GraphError(ValueError)         a status graph with problems (see ``problems``)
        ├── TemplateError(ValueError)      a malformed template or an unknown reference
        ├── LLMError                       a chat-completion call that could not be made
        │   ├── LLMEmptyAnswerError        one try answered ``200`` with no choices; retried,
        │   │                              never raised out of a call
        │   ├── LLMUnreadableAnswerError   one try answered ``200`` with a body that is not
        │   │                              a chat completion; likewise
        │   ├── LLMUnavailableError(ConnectionError)  the endpoint stayed down (timeouts,
        │   │                              429, 5xx, empty answers) past the retries
        │   │   ├── LLMPatienceError       ...it asked to wait longer than the patience left
        │   │   └── LLMUnreachableError    ...its host does not resolve or refuses connections
        │   └── LLMRequestError            the endpoint refused the request (other 4xx)
        │       └── LLMToolsRefusedError   ...because it does not take tool calls
        └── AgentError                     an external agent program that could not run
            └── AgentTimeoutError(TimeoutError)  it ran past its timeout and was killed

Callers catch ``PulseError`` for anything the core raises on purpose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # errors.py imports nothing of pulse_core at run time
    from .llm_outcome import LLMUsage

__all__ = [
    "AgentError",
    "AgentTimeoutError",
    "ConflictError",
    "CorruptObjectError",
    "GraphError",
    "ImmutableLogError",
    "InvalidEventError",
    "LLMEmptyAnswerError",
    "LLMError",
    "LLMPatienceError",
    "LLMRequestError",
    "LLMToolsRefusedError",
    "LLMUnavailableError",
    "LLMUnreachableError",
    "LLMUnreadableAnswerError",
    "LimitError",
    "NumberTooLargeError",
    "ObjectNotFoundError",
    "PulseError",
    "StoreLockedError",
    "TemplateError",
    "TopicFileError",
    "WorkflowError",
]


class PulseError(Exception):
    """Base of every error pulse_core raises on purpose."""


class ConflictError(PulseError):
    """An append named a version the topic has already moved past; nothing was written."""

    def __init__(self, key: str, expected: int, actual: int) -> None:
        super().__init__(
            f"topic {key} is at version {actual}, not {expected}: re-read the topic and retry"
        )
        self.key = key
        self.expected = expected
        self.actual = actual


class InvalidEventError(PulseError, ValueError):
    """An event that breaks the event model."""


class ObjectNotFoundError(PulseError, KeyError):
    """No object is stored under this hash."""

    def __init__(self, digest: str) -> None:
        super().__init__(f"no object {digest}")
        self.digest = digest

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class CorruptObjectError(PulseError, ValueError):
    """The bytes stored under a hash no longer hash to it."""

    def __init__(self, digest: str, detail: str = "") -> None:
        msg = f"object {digest} is corrupt: its content does not match its hash"
        super().__init__(f"{msg} ({detail})" if detail else msg)
        self.digest = digest


class TopicFileError(PulseError, ValueError):
    """An exported topic file that cannot be imported; names the file and line (0: the
    file as a whole, e.g. one that does not exist)."""

    def __init__(self, path: str, line: int, detail: str) -> None:
        super().__init__(f"{path}:{line}: {detail}" if line else f"{path}: {detail}")
        self.path = path
        self.line = line
        self.detail = detail


class ImmutableLogError(PulseError):
    """Events are append-only: updates and deletes are refused."""


class StoreLockedError(PulseError, TimeoutError):
    """Another process held the store's write lock longer than the writer would wait;
    ``holder`` names it where the system tells ("another process" where it does not)."""

    def __init__(self, database: str, holder: str, waited: float) -> None:
        super().__init__(
            f"{database}: {holder} holds the store's write lock; gave up after {waited:g} s"
        )
        self.holder = holder
        self.waited = waited


class LimitError(PulseError, ValueError):
    """A file over a limit, or not a document at all: ``FILE[:LINE]: detail``."""

    def __init__(self, source: str, line: int | None, detail: str) -> None:
        super().__init__(f"{source}:{line}: {detail}" if line else f"{source}: {detail}")
        self.source, self.line, self.detail = source, line, detail


class NumberTooLargeError(PulseError, ValueError):
    """A number over the limit, raised inside the JSON or TOML parser's hooks."""


class WorkflowError(PulseError):
    """A workflow definition or run that cannot go on."""


class GraphError(WorkflowError, ValueError):
    """A status graph with problems; ``problems`` lists each with its dot path."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        lines = "; ".join(f"{path}: {msg}" for path, msg in problems)
        super().__init__(f"invalid status graph: {lines}")
        self.problems = problems


class TemplateError(WorkflowError, ValueError):
    """A template that cannot be rendered; ``reference`` names the tag at fault, if any."""

    def __init__(self, detail: str, reference: str | None = None) -> None:
        super().__init__(detail)
        self.reference = reference


class LLMError(WorkflowError):
    """A chat-completion call that could not be made; never carries the API key."""


class LLMEmptyAnswerError(LLMError):
    """A ``200`` answer with no choices; its billed usage travels with it."""

    def __init__(self, usage: LLMUsage) -> None:
        super().__init__("answered with no choices")
        self.usage = usage


class LLMUnreadableAnswerError(LLMError):
    """A ``200`` answer whose body is not a chat completion (a proxy's HTML page, say)."""


class LLMUnavailableError(LLMError, ConnectionError):
    """The endpoint stayed down (timeouts, HTTP 429 or 5xx) after the client's retries.

    The topic that needed it fails and can be resumed once the endpoint is back.
    """


class LLMPatienceError(LLMUnavailableError):
    """The endpoint asked to wait (``Retry-After``) longer than the patience left: ``asked``
    and ``patience`` are in seconds, so a caller can say which setting to raise."""

    def __init__(self, message: str, *, asked: float, patience: float) -> None:
        super().__init__(message)
        self.asked = asked
        self.patience = patience


class LLMUnreachableError(LLMUnavailableError):
    """The endpoint's host name does not resolve, or it refused the connection, and the
    retry policy says not to wait for it (``RetryPolicy.unreachable_is_final``)."""


class LLMRequestError(LLMError):
    """The endpoint refused the request (HTTP 4xx other than 429, or a malformed answer)."""


class LLMToolsRefusedError(LLMRequestError):
    """The endpoint refused a request with tools (HTTP 4xx naming tools or functions): the
    model or server takes no tool calls, and JSON mode is the way to ask it."""


class AgentError(WorkflowError):
    """An external agent program that could not be started or run."""


class AgentTimeoutError(AgentError, TimeoutError):
    """An agent program ran past its timeout; its process group was killed.

    ``stdout`` and ``stderr`` hold what it had written by then.
    """

    def __init__(self, message: str, *, stdout: str = "", stderr: str = "") -> None:
        super().__init__(message)
        self.stdout = stdout
        self.stderr = stderr
