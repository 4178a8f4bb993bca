"""Lexicon stage: normalize a committed source list into artifacts/lexicons/<name>.txt.

Builds the sorted, deduplicated word list that every word-graph file of a lexicon is compiled
from, following the rules of its table in config/lexicons.toml (documented at the top of that
file). The output is UTF-8, one word per line, "\\n"-terminated, sorted by code point.

Usage: wordpack-build lexicon NAME --config config/lexicons.toml -o artifacts/lexicons/NAME.txt
"""

import tomllib
import unicodedata
from pathlib import Path

from lookup.errors import UnknownName
from lookup.formats import LEXICON_LIST_FORMAT, LEXICON_LIST_VERSION
from pipeline.atomic import atomic_output
from pipeline.provenance import record


def load_config(config_path, name: str) -> dict:
    """The table of lexicon `name` in the lexicon config file."""
    with open(config_path, "rb") as handle:
        tables = tomllib.load(handle)
    if name not in tables:
        known = ", ".join(sorted(tables))
        raise UnknownName(f"no lexicon {name!r} in {config_path} (known: {known})")
    return tables[name]


def normalize_entry(entry: str, config: dict) -> str | None:
    """The normalized word for one source entry, or None if the entry is not kept."""
    entry = unicodedata.normalize("NFC", entry.strip())
    if not entry:
        return None
    if not config.get("keep_capitalized", True) and any(ch.isupper() for ch in entry):
        return None
    if config.get("drop_all_caps", False) and len(entry) > 1 and entry.isupper():
        return None
    alphabet = config["alphabet"]
    word = entry.lower()
    for before, after in config.get("fold", {}).items():
        word = word.replace(before, after)
    if config.get("strip_diacritics", False):
        word = "".join(
            ch
            if ch in alphabet
            else "".join(c for c in unicodedata.normalize("NFD", ch)
                         if not unicodedata.combining(c))
            for ch in word
        )
    if not config.get("min_length", 1) <= len(word) <= config.get("max_length", 63):
        return None
    if any(ch not in alphabet for ch in word):
        return None
    return word


def normalize(entries, config: dict) -> list[str]:
    """Normalize, deduplicate and sort source entries per a lexicon config table."""
    words = {normalize_entry(entry, config) for entry in entries}
    words.discard(None)
    return sorted(words)


def build_lexicon(name: str, config_path, sources_dir, output) -> int:
    """Write the normalized list of lexicon `name`; returns the number of words."""
    config = load_config(config_path, name)
    source = Path(sources_dir) / f"{config['source']}.txt"
    words = normalize(source.read_text(encoding="utf-8").splitlines(), config)
    with atomic_output(output, "w") as handle:
        handle.write("".join(word + "\n" for word in words))
    record(output, format=LEXICON_LIST_FORMAT, version=LEXICON_LIST_VERSION,
           inputs=[source, config_path])
    return len(words)
