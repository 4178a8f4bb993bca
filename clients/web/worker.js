// The page's module worker: the work that can take long (a crossword position's moves, a guessing
// game's ranking once a history leaves the decision tree: 1-2 s for Nerdle) runs here, so the
// page keeps answering clicks and keys meanwhile. remote.js is the page's side.
//
// A request is {id, op, args}; the answer {id, result} or {id, error: {name, message, field,
// turn, url}} (a BadInput or BadArtifact keeps its name, so the page shows it as it would its
// own). The page loads a game first ("*.load", answered when its files are in, other requests
// going on meanwhile), then asks its searches, which run to their end once started: remote.js
// keeps at most one search of each kind waiting behind the one running. A reader module is imported on first use, so a page that asks only
// guessing questions never fetches the crossword engine.

const DATA = new URL("data/", self.location.href);
const ANSWERS_SHOWN = 100;
const loaded = new Map();

function cached(key, load) {
  if (!loaded.has(key)) loaded.set(key, load().catch((error) => { loaded.delete(key); throw error; }));
  return loaded.get(key);
}

const guessingGame = (id) => cached(`guess:${id}`, async () =>
  (await import("./js/guessing.js")).loadGuessingGame(DATA, id));

const crosswordGame = (id) => cached(`crossword:${id}`, async () =>
  (await import("./js/crossword.js")).loadCrosswordGame(DATA, id));

const OPS = {
  /** Load a guessing game (its lists and trees). */
  async "guess.load"({game}) {
    await guessingGame(game);
    return true;
  },

  /** A guessing game's figures and the answers still possible after `history`. */
  async "guess.state"({game, history, hard}) {
    const g = await guessingGame(game);
    const left = g.candidates(history, {hard});
    return {name: g.name, length: g.length, answers: g.answers.length, guesses: g.guesses.length,
            left: left.slice(0, ANSWERS_SHOWN), leftCount: left.length};
  },

  /** The guess to play next (the tree's, else the best ranked: the slow part). */
  async "guess.next"({game, history, hard}) {
    return (await guessingGame(game)).nextGuess(history, {hard});
  },

  /** `text` as an allowed guess of the game (trimmed, lower case), or BadInput. */
  async "guess.word"({game, text}) {
    const g = await guessingGame(game);
    return {word: g.guesses[g.guessNumber(text)], length: g.length};
  },

  /** Load a crossword game (its rules and word graph). */
  async "crossword.load"({game}) {
    await crosswordGame(game);
    return true;
  },

  /** Wait for the game's leave table (loadCrosswordGame fetches it after the rest). */
  async "crossword.leaves"({game}) {
    await (await crosswordGame(game)).loadLeaves();
    return true;
  },

  /** A board in the text format, checked by the game (BadInput when it cannot occur). */
  async "crossword.parse"({game, text}) {
    const g = await crosswordGame(game);
    g.parseBoard(text);
    return true;
  },

  /**
   * "Score my own play": {reasons, score} of new tiles `placed` ([[row, col, letter, isBlank]])
   * on `board`: why they are no legal play with `rack` ([] when legal), and their score by the
   * rules whatever the lexicon says (null when they form no shape to score).
   */
  async "crossword.check"({game, board, placed, rack}) {
    const g = await crosswordGame(game);
    const position = g.parseBoard(board);
    const reasons = g.validate(position, placed, rack || null);
    let score = null;
    try {
      score = g.score(position, placed);
    } catch (error) {
      if (error.name !== "BadInput") throw error;
    }
    return {reasons, score};
  },

  /**
   * The best moves of a position: {moves, by, turn, ms}, each move as plain data (toJSON).
   * By equity before the leave table has arrived, the moves come by score (`by` says which);
   * `turn` is the best greedy turn of a game whose turns may form words in several lines
   * (Erudit), else null.
   */
  async "crossword.moves"({game, board, rack, by, top}) {
    const g = await crosswordGame(game);
    const started = performance.now();
    const position = g.parseBoard(board);
    const rankBy = by === "equity" && !g.hasLeaves ? "score" : by;
    const moves = g.moves(position, rack, {top, by: rankBy}).map((move) => move.toJSON());
    const turn = g.rules.placement === "multi" ? g.bestTurn(position, rack, {method: "greedy"}) : null;
    return {moves, by: rankBy, turn: turn?.toJSON() ?? null, ms: performance.now() - started};
  },
};

self.onmessage = async ({data: {id, op, args}}) => {
  try {
    if (!Object.hasOwn(OPS, op)) throw new Error(`the worker has no operation ${JSON.stringify(op)}`);
    self.postMessage({id, result: await OPS[op](args)});
  } catch (error) {
    self.postMessage({id, error: {name: error?.name ?? "Error", message: error?.message ?? String(error),
                                  field: error?.field, turn: error?.turn, url: error?.url}});
  }
};
