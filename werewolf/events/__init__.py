"""The event kinds of a game, one module each: the typed shape of the event's diff and
detail, its fold step and its public meaning (``registry.EventSpec``). Importing the
package registers them all."""

from __future__ import annotations
