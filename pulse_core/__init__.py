"""pulse_core: a small event-sourced workflow core.

An append-only event log (ULID ids, kind ``workflow.role``, key = topic id, content in a
content-addressed object store, decision signals in ``meta``), workflow definitions (roles
and a moderator), and an adapter whose ``tick()`` moves every topic one step.
"""

from .adapter import TopicStatus, WorkflowRule
from .errors import (
    ConflictError,
    CorruptObjectError,
    GraphError,
    ImmutableLogError,
    InvalidEventError,
    ObjectNotFoundError,
    PulseError,
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

__all__ = [
    "ATTACHMENTS",
    "CODE_REV",
    "END",
    "ERROR",
    "RESUME",
    "START",
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
    "MemoryEventStore",
    "MemoryObjectStore",
    "Meta",
    "ObjectNotFoundError",
    "ObjectStore",
    "Problem",
    "PulseError",
    "Role",
    "RoleResult",
    "SQLiteEventStore",
    "StatusGraph",
    "Target",
    "TemplateError",
    "TopicFile",
    "TopicFileError",
    "TopicStatus",
    "WorkflowError",
    "WorkflowRule",
    "WorkflowType",
    "check_kind",
    "digest_of",
    "export_topic",
    "export_topic_lines",
    "import_topic",
    "is_ulid",
    "load_topic_file",
    "parse_topic",
    "read_attachment",
    "read_content",
    "render_template",
    "split_kind",
    "system_clock",
    "template_references",
    "validate_graph",
]
