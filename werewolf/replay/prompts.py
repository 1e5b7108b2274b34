"""The prompts of a god page, each text stored once, as a prefix and what follows it.

A model's prompt repeats itself: a seat's system message is the same at every decision,
and its history grows by a few lines between two decisions. Stored inline, a god page of
an LLM game held every prompt whole (about 9 kB a decision). ``PromptStore`` keeps each
text as a node ``[parent, added]``: the text of its parent node (none: ``-1``) followed by
``added``. A new text starts from the longest prefix it shares with the last text of the
same seat at the same place in the conversation (the node holding that prefix split off
where needed), so a seat's history costs what it adds, once.

The page data keeps a message's place in the store (``"prompt": id``) instead of its
``content``; the nodes travel apart from the entries: ``werewolf serve`` answers one text
per request (the page fetches it when its fold opens), and a standalone page carries them
gzip-compressed (``packed_nodes``), expanded by the browser when a fold first opens.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Sequence
from typing import Any

__all__ = ["PromptStore", "pack_nodes", "prompt_text"]

Node = tuple[int, str]


def _shared(a: str, b: str) -> int:
    """The length of the longest common prefix of ``a`` and ``b`` (slices compared by halves:
    C speed, not a Python loop per character)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        mid = (low + high + 1) // 2
        if a[low:mid] == b[low:mid]:
            low = mid
        else:
            high = mid - 1
    return low


class PromptStore:
    """Texts stored once each, as chains of shared prefixes."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self._texts: list[str] = []  # each node's whole text
        self._ids: dict[str, int] = {}
        self._last: dict[tuple[int, int], int] = {}  # (seat, message index) -> last text there

    def __len__(self) -> int:
        return len(self.nodes)

    def text(self, node: int) -> str:
        return self._texts[node]

    def add(self, text: str, place: tuple[int, int]) -> int:
        """The node of ``text``, said at ``place`` (a seat and a message's index)."""
        node = self._ids.get(text)
        if node is None:
            parent = -1
            previous = self._last.get(place)
            if previous is not None:
                parent = self._prefix(previous, _shared(self._texts[previous], text))
            start = len(self._texts[parent]) if parent >= 0 else 0
            # a text that is a prefix of the last one is the node just made for it
            node = parent if start == len(text) else self._node(parent, text[start:], text)
        self._last[place] = node
        return node

    def _prefix(self, node: int, length: int) -> int:
        """A node whose text is the first ``length`` characters of ``node``'s (-1: none).
        Where the cut falls inside a node of ``node``'s chain, that node is split in two:
        a new node for its first part, and itself the rest after it (its text, and so
        every reference to it, stays what it was)."""
        if length == 0:
            return -1
        child, ancestor = node, node
        while ancestor >= 0 and len(self._texts[ancestor]) > length:
            child, ancestor = ancestor, self.nodes[ancestor][0]
        if ancestor >= 0 and len(self._texts[ancestor]) == length:
            return ancestor
        whole = self._texts[node][:length]
        known = self._ids.get(whole)
        if known is not None:
            return known
        cut = length - (len(self._texts[ancestor]) if ancestor >= 0 else 0)
        added = self.nodes[child][1]
        middle = self._node(ancestor, added[:cut], whole)
        self.nodes[child] = (middle, added[cut:])
        return middle

    def _node(self, parent: int, added: str, whole: str) -> int:
        self.nodes.append((parent, added))
        self._texts.append(whole)
        self._ids[whole] = len(self.nodes) - 1
        return len(self.nodes) - 1

    def take(self, decisions: Sequence[dict[str, Any]]) -> None:
        """Move the text messages of ``decisions`` (page data) into the store: each
        message's ``content`` becomes ``prompt``, its node."""
        for decision in decisions:
            seat = int(decision.get("seat", 0))
            for attempt in decision.get("exchanges", ()):
                if not isinstance(attempt, dict):
                    continue
                for index, message in enumerate(attempt.get("messages") or ()):
                    content = message.get("content") if isinstance(message, dict) else None
                    if isinstance(content, str):
                        message["prompt"] = self.add(content, (seat, index))
                        del message["content"]


def prompt_text(nodes: Sequence[Sequence[Any]], node: int) -> str:
    """The text of ``node`` from the nodes as the page data holds them."""
    parts = []
    while node >= 0:
        parent, added = nodes[node]
        parts.append(str(added))
        node = int(parent)
    return "".join(reversed(parts))


def pack_nodes(nodes: Sequence[Node]) -> str:
    """The nodes as JSON, gzip-compressed, in base64 (what a standalone page embeds; the
    browser's ``DecompressionStream`` expands it, from ``file://`` too)."""
    raw = json.dumps(nodes, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")
