"""The static site of `make web` over HTTP on 127.0.0.1 (standard library only): what the
browser tests load it from (tests/browser_support.py). `wordpack serve` serves the site with the
JSON API (service/).

Browsers refuse ES modules from file:// pages, so the site needs a server; any static one works,
this one needs nothing installed.
"""

import functools
import http.server
import sys
import threading
from pathlib import Path

from lookup.errors import ArtifactMissing
from lookup.paths import artifacts_dir


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files; no log line per request. `.gz` files go out as they are (no
    Content-Encoding): the readers inflate them.
    """

    def log_message(self, format, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    """A client that goes away before its answer is sent (a page closed while it loads) is
    not an error worth a traceback on stderr; anything else is reported as usual.
    """

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def web_dir() -> Path:
    """Where `make web` writes the site: <artifacts>/web."""
    return artifacts_dir() / "web"


def start_server(directory, port: int = 0) -> http.server.ThreadingHTTPServer:
    """Serve `directory` on 127.0.0.1:`port` (0: any free port) from a background thread.

    Returns:
        The server; its address is server.server_address, server.shutdown() stops it.

    Raises:
        ArtifactMissing: the directory has no index.html.
    """
    directory = Path(directory)
    if not (directory / "index.html").is_file():
        raise ArtifactMissing(f"{directory}/index.html is missing: run `make web`")
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = _Server(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
