"""Crossword stage: validate a game's rules file and compile it into artifacts/crossword/<id>.json.

Reads config/crossword/<id>.toml (board premiums as a grid of tokens, tile counts and values,
blanks, rack size, bingo, exchange and end rules, lexicon and word length limits, and the
provenance of each fact), checks it with lookup.crossword.rules.rules_from_dict (the same
checks the runtime applies when it reads the artifact), and writes the JSON rules file that
lookup/crossword/rules.py reads (format in its docstring and docs/FORMATS.md). The output is
deterministic: keys sorted, no timestamps.

Usage: wordpack-build crossword config/crossword/ID.toml -o artifacts/crossword/ID.json
"""

import tomllib
from pathlib import Path

from lookup.crossword.rules import Rules, rules_from_dict
from lookup.errors import BadInput
from lookup.formats import CROSSWORD_RULES_FORMAT, CROSSWORD_RULES_VERSION, sha256_file
from lookup.headers import sealed_json
from pipeline.atomic import atomic_output
from pipeline.provenance import record


def read_rules(config) -> Rules:
    """Parse and validate a rules config file (its id must be its file name).

    Raises:
        BadInput: not TOML, or rules that do not pass rules_from_dict.
    """
    config = Path(config)
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise BadInput(f"{config}: not a TOML file ({error})") from None
    rules = rules_from_dict(data, str(config))
    if rules.id != config.stem:
        raise BadInput(f"{config}: id {rules.id!r} differs from the file name {config.stem!r}")
    return rules


def rules_json(rules: Rules, config_sha256: str) -> bytes:
    """The artifact's bytes: the rules plus format, version and the config's sha256, sealed."""
    data = rules.to_dict()
    data.update(format=CROSSWORD_RULES_FORMAT, version=CROSSWORD_RULES_VERSION,
                config_sha256=config_sha256)
    return sealed_json(data)


def build_crossword(config, output) -> Rules:
    """Validate `config` and write its compiled rules to `output` (with provenance)."""
    rules = read_rules(config)
    data = rules_json(rules, sha256_file(config))
    with atomic_output(output) as handle:
        handle.write(data)
    record(output, format=CROSSWORD_RULES_FORMAT, version=CROSSWORD_RULES_VERSION, inputs=[config])
    return rules
