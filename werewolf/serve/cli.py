"""The ``werewolf serve`` command: checks the extra is installed, binds 127.0.0.1, prints
the URL and runs the app (``app.make_app``) under uvicorn until Ctrl-C."""

from __future__ import annotations

import argparse
import errno
import socket
import sys
from pathlib import Path
from typing import Any

from ..argtypes import DEFAULT_STORE, int_in
from ..errors import ConfigError

__all__ = ["HOST", "add_serve", "bind"]

HOST = "127.0.0.1"  # local only: the app shows hidden roles and reasoning to whoever connects


def bind(port: int) -> socket.socket:
    """A listening socket on ``HOST:port`` (0: a free port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(
                [("--port", f"{port} is in use: choose another (--port 0 picks a free one)")]
            ) from None
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from .app import ServeConfig, make_app
    except ImportError:
        raise ConfigError(
            [("serve", "needs the serve extra: pip install 'pulse-werewolf[serve]'")]
        ) from None
    app = make_app(ServeConfig(args.store, god=args.god))
    sock = bind(args.port)
    port = sock.getsockname()[1]
    where = "" if args.store.is_file() else " (no games yet: play one and reload)"
    sys.stderr.write(
        f"werewolf: serving {args.store} read-only{where} at http://{HOST}:{port}/ "
        f"({'every view of every game' if args.god else 'live games in the public view'}); "
        "Ctrl-C stops\n"
    )
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1, lifespan="on")
    )
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # Ctrl-C is how a server stops: uvicorn shut down cleanly, then re-raised it
    finally:
        sock.close()
    sys.stderr.write("werewolf: stopped\n")
    return 0


def add_serve(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="browse the games of a store in a local web app, and follow games live",
        description="A local web app over the store, read-only, on 127.0.0.1: the games "
        "(filtered by board, winner, arena run, date), each in the interactive replay "
        "viewer, games in progress followed live, and the arena reports with charts.",
    )
    parser.add_argument(
        "--store",
        type=Path,
        default=DEFAULT_STORE,
        metavar="PATH",
        help=f"the SQLite event store (default: {DEFAULT_STORE})",
    )
    parser.add_argument(
        "--port",
        type=int_in(0, 65535),
        default=8765,
        metavar="N",
        help="the port (default 8765; 0: any free)",
    )
    parser.add_argument(
        "--god",
        action="store_true",
        help="open games in progress in the god and seat views too (never with a human at the table)",
    )
    parser.set_defaults(run=run_serve)
