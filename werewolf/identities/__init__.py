"""The identities, one module each: everything particular to one identity, declared in its
``SPEC`` (``registry.IdentitySpec``): its names, team, night step or day step, decisions
and their tools, rules line, prompt file, mock strategy, phase roles and events.

Importing this package registers them all (``registry._load`` does it on first use). The
modules import the phase machinery; the rules and the state never import them, so
importing those loads no phase role and no player. docs/architecture.md ("Adding an
identity") walks through adding one.
"""

from __future__ import annotations

import importlib
import pkgutil

# every module of the package is an identity (or a helper they share): a new identity is a
# new module here, with no list to edit
for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
