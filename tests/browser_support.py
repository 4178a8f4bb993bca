"""Headless Chromium for the browser tests: the system browser driven by Playwright.

`playwright install` cannot download browsers here, so Playwright launches the system one
(Debian's `chromium`, or $CHROMIUM_PATH). Without it (or without Playwright) the browser tests
are skipped, and the test run says so in its summary (conftest.py).
"""

import os
import shutil

import pytest

from lookup.web_server import start_server

BROWSER_SKIP_REASON = "no headless browser: install chromium (apt-get install chromium)"
# How long a wait for a condition may last before it fails. Only a failing test waits this
# long, so it is generous: on 2 cores busy with a build, a move list with a blank or a worker's
# first game load has taken over the default 30 s.
WAIT_MS = 120_000


def chromium_path() -> str | None:
    """The browser to launch: $CHROMIUM_PATH, else chromium on PATH, else None."""
    return os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") \
        or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium for the whole session (skips the test when there is none)."""
    path = chromium_path()
    try:
        from playwright.sync_api import sync_playwright
    except ModuleNotFoundError:
        pytest.skip(BROWSER_SKIP_REASON + " and playwright (pip install -e '.[test]')")
    if path is None:
        pytest.skip(BROWSER_SKIP_REASON)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield launched
        launched.close()


class Site:
    """A directory served on 127.0.0.1 and a page open in the browser at its root."""

    def __init__(self, browser, directory):
        """`browser`: a Playwright Browser or BrowserContext (anything with new_page)."""
        self.server = start_server(directory)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.page = browser.new_page()
        self.page.set_default_timeout(WAIT_MS)
        self.errors = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def open(self, path: str = "") -> None:
        """Load `path` (relative to the site root) in the page."""
        self.page.goto(self.url + path)

    def run(self, script: str, arg=None):
        """Await the body of an async JavaScript function with `arg`. The readers are imported
        as lex (lexicon.js) and guess (guessing.js); caught(f) is [name, message] of the error
        f() throws, or null."""
        return self.page.evaluate(
            "async (arg) => { const lex = await import('./js/lexicon.js');"
            " const guess = await import('./js/guessing.js');"
            " const caught = (f) => { try { f(); return null; }"
            " catch (error) { return [error.name, error.message]; } };" + script + "}", arg)

    def wait_text(self, selector: str, text: str = "", prefix: bool = False) -> str:
        """Wait until the element's text is `text` (starts with it when `prefix`; any non-empty
        text when `text` is empty) and return the text. Give `text` wherever the element may
        still show an earlier text: waiting for "any text" would return the stale one.

        Raises:
            AssertionError: the text did not come (the message shows what the page shows).
        """
        from playwright.sync_api import TimeoutError as PlaywrightTimeout  # a Site has playwright

        try:
            self.page.wait_for_function(
                "([selector, text, prefix]) => { const got = document.querySelector(selector)"
                "?.textContent ?? ''; return text ? (prefix ? got.startsWith(text) : got === text)"
                " : got !== ''; }", arg=[selector, text, prefix])
        except PlaywrightTimeout:
            shown = self.page.text_content(selector) if self.page.query_selector(selector) else None
            raise AssertionError(f"{selector} shows {shown!r}, not {text!r}") from None
        return self.page.text_content(selector)

    def bytes_fetched(self) -> int:
        """Bytes the page fetched so far (the document and every resource), before HTTP
        compression, from the browser's Resource Timing entries."""
        return self.page.evaluate(
            "() => [...performance.getEntriesByType('navigation'),"
            " ...performance.getEntriesByType('resource')]"
            ".reduce((sum, entry) => sum + entry.decodedBodySize, 0)")

    def close(self) -> None:
        """Close the page and stop the server."""
        self.page.close()
        self.server.shutdown()
        self.server.server_close()
