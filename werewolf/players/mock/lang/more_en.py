"""More English phrasings of the shared lines, and the fillers a short speech grows by
(``fill.*``: no claim in them). Added after ``en``'s own (see ``lang.phrasings``)."""

from __future__ import annotations

MORE: dict[str, tuple[str, ...]] = {
    "fill.wait": (
        "I want to hear the later speakers before I settle.",
        "Let's keep the vote on one seat today.",
        "I'll be watching who votes against their own words.",
        "Everyone should leave a clear read today.",
    ),
    "fill.ask": (
        "Whoever speaks after me, please give a name and a reason.",
        "A split vote only helps the wolves.",
        "Check every claim against last night before you believe it.",
        "Keep an eye on who changes their story.",
    ),
}
