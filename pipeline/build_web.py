"""The static word-game helper site: artifacts/web/ (make web).

It copies the page (clients/web/), the JavaScript readers (clients/js/ -> js/) and the data
they read (-> data/): each lexicon's `.dawg` with a gzipped copy `.dawg.gz` (the page fetches
the copy and inflates it: 534 KB instead of 1.4 MB for ENABLE, whatever compression the web
server offers), each guessing game's descriptor, word lists and trees (not the feedback
matrices: the readers compute feedback), the crossword games' rules (tile scores and the move
finder) with their leave tables as leave packs (pipeline/build_web_leaves.py), and
data/catalog.json listing them. web-manifest.json gives the bytes and sha256 of every file,
and the files each page loads. Both are sealed JSON (docs/FORMATS.md "Seals"); what the site
copies is read through the checking readers first, so a damaged input stops the build.
"""

import gzip
import hashlib
import shutil
from pathlib import Path

from lookup.crossword.rules import load_rules
from lookup.errors import ArtifactMissing
from lookup.guessing.game import games_index
from lookup.headers import sealed_json
from lookup.paths import REPO_ROOT, built_names
from pipeline.atomic import atomic_output
from pipeline.build_web_leaves import PACK_SUFFIX, write_leave_pack

CLIENT_JS = REPO_ROOT / "clients" / "js"
CLIENT_PAGE = REPO_ROOT / "clients" / "web"
CATALOG_FORMAT = "web-catalog"
MANIFEST_FORMAT = "web-manifest"
# Version 2: catalog.json and web-manifest.json are sealed.
WEB_VERSION = 2
GAME_FILES = ("game.json", "answers.txt", "guesses.txt", "tree.msgpack", "hard.tree.msgpack")
# The move finder's engine (clients/js/crossword.js) and its data: the lexicon's DAWG, and the
# leave pack it fetches after them, for equity (docs/FORMATS.md, "The move finder's data").
MOVE_FINDER_FILES = ["js/lexicon.js", "js/leaves.js", "js/msgpack.js", "js/rules.js",
                     "data/enable.dawg.gz", "data/crossword/scrabble-en.leaves.pack.gz"]
# What each page loads (tests/test_web.py checks each list against what the page fetches):
# the shell (index.html, style.css, app.js and the modules it imports), then per view its code
# and data. The word finder reads ENABLE with Scrabble tile scores (at most 600 KB:
# tests/test_web.py); the Wordle helper and the move finder ask the page's worker (worker.js),
# which imports their reader; the move finder shown is scrabble-en's.
PAGE_SHELL = ["index.html", "style.css", "app.js", "remote.js", "js/errors.js", "js/files.js"]
PAGE_WORKER = ["worker.js"]
PAGE_FILES = {
    "words": PAGE_SHELL + ["js/lexicon.js", "js/rules.js", "data/catalog.json",
                           "data/enable.dawg.gz", "data/crossword/scrabble-en.json"],
    "guess": PAGE_SHELL + PAGE_WORKER + ["js/guessing.js", "js/msgpack.js", "data/catalog.json"]
    + [f"data/wordle-en.{name}" for name in GAME_FILES],
    "moves": PAGE_SHELL + PAGE_WORKER + ["moves.js", "js/crossword.js", "data/catalog.json",
                                         "data/crossword/scrabble-en.json"] + MOVE_FINDER_FILES,
}


def _copy(source: Path, target: Path) -> None:
    with atomic_output(target) as out:
        out.write(source.read_bytes())


def _write_json(target: Path, data) -> None:
    with atomic_output(target) as out:
        out.write(sealed_json(data))


def build_web(artifacts, output) -> dict:
    """Write the site into `output` from the built `artifacts`; return its manifest.

    Raises:
        ArtifactMissing: no lexicon or no guessing game is built.
    """
    artifacts, output = Path(artifacts), Path(output)
    lexicons = built_names(artifacts / "lexicons", ".dawg")
    games = games_index(artifacts / "guessing")
    if not lexicons or not games:
        raise ArtifactMissing(f"{artifacts}: the site needs the lexicons and guessing games; "
                              "run `make lexicons guessing` first")
    if output.exists():
        shutil.rmtree(output)
    data = output / "data"
    for source in sorted(CLIENT_PAGE.iterdir()):
        _copy(source, output / source.name)
    for source in sorted(CLIENT_JS.glob("*.js")):
        _copy(source, output / "js" / source.name)
    for name in lexicons:
        dawg = artifacts / "lexicons" / f"{name}.dawg"
        _copy(dawg, data / dawg.name)
        with atomic_output(data / f"{dawg.name}.gz") as out:
            out.write(gzip.compress(dawg.read_bytes(), compresslevel=9, mtime=0))
    for game in games:
        for name in GAME_FILES:
            source = artifacts / "guessing" / f"{game}.{name}"
            if source.is_file():  # a game may be built without its trees
                _copy(source, data / source.name)
    crossword = {}
    for game in built_names(artifacts / "crossword", ".json"):
        rules = load_rules(artifacts / "crossword" / f"{game}.json")
        if rules.lexicon in lexicons:
            _copy(artifacts / "crossword" / f"{game}.json", data / "crossword" / f"{game}.json")
            leaves = artifacts / "leaves" / f"{game}.leaves"
            if leaves.is_file():  # equity needs it; the moves by score do not
                write_leave_pack(leaves, data / "crossword" / f"{game}{PACK_SUFFIX}")
            crossword[game] = {"name": rules.name, "lexicon": rules.lexicon}
    _write_json(data / "catalog.json", {
        "format": CATALOG_FORMAT, "version": WEB_VERSION, "lexicons": lexicons,
        "guessing": games, "crossword": crossword,
    })
    manifest = web_manifest(output)
    _write_json(output / "web-manifest.json", manifest)
    return manifest


def web_manifest(site: Path) -> dict:
    """Bytes, gzip bytes and sha256 of every file of the site, and what each page loads."""
    files = {}
    for path in sorted(p for p in site.rglob("*") if p.is_file() and p.name != "web-manifest.json"):
        content = path.read_bytes()
        files[path.relative_to(site).as_posix()] = {
            "bytes": len(content),
            "gzip_bytes": len(gzip.compress(content, compresslevel=9, mtime=0)),
            "sha256": hashlib.sha256(content).hexdigest(),
        }
    pages = {}
    for page, needs in PAGE_FILES.items():
        loaded = [f for f in needs if f in files]
        pages[page] = {"files": loaded, "bytes": sum(files[f]["bytes"] for f in loaded),
                       "gzip_bytes": sum(files[f]["gzip_bytes"] for f in loaded)}
    return {"format": MANIFEST_FORMAT, "version": WEB_VERSION, "files": files, "pages": pages}
