// The JavaScript crossword engine (clients/js/crossword.js) under Node, for
// tests/test_crossword_js.py: one job per line on stdin, one answer per line on stdout (JSON).
// A job: {rules, dawg, leaves, calls: [[op, ...args], ...]}: the paths of the rules file, the
// lexicon's .dawg and the game's leave pack (.leaves.pack.gz, or null), and the calls to make
// on the game (loaded once per set of paths). An answer: per call {ok: value} or
// {error: [name, message]} for a BadInput or BadArtifact; moves come as move.toJSON() ("sample":
// every move's text, and some in full).

import {readFileSync} from "node:fs";
import {createInterface} from "node:readline";
import {gunzipSync} from "node:zlib";
import {CrosswordGame} from "../clients/js/crossword.js";
import {readLexicon} from "../clients/js/lexicon.js";
import {readLeavePack} from "../clients/js/leaves.js";
import {readRules} from "../clients/js/rules.js";

const games = new Map();

function game({rules, dawg, leaves}) {
  const key = JSON.stringify([rules, dawg, leaves]);
  if (!games.has(key)) {
    const loaded = new CrosswordGame(readRules(new Uint8Array(readFileSync(rules)), rules),
                                     readLexicon(new Uint8Array(readFileSync(dawg)), dawg));
    if (leaves) loaded.setLeaves(readLeavePack(new Uint8Array(gunzipSync(readFileSync(leaves))), leaves, loaded._r));
    games.set(key, loaded);
  }
  return games.get(key);
}

// Every move's text, and in full the first SAMPLE_HEAD and every SAMPLE_STEP-th.
const SAMPLE_HEAD = 50;
const SAMPLE_STEP = 7;

const CALLS = {
  moves: (g, board, rack, options) => g.moves(g.parseBoard(board), rack, options ?? {}),
  sample: (g, board, rack, options) => {
    const moves = g.moves(g.parseBoard(board), rack, options ?? {});
    return {texts: moves.map((move) => move.text),
            sample: moves.filter((_, i) => i < SAMPLE_HEAD || i % SAMPLE_STEP === 0)};
  },
  bestTurn: (g, board, rack, options) => g.bestTurn(g.parseBoard(board), rack, options ?? {}),
  score: (g, board, placed) => g.score(g.parseBoard(board), placed),
  validate: (g, board, placed, rack, options) => g.validate(g.parseBoard(board), placed, rack ?? null, options ?? {}),
  leave: (g, tiles) => g.leave(tiles),
  parseBoard: (g, text) => g.parseBoard(text).text(),
};

function answer(job) {
  let g;
  try {
    g = game(job);
  } catch (error) {
    if (error.name !== "BadArtifact") throw error;
    return job.calls.map(() => ({error: [error.name, error.message]}));
  }
  return job.calls.map(([op, ...args]) => {
    try {
      return {ok: JSON.parse(JSON.stringify(CALLS[op](g, ...args)) ?? "null")};
    } catch (error) {
      if (error.name !== "BadInput" && error.name !== "BadArtifact") throw error;
      return {error: [error.name, error.message]};
    }
  });
}

for await (const line of createInterface({input: process.stdin})) {
  process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + "\n");
}
