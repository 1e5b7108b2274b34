"""The ``werewolf serve`` command: checks the extra is installed, binds 127.0.0.1, prints
the URL and runs the app (``app.make_app``) under uvicorn until Ctrl-C."""

from __future__ import annotations

import argparse
import errno
import socket
import sys
from pathlib import Path
from typing import Any

from pulse_core.limits import clip

from ..argtypes import STORE_HELP, default_store, int_in, number_in
from ..errors import ConfigError
from ..storefaults import open_store

__all__ = ["HOST", "IDLE_TIMEOUT_S", "MAX_CONNECTIONS", "add_serve", "bind"]

IDLE_TIMEOUT_S = 10.0  # a browser on this machine sends its request at once
MAX_CONNECTIONS = 200  # far beyond one person's tabs and live streams
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


def check_store(path: Path) -> None:
    """Open an existing ``path`` read-only once: a folder, a pipe or another program's
    file is refused at start (``pulse_core`` says which), with nothing written to it, and
    a full disk or a damaged file in the one line every other command gives."""
    try:
        path.stat()
    except OSError as exc:  # a symlink loop, a name too long: never a store to serve
        if not isinstance(exc, FileNotFoundError | NotADirectoryError):
            raise ConfigError([("--store", f"{clip(path, 300)}: {exc.strerror}")]) from None
    if path.exists():
        open_store(path, read_only=True).close()


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from .app import ServeConfig, make_app
        from .connections import server_options
    except ImportError:
        raise ConfigError(
            [("serve", "needs the serve extra: pip install 'pulse-werewolf[serve]'")]
        ) from None
    check_store(args.store)  # a file that is not a store is refused, not served
    app = make_app(ServeConfig(args.store, god=args.god))
    sock = bind(args.port)
    port = sock.getsockname()[1]
    where = "" if args.store.is_file() else " (no games yet: play one and reload)"
    sys.stderr.write(
        f"werewolf: serving {args.store} read-only{where} at http://{HOST}:{port}/ "
        f"({'every view of every game' if args.god else 'live games in the public view'}); "
        "Ctrl-C stops\n"
    )
    options = server_options(args.idle_timeout, args.max_connections)
    server = uvicorn.Server(
        uvicorn.Config(
            app, log_level="warning", timeout_graceful_shutdown=1, lifespan="on", **options
        )
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
        default=default_store(),
        metavar="PATH",
        help=f"the SQLite event store (default: {STORE_HELP})",
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
    parser.add_argument(
        "--idle-timeout",
        type=number_in(3600, "seconds"),
        default=IDLE_TIMEOUT_S,
        metavar="SECONDS",
        help="close a connection that has not sent a whole request within this time "
        f"(default {IDLE_TIMEOUT_S:g})",
    )
    parser.add_argument(
        "--max-connections",
        type=int_in(1, 100_000),
        default=MAX_CONNECTIONS,
        metavar="N",
        help=f"open connections at most (default {MAX_CONNECTIONS}; fewer if the "
        "descriptor limit is low); over it the longest idle one is closed",
    )
    parser.set_defaults(run=run_serve)
