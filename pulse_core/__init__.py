"""pulse_core: a small event-sourced workflow core.

An append-only event log (ULID ids, kind ``workflow.role``, key = topic id, content in a
content-addressed object store, decision signals in ``meta``), workflow definitions (roles
and a moderator), and an adapter whose ``tick()`` moves every topic one step.
"""

import importlib
from typing import TYPE_CHECKING, Any

from .adapter import TopicStatus, WorkflowRule
from .errors import (
    AgentError,
    AgentTimeoutError,
    ConflictError,
    CorruptObjectError,
    GraphError,
    ImmutableLogError,
    InvalidEventError,
    LLMError,
    LLMRequestError,
    LLMToolsRefusedError,
    LLMUnavailableError,
    ObjectNotFoundError,
    PulseError,
    StoreLockedError,
    TemplateError,
    TopicFileError,
    WorkflowError,
)
from .events import CODE_REV, Draft, Event, JSONValue, Meta, check_kind, split_kind
from .graph import Decision, Problem, StatusGraph, Target
from .graph import validate as validate_graph
from .ids import Clock, IdSource, is_ulid, system_clock
from .objects import FileObjectStore, MemoryObjectStore, ObjectStore, digest_of
from .sqlite_store import SQLiteEventStore
from .store import EventStore, MemoryEventStore
from .template import render as render_template
from .template import template_references
from .transfer import (
    TopicFile,
    export_topic,
    export_topic_lines,
    import_topic,
    load_topic_file,
    parse_topic,
)
from .workflow import (
    ATTACHMENTS,
    END,
    ERROR,
    RESUME,
    START,
    Role,
    RoleResult,
    WorkflowType,
    read_attachment,
    read_content,
)

if TYPE_CHECKING:  # typed as eager imports; loaded on first use (openai takes a second)
    from .agent import agent_role, run_agent
    from .llm import (
        ChatMessage,
        LLMExchange,
        LLMUsage,
        RetryPolicy,
        ToolCallOutcome,
        call_tool,
        llm_role,
        tool_role,
    )

_LAZY = {
    "agent_role": "agent",
    "run_agent": "agent",
    "ChatMessage": "llm",
    "LLMExchange": "llm",
    "LLMUsage": "llm",
    "RetryPolicy": "llm",
    "ToolCallOutcome": "llm",
    "call_tool": "llm",
    "llm_role": "llm",
    "tool_role": "llm",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pulse_core' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "ATTACHMENTS",
    "CODE_REV",
    "END",
    "ERROR",
    "RESUME",
    "START",
    "AgentError",
    "AgentTimeoutError",
    "ChatMessage",
    "Clock",
    "ConflictError",
    "CorruptObjectError",
    "Decision",
    "Draft",
    "Event",
    "EventStore",
    "FileObjectStore",
    "GraphError",
    "IdSource",
    "ImmutableLogError",
    "InvalidEventError",
    "JSONValue",
    "LLMError",
    "LLMExchange",
    "LLMRequestError",
    "LLMToolsRefusedError",
    "LLMUnavailableError",
    "LLMUsage",
    "MemoryEventStore",
    "MemoryObjectStore",
    "Meta",
    "ObjectNotFoundError",
    "ObjectStore",
    "Problem",
    "PulseError",
    "RetryPolicy",
    "Role",
    "RoleResult",
    "SQLiteEventStore",
    "StatusGraph",
    "StoreLockedError",
    "Target",
    "TemplateError",
    "ToolCallOutcome",
    "TopicFile",
    "TopicFileError",
    "TopicStatus",
    "WorkflowError",
    "WorkflowRule",
    "WorkflowType",
    "agent_role",
    "call_tool",
    "check_kind",
    "digest_of",
    "export_topic",
    "export_topic_lines",
    "import_topic",
    "is_ulid",
    "llm_role",
    "load_topic_file",
    "parse_topic",
    "read_attachment",
    "read_content",
    "render_template",
    "run_agent",
    "split_kind",
    "system_clock",
    "template_references",
    "tool_role",
    "validate_graph",
]
