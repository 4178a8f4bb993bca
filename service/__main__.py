"""`python -m service` (what `wordpack serve` runs): the JSON API and the page on uvicorn.

Usage: python -m service [--host 127.0.0.1] [--port 8000] [--workers N] [--budget S] [--open]

uvicorn (ASGI, with uvloop and httptools) runs `service.app:create_app` in --workers processes
that share one listening socket, bound here first so that the line printed names the real port
(--port 0: any free one). Each worker maps the artifacts (the page cache holds one copy for all
of them) and warms up before it accepts a connection; the artifacts are read here first, so
a missing or stale one stops the start with one line. SIGINT or SIGTERM stops the workers
gracefully: each stops accepting, finishes its requests (at most GRACE_SECONDS), and exits.
"""

import argparse
import os
import socket
import sys
import threading
import time
import urllib.request
import webbrowser

import uvicorn
from uvicorn.supervisors import Multiprocess

from lookup.cli import positive_float
from lookup.errors import WordpackError
from service.app import BUDGET_VARIABLE, DEFAULT_BUDGET, create_app

GRACE_SECONDS = 10
# --open: how often and how long to ask whether a worker answers before opening the browser.
READY_POLL_SECONDS = 0.1
READY_WAIT_SECONDS = 120


def build_parser() -> argparse.ArgumentParser:
    """The options of `python -m service` (`wordpack serve` passes its own through)."""
    parser = argparse.ArgumentParser(prog="python -m service",
                                     description="Serve the JSON API (/api/) and the web page.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (8000; 0: any free one)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="worker processes (one per core)")
    parser.add_argument("--budget", type=positive_float, default=DEFAULT_BUDGET,
                        help=f"seconds one query may compute before a 503 ({DEFAULT_BUDGET:g})")
    parser.add_argument("--open", action="store_true", help="open the page in the web browser")
    return parser


def listen_socket(host: str, port: int) -> socket.socket:
    """The socket every worker accepts on, bound (uvicorn's workers listen on it).

    Raises:
        SystemExit: the address cannot be bound (one line on stderr, status 1).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        print(f"error: cannot listen on {host}:{port}: {error.strerror}; pick another --port "
              "or --host", file=sys.stderr)
        raise SystemExit(1) from None
    sock.set_inheritable(True)
    return sock


def open_when_ready(url: str) -> None:
    """Open `url` in the browser once the API answers (a worker has warmed up)."""
    deadline = time.monotonic() + READY_WAIT_SECONDS
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}api/health", timeout=READY_POLL_SECONDS * 10):
                webbrowser.open(url)
                return
        except OSError:
            time.sleep(READY_POLL_SECONDS)


def main(argv: list[str] | None = None) -> None:
    """Bind, print the address, and run the workers until SIGINT or SIGTERM."""
    args = build_parser().parse_args(argv)
    if args.workers < 1:
        build_parser().error(f"--workers must be at least 1, not {args.workers}")
    try:  # a missing or stale artifact stops the start with one line (workers would die)
        create_app(args.budget, warm=False)
    except WordpackError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(1) from None
    os.environ[BUDGET_VARIABLE] = str(args.budget)  # the workers read it (spawned processes)
    config = uvicorn.Config("service.app:create_app", factory=True, host=args.host,
                            port=args.port, workers=args.workers, loop="uvloop",
                            http="httptools", lifespan="on", log_level="warning",
                            access_log=False, timeout_graceful_shutdown=GRACE_SECONDS)
    sock = listen_socket(args.host, args.port)
    host, port = sock.getsockname()[:2]
    url = f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"
    print(f"serving {url} (the JSON API under {url}api/) with {args.workers} worker"
          f"{'s' if args.workers > 1 else ''}; Ctrl-C stops", flush=True)
    if args.open:
        threading.Thread(target=open_when_ready, args=(url,), daemon=True).start()
    if args.workers > 1:
        Multiprocess(config, sockets=[sock]).run()
    else:
        uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
