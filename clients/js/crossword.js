// Crossword games (Scrabble, Wordfeud, Erudit) in the browser or Node: every legal move of a
// position from the shipped files, in the order and with the scores of lookup/crossword/game.py.
//
//   const game = await loadCrosswordGame("data/", "scrabble-en");
//   const board = game.parseBoard(text);              // 15 lines: '.', lowercase tile, UPPER blank
//   game.moves(board, "abfloo?", {top: 20});          // by score; {by: "equity", bag: 86}
//   game.bestTurn(board, rack, {method: "greedy"});   // Erudit: several words in one turn
//   game.score(board, placed); game.validate(board, placed, rack); game.leave("?s");
//
// The files (docs/FORMATS.md): the rules `crossword/<id>.json`, the lexicon's packed DAWG
// `<lexicon>.dawg.gz` (read by lexicon.js) and, for equity only, the leave pack
// `crossword/<id>.leaves.pack.gz` (leaves.js), fetched in the background after the rest:
// ranking by score never waits for it.
//
// Moves are found with Appel and Jacobson's algorithm on the DAWG ("The world's fastest Scrabble
// program", CACM 31(5), 1988): for each anchor (an empty square next to a tile), every left
// part the rack spells on the empty squares left of it that are no anchors, then extend right
// through the anchor along the DAWG, cross-checks (the letters whose perpendicular word is a
// word) limiting each square. A blank is placed only for a letter the rack lacks; `record`
// lists every other choice of which new tiles are blanks. Python walks a GADDAG
// (lookup/crossword/movegen.py): the two walks find the same placements, and the list is
// sorted by the same key (score, direction, line, start, tile codes, blank bits), so it equals
// Python's line for line. Why a DAWG and not the GADDAG: docs/FORMATS.md ("The move finder's
// data").
//
// Codes are the game's (lookup/crossword/board.py): k is alphabet[k - 1], k | 0x40 a blank
// standing for it, 0 an empty square; the DAWG's letters are mapped onto them at load (both
// alphabets are in code point order, so the order of codes is the same in both).

import {BadArtifact, BadInput} from "./errors.js";
import {checkHeader, fetchBytes} from "./files.js";
import {readLexicon} from "./lexicon.js";
import {loadLeavePack} from "./leaves.js";
import {REBUILD_RULES, RULES_FORMAT, RULES_VERSION, fetchRules} from "./rules.js";

const BLANK = 0x40;
const LETTER_MASK = 0x3f;
const BLANK_SYMBOL = "?";
const EMPTY_SQUARE = ".";
const ACROSS = 0;
const DOWN = 1;
const DIRECTIONS = ["H", "V"];
const STEPS = {H: [0, 1], V: [1, 0]};
// Premium tokens of a rules file: [letter multiplier, word multiplier].
const PREMIUMS = {".": [1, 1], "DL": [2, 1], "TL": [3, 1], "DW": [1, 2], "TW": [1, 3]};
const PLACEMENTS = ["line", "multi"];
const NO_CROSS_WORD = -1;
// Letters are bits of one 32-bit mask (bit k - 1 for code k).
const MAX_LETTERS = 32;
// The DAWG's transitions are a dense table: 32 slots per node.
const SLOT_SHIFT = 5;
// What keeping tiles costs with the bag empty, beyond twice their value (lookup/crossword/equity.py).
const END_KEEP_PENALTY = 10;
const METHODS = ["greedy", "full"];

// --- Python's text conventions (the messages quote as Python's do) -----------------------------
// str.split() and str.strip() whitespace; str.splitlines() line breaks.
const PY_SPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/gu;
const PY_LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/u;
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u;

function squeeze(text) {
  return text.replace(PY_SPACE, "");
}

/** Python's repr() of a string: the quotes and escapes of the messages of lookup/. */
export function pyRepr(text) {
  const s = String(text);
  const mark = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = mark;
  for (const ch of s) {
    if (ch === mark || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (NOT_PRINTABLE.test(ch)) {
      const cp = ch.codePointAt(0);
      out += cp < 0x100 ? "\\x" + cp.toString(16).padStart(2, "0")
        : cp < 0x10000 ? "\\u" + cp.toString(16).padStart(4, "0")
          : "\\U" + cp.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return out + mark;
}

function isLetter(ch) {
  return /^\p{L}$/u.test(ch);
}

/** Python's round(x, 4) of n / denominator (exact integers): half to even, as a double. */
function round4(n, denominator) {
  const scaled = n * 10000;
  let q = Math.floor(scaled / denominator);
  let r = scaled - q * denominator;
  if (r < 0) { q -= 1; r += denominator; } else if (r >= denominator) { q += 1; r -= denominator; }
  if (2 * r > denominator || (2 * r === denominator && q % 2 !== 0)) q += 1;
  return q / 10000;
}

// --- rules ------------------------------------------------------------------------------------
/**
 * Check a rules file's content (docs/FORMATS.md, "Rules file") and derive what the engine needs.
 * @throws {BadArtifact} another format or version, or content the Python reader would refuse
 */
function deriveRules(data, url) {
  checkHeader(data, url, RULES_FORMAT, RULES_VERSION, {
    id: "string", name: "string", lexicon: "string", alphabet: "string", tiles: "object",
    rack_size: "number", bingo: "number", exchange_min_bag: "number", min_word_length: "number",
    max_word_length: "number", placement: "string", repeat_words: "boolean",
  });
  const bad = (problem) => new BadArtifact(String(url), problem, REBUILD_RULES);
  const letters = [...data.alphabet];
  if (!letters.length || letters.length > MAX_LETTERS) {
    throw bad(`its alphabet has ${letters.length} letters; the move finder takes 1 to ${MAX_LETTERS}`);
  }
  const counts = [0];
  const values = [0];
  for (const [letter, entry] of Object.entries(data.tiles)) {
    if (!Array.isArray(entry) || entry.length !== 2 || !entry.every(Number.isInteger) ||
        entry[0] < 1 || entry[1] < 0) {
      throw bad(`tiles.${letter} must be [count >= 1, value >= 0]`);
    }
    if (letter !== BLANK_SYMBOL && !letters.includes(letter)) throw bad(`tile ${pyRepr(letter)} is not in its alphabet`);
  }
  const sorted = [...letters].sort((a, b) => a.codePointAt(0) - b.codePointAt(0));
  if (sorted.join("") !== letters.join("") || new Set(letters).size !== letters.length ||
      letters.some((letter) => !data.tiles[letter])) {
    throw bad("its alphabet is not its tile letters in code point order");
  }
  const blanks = data.tiles[BLANK_SYMBOL] ? data.tiles[BLANK_SYMBOL][0] : 0;
  if (data.tiles[BLANK_SYMBOL] && data.tiles[BLANK_SYMBOL][1] !== 0) throw bad("its blank is not worth 0");
  counts[0] = blanks;
  for (const letter of letters) {
    counts.push(data.tiles[letter][0]);
    values.push(data.tiles[letter][1]);
  }
  if (!Array.isArray(data.board) || !Array.isArray(data.start) || data.start.length !== 2) {
    throw bad("board must be a list of rows and start [row, col]");
  }
  const size = data.board.length;
  const letterMult = [];
  const wordMult = [];
  data.board.forEach((row, r) => {
    const tokens = String(row).split(" ").filter((token) => token);
    if (tokens.length !== size) throw bad(`board row ${r} has ${tokens.length} squares; need ${size}`);
    for (const token of tokens) {
      if (!(token in PREMIUMS)) throw bad(`board row ${r}: unknown premium ${pyRepr(token)}`);
      letterMult.push(PREMIUMS[token][0]);
      wordMult.push(PREMIUMS[token][1]);
    }
  });
  const [startRow, startCol] = data.start;
  if (size < 2 || !(startRow >= 0 && startRow < size && startCol >= 0 && startCol < size)) {
    throw bad("its start square is off its board");
  }
  if (!(data.min_word_length >= 2 && data.min_word_length <= data.max_word_length &&
        data.max_word_length <= size) || !(data.rack_size >= 1 && data.rack_size <= size) ||
      !PLACEMENTS.includes(data.placement)) {
    throw bad("its word lengths, rack size or placement are out of range");
  }
  return {
    id: data.id, letters, counts, values, blanks, size, letterMult, wordMult,
    start: startRow * size + startCol, startRow, startCol, rackSize: data.rack_size,
    bingo: data.bingo, exchangeMinBag: data.exchange_min_bag, minLength: data.min_word_length,
    maxLength: data.max_word_length, placement: data.placement, repeatWords: data.repeat_words,
    total: counts.reduce((sum, n) => sum + n, 0),
  };
}

// --- the DAWG as a dense transition table ---------------------------------------------------------
/**
 * The lexicon's DAWG in the game's codes: node 0 has no arcs, the root is node 1; the arc of
 * code t from node s is next[s * 32 + t - 1]: 0 when there is none, else child * 2 + accepts
 * (child 0 when the arc ends every word through it). mask[s] has bit t - 1 for each arc.
 */
function denseGraph(lexicon, letters, url) {
  const missing = letters.filter((letter) => !lexicon.tile.has(letter));
  if (missing.length) {
    throw new BadArtifact(String(url), `its alphabet lacks ${pyRepr(missing.join(""))} of the game`,
                          "rebuild it with `make lexicons web`");
  }
  const toGame = new Int32Array(lexicon.alphabet.length + 1);
  letters.forEach((letter, k) => { toGame[lexicon.tile.get(letter)] = k + 1; });
  // Number the nodes breadth first (a node is the arc index of its first arc).
  const arcCount = lexicon.words.length / lexicon.stride;
  const id = new Int32Array(arcCount + 1);
  const order = [0];
  if (lexicon.root) {
    id[lexicon.root] = 1;
    order.push(lexicon.root);
  }
  for (let k = 1; k < order.length; k++) {
    for (let p = order[k]; ; p++) {
      const arc = lexicon.arc(p);
      const child = arc >>> 8;
      if (child && !id[child]) {
        id[child] = order.length;
        order.push(child);
      }
      if (arc & 0x80) break;
    }
  }
  const next = new Int32Array(order.length << SLOT_SHIFT);
  const mask = new Int32Array(order.length);
  for (let s = 1; s < order.length; s++) {
    for (let p = order[s]; ; p++) {
      const arc = lexicon.arc(p);
      const code = toGame[arc & LETTER_MASK];
      if (code) {
        next[(s << SLOT_SHIFT) + code - 1] = (id[arc >>> 8] << 1) | (arc & 0x40 ? 1 : 0);
        mask[s] |= 1 << (code - 1);
      }
      if (arc & 0x80) break;
    }
  }
  return {next, mask, root: lexicon.root ? 1 : 0};
}

// --- boards -------------------------------------------------------------------------------------
/** Tiles on a board (immutable): `cells` holds one code per square, row-major. */
export class Board {
  constructor(size, letters, cells) {
    /** Squares per side. */
    this.size = size;
    /** The game's letters: code k is letters[k - 1]. */
    this.letters = letters;
    /** size * size codes: 0 empty, k a tile, k | 0x40 a blank standing for letter k. */
    this.cells = cells;
    Object.freeze(this);
  }

  /** The letter at (row, col), lowercase even for a blank; "" when empty. */
  letter(row, col) {
    const code = this.cells[row * this.size + col];
    return code ? this.letters[(code & LETTER_MASK) - 1] : "";
  }

  /** Whether (row, col) holds a blank. */
  isBlank(row, col) {
    return (this.cells[row * this.size + col] & BLANK) !== 0;
  }

  /** Whether no tile is on the board. */
  isEmpty() {
    return this.cells.every((code) => !code);
  }

  /** Every tile as [row, col, letter, isBlank], row by row. */
  tiles() {
    const found = [];
    this.cells.forEach((code, index) => {
      if (code) {
        found.push([Math.floor(index / this.size), index % this.size,
                    this.letters[(code & LETTER_MASK) - 1], (code & BLANK) !== 0]);
      }
    });
    return found;
  }

  /** The board in the text format parseBoard reads (one line per row, newline-ended). */
  text() {
    let out = "";
    for (let r = 0; r < this.size; r++) {
      for (let c = 0; c < this.size; c++) out += squareText(this.letters, this.cells[r * this.size + c]);
      out += "\n";
    }
    return out;
  }

  /**
   * A new board with tiles added ([[row, col, letter, isBlank], ...]).
   * @throws {BadInput} a square off the board or taken, a letter not of the game
   */
  withTiles(placed) {
    const cells = Uint8Array.from(this.cells);
    for (const [row, col, letter, isBlank] of placed) {
      if (!(row >= 0 && row < this.size && col >= 0 && col < this.size)) {
        throw new BadInput(`square row ${row} col ${col} is off the board`);
      }
      if (cells[row * this.size + col]) throw new BadInput(`square row ${row} col ${col} is already taken`);
      const code = this.letters.indexOf(letter) + 1;
      if (!code) throw new BadInput(`${pyRepr(letter)} is not a letter of this game (${this.letters.join("")})`);
      cells[row * this.size + col] = code | (isBlank ? BLANK : 0);
    }
    return new Board(this.size, this.letters, cells);
  }
}

function squareText(letters, code) {
  if (!code) return EMPTY_SQUARE;
  const letter = letters[(code & LETTER_MASK) - 1];
  return code & BLANK ? letter.toUpperCase() : letter;
}

function neighbours(index, size) {
  const r = Math.floor(index / size);
  const c = index % size;
  const out = [];
  if (r > 0) out.push(index - size);
  if (r < size - 1) out.push(index + size);
  if (c > 0) out.push(index - 1);
  if (c < size - 1) out.push(index + 1);
  return out;
}

/** First and last square of the run of tiles through `index` (itself counted as a tile). */
function runBounds(cells, size, index, step) {
  const lineFirst = step === size ? index % size : index - (index % size);
  const lineLast = lineFirst + step * (size - 1);
  let first = index;
  while (first !== lineFirst && cells[first - step]) first -= step;
  let last = index;
  while (last !== lineLast && cells[last + step]) last += step;
  return [first, last];
}

/** The maximal runs of two tiles or more holding one of `squares`: across first, then down. */
function runsThrough(cells, size, squares) {
  const found = [];
  for (const step of [1, size]) {
    const runs = new Map();
    for (const index of squares) {
      const [first, last] = runBounds(cells, size, index, step);
      if (first !== last) runs.set(first * 4096 + last, [first, last, step]);
    }
    found.push(...[...runs.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
  }
  return found;
}

function lineWord(board, index, step) {
  const [first, last] = runBounds(board.cells, board.size, index, step);
  let word = "";
  for (let j = first; j <= last; j += step) word += board.letters[(board.cells[j] & LETTER_MASK) - 1];
  return word;
}

// --- moves --------------------------------------------------------------------------------------
/**
 * One move, as lookup/crossword/move.py's Move: kind "play", "turn", "exchange" or "pass".
 * `text` is the string inside Python's repr(Move) ("H 7,3 caT 10", "exchange abc", "pass",
 * "V 5,7 лом + H 5,5 бел 17"); `word`, `words`, `placed` and `text` are worked out on first use
 * (getters: copy them, e.g. with toJSON(), before posting a move to another thread).
 */
export class Move {
  constructor(kind, {row = null, col = null, direction = null, score = 0, exchanged = "",
                     codes = null, board = null, parts = []} = {}) {
    /** "play", "turn", "exchange" or "pass". */
    this.kind = kind;
    /** 0-based square of the main word's first letter (null unless a play). */
    this.row = row;
    this.col = col;
    /** "H" across or "V" down (null unless a play). */
    this.direction = direction;
    /** Points the move scores. */
    this.score = score;
    /** The tiles an exchange returns to the bag ("?" a blank), else "". */
    this.exchanged = exchanged;
    /** A turn's plays in an order they can be laid (each on the board the ones before leave). */
    this.parts = parts;
    /** By equity: the value of the tiles kept, and score + leave (null otherwise). */
    this.leave = null;
    this.equity = null;
    // The main word's codes (BLANK bit on every blank), or where to find them: play number
    // _index of the PlayList _list; and the board before the move.
    this._codes = codes;
    this._list = null;
    this._index = -1;
    this._board = board;
    this._details = null;
  }

  /** A play of a PlayList (its codes are read on first use: a list may hold 40,000 plays). */
  static listed(list, k, board) {
    const n = board.size;
    const place = list.place[k];
    const line = Math.floor(place / n) % n;
    const start = place % n;
    const across = place < n * n;
    const move = new Move("play", {row: across ? line : start, col: across ? start : line,
                                   direction: across ? "H" : "V", score: list.score[k], board});
    move._list = list;
    move._index = k;
    return move;
  }

  /** The main word's codes, the BLANK bit on every blank. */
  get codes() {
    if (this._codes === null && this._list !== null) this._codes = this._list.codesOf(this._index);
    return this._codes;
  }

  /** Short notation, the string inside Python's repr(Move). */
  get text() {
    if (this.kind === "exchange") return `exchange ${this.exchanged}`;
    if (this.kind === "pass") return "pass";
    if (this.kind === "turn") return this.parts.map((part) => part._line()).join(" + ") + ` ${this.score}`;
    return `${this._line()} ${this.score}`;
  }

  /** The main word, lowercase ("" unless a play). */
  get word() {
    return this._worked()[0];
  }

  /** The new tiles, [[row, col, letter, isBlank], ...] in reading order. */
  get placed() {
    return this._worked()[1];
  }

  /** Every word formed: a play's main word first, then its cross words; a turn's runs. */
  get words() {
    return this._worked()[2];
  }

  /** The move as plain data (what JSON.stringify and a postMessage can carry). */
  toJSON() {
    return {kind: this.kind, text: this.text, direction: this.direction, row: this.row,
            col: this.col, word: this.word, score: this.score, words: this.words,
            placed: this.placed, exchanged: this.exchanged,
            parts: this.parts.map((part) => part.toJSON()), leave: this.leave, equity: this.equity};
  }

  _line() {
    const letters = this._board.letters;
    let text = "";
    for (const code of this.codes) text += squareText(letters, code);
    return `${this.direction} ${this.row},${this.col} ${text}`;
  }

  _worked() {
    if (this._details === null) {
      if (this.kind === "play") this._details = playDetails(this._board, this.row, this.col, this.direction, this.codes);
      else if (this.kind === "turn") this._details = turnDetails(this.parts);
      else this._details = ["", [], []];
    }
    return this._details;
  }

  /** Take the rack tiles a play uses off `counts` (tiles by code, blanks at 0). */
  _spend(counts) {
    if (this.kind !== "play") return;
    const board = this._board;
    const [dr, dc] = STEPS[this.direction];
    const step = dr * board.size + dc;
    const first = this.row * board.size + this.col;
    if (this._codes === null && this._list !== null) {
      // Straight from the play list: no codes array made for each of 40,000 plays.
      const list = this._list;
      const k = this._index;
      const offset = list.offset[k];
      const bits = list.blanks[k];
      for (let i = 0; i < list.length[k]; i++) {
        if (!board.cells[first + i * step]) counts[bits >> i & 1 ? 0 : list.codes[offset + i]] -= 1;
      }
      return;
    }
    this.codes.forEach((code, i) => {
      if (!board.cells[first + i * step]) counts[code & BLANK ? 0 : code] -= 1;
    });
  }

}

function playDetails(board, row, col, direction, codes) {
  const n = board.size;
  const [dr, dc] = STEPS[direction];
  const letters = board.letters;
  let word = "";
  const placed = [];
  codes.forEach((code, k) => {
    const letter = letters[(code & LETTER_MASK) - 1];
    word += letter;
    const r = row + k * dr;
    const c = col + k * dc;
    if (!board.cells[r * n + c]) placed.push([r, c, letter, (code & BLANK) !== 0]);
  });
  const after = board.withTiles(placed);
  const words = [word];
  const crossStep = direction === "H" ? n : 1;
  for (const [r, c] of placed) {
    const cross = lineWord(after, r * n + c, crossStep);
    if ([...cross].length >= 2) words.push(cross);
  }
  return [word, placed, words];
}

function turnDetails(parts) {
  const board = parts[0]._board;
  const placed = parts.flatMap((part) => part.placed).sort(compareTiles);
  const after = board.withTiles(placed);
  const n = board.size;
  const runs = runsThrough(after.cells, n, placed.map(([r, c]) => r * n + c));
  const words = runs.map(([first, last, step]) => {
    let word = "";
    for (let j = first; j <= last; j += step) word += board.letters[(after.cells[j] & LETTER_MASK) - 1];
    return word;
  });
  return ["", placed, words];
}

/** Python's order of (row, col, letter, isBlank) tuples. */
function compareTiles(a, b) {
  return a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0) || Number(a[3]) - Number(b[3]);
}

// --- the move generator ---------------------------------------------------------------------
/**
 * The plays a generator found, unsorted: per play its score, place (direction, line, start),
 * main word (offset and length in `codes`: board tiles with their BLANK bit, new tiles as
 * letters) and blank bits (bit i: the new tile at position i of the word is a blank).
 */
class PlayList {
  constructor() {
    this.count = 0;
    this.score = new Int32Array(1024);
    this.place = new Int32Array(1024);
    this.offset = new Int32Array(1024);
    this.length = new Int32Array(1024);
    this.blanks = new Int32Array(1024);
    this.codes = new Uint8Array(4096);
    this.used = 0;
  }

  /** Room for a main word of `length` codes in `codes`: its offset. */
  word(length) {
    if (this.used + length > this.codes.length) {
      const grown = new Uint8Array(2 * (this.used + length));
      grown.set(this.codes);
      this.codes = grown;
    }
    const at = this.used;
    this.used += length;
    return at;
  }

  /** List a play (its word at `offset` in `codes`). */
  add(score, place, offset, length, blanks) {
    if (this.count === this.score.length) {
      for (const field of ["score", "place", "offset", "length", "blanks"]) {
        const grown = new Int32Array(2 * this.count);
        grown.set(this[field]);
        this[field] = grown;
      }
    }
    const k = this.count++;
    this.score[k] = score;
    this.place[k] = place;
    this.offset[k] = offset;
    this.length[k] = length;
    this.blanks[k] = blanks;
  }

  /** The codes of play k's main word, the BLANK bit on every blank. */
  codesOf(k) {
    const length = this.length[k];
    const offset = this.offset[k];
    const bits = this.blanks[k];
    const codes = new Array(length);
    for (let i = 0; i < length; i++) codes[i] = this.codes[offset + i] | (bits >> i & 1 ? BLANK : 0);
    return codes;
  }

  /**
   * Play numbers in Python's order: best score first, then place (direction, line, start),
   * tile codes, blank bits. Two counting sorts order them by place, then stably by score; each
   * run of equal score and place is then sorted by the rest.
   */
  sorted() {
    const {score, place, offset, length, blanks, codes, count} = this;
    let top = 0;
    let places = 0;
    for (let k = 0; k < count; k++) {
      if (score[k] > top) top = score[k];
      if (place[k] >= places) places = place[k] + 1;
    }
    const byPlace = new Int32Array(count);
    const starts = new Int32Array(Math.max(places, top + 1) + 1);
    for (let k = 0; k < count; k++) starts[place[k] + 1] += 1;
    for (let p = 1; p <= places; p++) starts[p] += starts[p - 1];
    for (let k = 0; k < count; k++) byPlace[starts[place[k]]++] = k;
    starts.fill(0);
    for (let k = 0; k < count; k++) starts[top - score[k] + 1] += 1;
    for (let v = 1; v <= top + 1; v++) starts[v] += starts[v - 1];
    const order = new Array(count);
    for (let i = 0; i < count; i++) {
      const k = byPlace[i];
      order[starts[top - score[k]]++] = k;
    }
    const tie = (a, b) => {
      const la = length[a];
      const lb = length[b];
      const oa = offset[a];
      const ob = offset[b];
      if (oa !== ob) {
        for (let k = 0, m = Math.min(la, lb); k < m; k++) {
          const d = codes[oa + k] - codes[ob + k];
          if (d) return d;
        }
      }
      return la - lb || blanks[a] - blanks[b];
    };
    for (let first = 0; first < count;) {
      const k = order[first];
      let last = first + 1;
      while (last < count && score[order[last]] === score[k] && place[order[last]] === place[k]) last += 1;
      if (last - first > 1) {
        const run = order.slice(first, last).sort(tie);
        for (let i = first; i < last; i++) order[i] = run[i - first];
      }
      first = last;
    }
    return order;
  }
}

/** One orientation of a position: across, or down as across on the transposed board. */
class Orientation {
  constructor(squares) {
    this.cells = new Int32Array(squares);
    this.checks = new Int32Array(squares);
    this.cross = new Int32Array(squares);
    this.anchor = new Uint8Array(squares);
  }
}

/** Appel and Jacobson's move generator for one game (the module's header). */
class Generator {
  constructor(rules, graph) {
    const n = rules.size;
    this.n = n;
    this.squares = n * n;
    this.next = graph.next;
    this.mask = graph.mask;
    this.root = graph.root;
    this.allLetters = rules.letters.length === 32 ? -1 : (1 << rules.letters.length) - 1;
    // Values by code, blanks (BLANK bit) 0.
    this.values = new Int32Array(2 * BLANK);
    rules.values.forEach((value, code) => { this.values[code] = value; });
    this.rackSize = rules.rackSize;
    this.bingo = rules.bingo;
    this.minLength = rules.minLength;
    this.maxLength = rules.maxLength;
    this.letterCount = rules.letters.length;
    // Square i of the transposed board is square transpose[i] of the board.
    this.transpose = new Int32Array(this.squares);
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) this.transpose[r * n + c] = c * n + r;
    this.letterMult = [Int32Array.from(rules.letterMult), this.transposed(rules.letterMult)];
    this.wordMult = [Int32Array.from(rules.wordMult), this.transposed(rules.wordMult)];
    this.start = [rules.start, this.transpose[rules.start]];
    this.orientations = [new Orientation(this.squares), new Orientation(this.squares)];
    // The walk's state.
    this.word = new Int32Array(this.squares);
    this.prefix = new Int32Array(n);
    this.rack = new Int32Array(this.letterCount + 1);
    this.full = new Int32Array(this.letterCount + 1);
    this.newSquare = new Int32Array(n);
    this.newLetter = new Int32Array(n);
    this.cost = new Int32Array(n);
    this.seen = new Int32Array(this.letterCount + 1);
    this.free = new Int32Array(n);
    this.plays = null;  // what the walk found
    this.o = null;  // the orientation walked, its direction and multipliers
    this.direction = ACROSS;
    this.lm = null;
    this.wm = null;
    this.blanks = 0;  // blanks left on the rack, its letters (rackMask), all its tiles, those left
    this.rackMask = 0;
    this.tiles = 0;
    this.left = 0;
    this.anchor = 0;  // the anchor, its line's last square, whether one tile may be played there
    this.lineEnd = 0;
    this.singleOk = true;
    this.limit = 0;  // the longest left part, the word's first square, its left part's length
    this.first = 0;
    this.depth = 0;
  }

  transposed(values) {
    return Int32Array.from(this.transpose, (i) => values[i]);
  }

  /**
   * Every single-line play of a position, in Python's order.
   * @param {ArrayLike<number>} cells the board's codes, row-major
   * @param {ArrayLike<number>} rack tiles by code, the blanks at index 0
   * @returns {{plays: PlayList, order: number[]}}
   */
  generate(cells, rack) {
    const plays = new PlayList();
    this.plays = plays;
    let tiles = 0;
    for (let t = 0; t < rack.length; t++) tiles += rack[t];
    if (!this.root || !tiles) return {plays, order: []};
    this.full.set(rack);
    this.rack.set(rack);
    this.blanks = rack[0];
    this.rack[0] = 0;
    this.rackMask = 0;
    for (let t = 1; t <= this.letterCount; t++) if (rack[t]) this.rackMask |= 1 << (t - 1);
    this.tiles = tiles;
    this.left = tiles;
    const empty = !cells.some((code) => code);
    for (const direction of [ACROSS, DOWN]) {
      const o = this.orientations[direction];
      if (direction === ACROSS) o.cells.set(cells);
      else for (let i = 0; i < this.squares; i++) o.cells[i] = cells[this.transpose[i]];
      this.prepare(o, empty ? this.start[direction] : -1);
      this.direction = direction;
      this.o = o;
      this.lm = this.letterMult[direction];
      this.wm = this.wordMult[direction];
      for (let anchor = 0; anchor < this.squares; anchor++) if (o.anchor[anchor]) this.fromAnchor(anchor);
    }
    return {plays, order: plays.sorted()};
  }

  /** Anchors, cross-checks and cross sums of an orientation (`start`: the empty board's). */
  prepare(o, start) {
    const {n, squares, next, mask, root, values} = this;
    const cells = o.cells;
    o.anchor.fill(0);
    if (start >= 0) o.anchor[start] = 1;
    for (let i = 0; i < squares; i++) {
      if (cells[i]) {
        o.checks[i] = 0;
        o.cross[i] = NO_CROSS_WORD;
        continue;
      }
      const row = Math.floor(i / n);
      const col = i % n;
      if (start < 0 && ((row > 0 && cells[i - n]) || (row < n - 1 && cells[i + n]) ||
                        (col > 0 && cells[i - 1]) || (col < n - 1 && cells[i + 1]))) {
        o.anchor[i] = 1;
      }
      let first = i;
      while (first >= n && cells[first - n]) first -= n;
      let last = i;
      while (last + n < squares && cells[last + n]) last += n;
      if (first === last) {
        o.checks[i] = this.allLetters;
        o.cross[i] = NO_CROSS_WORD;
        continue;
      }
      let sum = 0;
      for (let j = first; j <= last; j += n) if (j !== i) sum += values[cells[j]];
      o.cross[i] = sum;
      if ((last - first) / n + 1 > this.maxLength) {
        o.checks[i] = 0;
        continue;
      }
      // The perpendicular word: the tiles above, the letter, the tiles below.
      // node 0: the tiles above spell no word's beginning that goes on.
      let node = root;
      for (let j = first; j < i && node; j += n) node = next[(node << SLOT_SHIFT) + (cells[j] & LETTER_MASK) - 1] >> 1;
      let allowed = 0;
      if (node) {
        let letters = mask[node];
        while (letters) {
          const bit = letters & -letters;
          letters ^= bit;
          let arc = next[(node << SLOT_SHIFT) + 31 - Math.clz32(bit)];
          for (let j = i + n; j <= last && arc; j += n) {
            const child = arc >> 1;
            arc = child ? next[(child << SLOT_SHIFT) + (cells[j] & LETTER_MASK) - 1] : 0;
          }
          if (arc & 1) allowed |= bit;
        }
      }
      o.checks[i] = allowed & this.allLetters;
    }
  }

  /** Every play through `anchor` that covers no anchor left of it (Appel and Jacobson). */
  fromAnchor(anchor) {
    const {n} = this;
    const cells = this.o.cells;
    const lineStart = anchor - (anchor % n);
    this.anchor = anchor;
    this.lineEnd = lineStart + n - 1;
    // A play of one tile down is listed across when it forms an across word.
    this.singleOk = this.direction === ACROSS || this.o.cross[anchor] === NO_CROSS_WORD;
    if (anchor > lineStart && cells[anchor - 1]) {
      // The left part is the tiles already left of the anchor.
      let first = anchor - 1;
      while (first > lineStart && cells[first - 1]) first -= 1;
      let node = this.root;
      for (let j = first; j < anchor; j++) {
        const arc = this.next[(node << SLOT_SHIFT) + (cells[j] & LETTER_MASK) - 1];
        if (!arc || !(arc >> 1)) return;
        node = arc >> 1;
      }
      this.first = first;
      this.depth = 0;
      this.extendRight(anchor, node);
      return;
    }
    let limit = 0;
    while (anchor - limit - 1 >= lineStart && !cells[anchor - limit - 1] && !this.o.anchor[anchor - limit - 1]) {
      limit += 1;
    }
    this.limit = Math.min(limit, this.tiles - 1);
    this.leftPart(this.root, 0);
  }

  /** Left parts of `depth` letters (in prefix[]) ending at node; extend each through the anchor. */
  leftPart(node, depth) {
    const available = this.blanks ? this.allLetters : this.rackMask;
    const anchor = this.anchor;
    if (this.mask[node] & this.o.checks[anchor] & available) {
      this.first = anchor - depth;
      this.depth = depth;
      this.extendRight(anchor, node);
    }
    if (depth >= this.limit) return;
    let letters = this.mask[node] & available;
    const base = node << SLOT_SHIFT;
    while (letters) {
      const bit = letters & -letters;
      letters ^= bit;
      const t = 32 - Math.clz32(bit);
      const child = this.next[base + t - 1] >> 1;
      if (!child) continue;
      const real = this.rack[t] > 0;
      if (real) {
        if (--this.rack[t] === 0) this.rackMask ^= bit;
      } else this.blanks -= 1;
      this.left -= 1;
      this.prefix[depth] = t;
      this.leftPart(child, depth + 1);
      this.left += 1;
      if (real) {
        if (this.rack[t]++ === 0) this.rackMask ^= bit;
      } else this.blanks += 1;
    }
  }

  /** Place letters from `square` rightwards along the DAWG from `node`. */
  extendRight(square, node) {
    const cells = this.o.cells;
    const next = this.next;
    const code = cells[square];
    const end = square === this.lineEnd || !cells[square + 1];
    const onward = square < this.lineEnd && square - this.first + 1 < this.maxLength;
    // What the next square asks of a child: its tile, or (empty) a letter its cross-check allows.
    const following = onward ? cells[square + 1] & LETTER_MASK : 0;
    const checks = onward && !following ? this.o.checks[square + 1] : 0;
    if (code) {
      const arc = next[(node << SLOT_SHIFT) + (code & LETTER_MASK) - 1];
      if (!arc) return;
      if (arc & 1 && end) this.record(square);
      const child = arc >> 1;
      if (following ? child && next[(child << SLOT_SHIFT) + following - 1]
        : child && this.left && this.mask[child] & checks & (this.blanks ? this.allLetters : this.rackMask)) {
        this.extendRight(square + 1, child);
      }
      return;
    }
    let letters = this.mask[node] & this.o.checks[square];
    if (!this.blanks) letters &= this.rackMask;
    const base = node << SLOT_SHIFT;
    while (letters) {
      const bit = letters & -letters;
      letters ^= bit;
      const t = 32 - Math.clz32(bit);
      const arc = next[base + t - 1];
      const real = this.rack[t] > 0;
      if (real) {
        if (--this.rack[t] === 0) this.rackMask ^= bit;
      } else this.blanks -= 1;
      this.left -= 1;
      this.word[square] = t;
      if (arc & 1 && end) this.record(square);
      const child = arc >> 1;
      // Go on only where the next square can take something (a call saved per dead end).
      if (following ? child && next[(child << SLOT_SHIFT) + following - 1]
        : child && this.left && this.mask[child] & checks & (this.blanks ? this.allLetters : this.rackMask)) {
        this.extendRight(square + 1, child);
      }
      this.left += 1;
      if (real) {
        if (this.rack[t]++ === 0) this.rackMask ^= bit;
      } else this.blanks += 1;
    }
  }

  /** List the placement of first..last (every choice of blanks among its new tiles). */
  record(last) {
    const first = this.first;
    const length = last - first + 1;
    if (length < this.minLength || length > this.maxLength) return;
    const placedCount = this.tiles - this.left;
    if (placedCount === 1 && !this.singleOk) return;
    const {values, lm, wm, word, prefix} = this;
    const {cells, cross} = this.o;
    for (let k = 0; k < this.depth; k++) word[first + k] = prefix[k];
    const plays = this.plays;
    const at = plays.word(length);
    const codes = plays.codes;
    let main = 0;
    let multiplier = 1;
    let crossing = 0;
    let fresh = 0;
    for (let i = first; i <= last; i++) {
      const code = cells[i];
      if (code) {
        main += values[code];
        codes[at + i - first] = code;
        continue;
      }
      const t = word[i];
      codes[at + i - first] = t;
      const letter = values[t] * lm[i];
      main += letter;
      multiplier *= wm[i];
      this.newSquare[fresh] = i - first;
      this.newLetter[fresh] = t;
      let crossMult = 0;
      if (cross[i] !== NO_CROSS_WORD) {
        crossing += (cross[i] + letter) * wm[i];
        crossMult = wm[i];
      }
      this.cost[fresh] = letter * crossMult;
      fresh += 1;
    }
    const score = main * multiplier + crossing + (fresh === this.rackSize ? this.bingo : 0);
    const direction = this.direction;
    const n = this.n;
    const place = (direction * n + Math.floor(first / n)) * n + (first % n);
    const blanks = this.full[0];
    if (!blanks) {
      plays.add(score, place, at, length, 0);
      return;
    }
    // A blank on new tile q costs its letter score times (the main word's multiplier + its
    // cross word's): lookup/crossword/scoring.py blank_savings.
    for (let q = 0; q < fresh; q++) {
      this.cost[q] += values[this.newLetter[q]] * lm[first + this.newSquare[q]] * multiplier;
    }
    // A letter the rack lacks is a blank on every square of it; the other blanks may go on any
    // other new tile. Only when the play places more of a letter than the rack has but the
    // rack has some, which of them are blanks is a choice (chooseBlanks tries every set).
    const {seen, full, free} = this;
    for (let q = 0; q < fresh; q++) seen[this.newLetter[q]] += 1;
    let forced = 0;
    let bits = 0;
    let cost = 0;
    let freeCount = 0;
    let general = false;
    for (let q = 0; q < fresh; q++) {
      const t = this.newLetter[q];
      if (!full[t]) {
        forced += 1;
        bits |= 1 << this.newSquare[q];
        cost += this.cost[q];
      } else {
        if (seen[t] > full[t]) general = true;
        free[freeCount++] = q;
      }
    }
    for (let q = 0; q < fresh; q++) seen[this.newLetter[q]] = 0;
    if (general) this.chooseBlanks(0, blanks, 0, score, fresh, place, at, length);
    else this.freeBlanks(0, freeCount, blanks - forced, bits, score - cost, place, at, length);
  }

  /** The play with blanks on `bits`, and with up to `left` more among free[from..count). */
  freeBlanks(from, count, left, bits, score, place, at, length) {
    this.plays.add(score, place, at, length, bits);
    if (!left) return;
    for (let k = from; k < count; k++) {
      const q = this.free[k];
      this.freeBlanks(k + 1, count, left - 1, bits | (1 << this.newSquare[q]), score - this.cost[q], place, at,
                      length);
    }
  }

  /** Every set of at most `blanks` new tiles from q on as blanks, the others on the rack. */
  chooseBlanks(q, blanks, bits, score, fresh, place, at, length) {
    if (q === fresh) {
      const seen = this.seen;
      let ok = true;
      for (let k = 0; k < fresh; k++) if (!(bits >> this.newSquare[k] & 1)) seen[this.newLetter[k]] += 1;
      for (let k = 0; k < fresh; k++) {
        const t = this.newLetter[k];
        if (seen[t] > this.full[t]) ok = false;
        seen[t] = 0;
      }
      if (ok) this.plays.add(score, place, at, length, bits);
      return;
    }
    this.chooseBlanks(q + 1, blanks, bits, score, fresh, place, at, length);
    if (blanks) {
      this.chooseBlanks(q + 1, blanks - 1, bits | (1 << this.newSquare[q]), score - this.cost[q], fresh,
                        place, at, length);
    }
  }
}

// --- the game -----------------------------------------------------------------------------------
/** One crossword game: its rules, its lexicon's DAWG and (for equity) its leave table. */
export class CrosswordGame {
  /**
   * @param {object} rulesFile the rules file's content (docs/FORMATS.md, "Rules file")
   * @param {import("./lexicon.js").Lexicon} lexicon the game's lexicon (its DAWG)
   * @param {{rulesUrl?: string, lexiconUrl?: string}} where the files came from (for messages)
   */
  constructor(rulesFile, lexicon, {rulesUrl = "rules", lexiconUrl = "lexicon"} = {}) {
    const r = deriveRules(rulesFile, rulesUrl);
    /** The rules as in the rules file. */
    this.rules = rulesFile;
    this.id = r.id;
    this._r = r;
    this.lexicon = lexicon;
    this._generator = new Generator(r, denseGraph(lexicon, r.letters, lexiconUrl));
    this._code = new Map(r.letters.map((letter, k) => [letter, k + 1]));
    this._leaves = null;
    this._leavesLoading = null;
  }

  // --- boards and racks -------------------------------------------------------------------
  /** A board with no tiles. */
  emptyBoard() {
    const r = this._r;
    return new Board(r.size, r.letters, new Uint8Array(r.size * r.size));
  }

  /**
   * Parse a board (the text format of lookup/crossword/board.py).
   * @throws {BadInput} wrong size, unknown symbols, letters outside the game, more tiles than
   *   the set has, tiles that are not connected through the start square
   */
  parseBoard(text) {
    if (typeof text !== "string") throw new BadInput(`a board is text, not ${typeof text}`, {field: "board"});
    const r = this._r;
    const n = r.size;
    const game = r.id;
    const lines = text.split(PY_LINE_BREAK);
    if (lines.length && lines[lines.length - 1] === "") lines.pop();
    while (lines.length && !squeeze(lines[lines.length - 1])) lines.pop();
    while (lines.length && !squeeze(lines[0])) lines.shift();
    const fail = (message) => new BadInput(message, {field: "board"});
    if (lines.length !== n) throw fail(`board has ${lines.length} lines; ${game} needs ${n} lines of ${n} squares`);
    const cells = new Uint8Array(n * n);
    lines.forEach((line, row) => {
      const squares = [...squeeze(line)];
      if (squares.length !== n) throw fail(`board row ${row} has ${squares.length} squares; ${game} needs ${n}`);
      squares.forEach((ch, col) => {
        if (ch === EMPTY_SQUARE) return;
        const lower = ch.toLowerCase();
        const code = [...lower].length === 1 ? (this._code.get(lower) ?? 0) : 0;
        if (code && ch === lower) cells[row * n + col] = code;
        else if (code && ch === ch.toUpperCase() && ch !== lower) cells[row * n + col] = code | BLANK;
        else if (isLetter(ch)) {
          throw fail(`board row ${row} col ${col}: ${pyRepr(ch)} is not a letter of ${game} (letters: ${r.letters.join("")})`);
        } else {
          throw fail(`board row ${row} col ${col}: unknown symbol ${pyRepr(ch)} (use '.', a lowercase ` +
                     "letter for a tile, an uppercase letter for a blank)");
        }
      });
    });
    const board = new Board(n, r.letters, cells);
    this._checkBoardCounts(board, fail);
    this._checkConnected(board, fail);
    return board;
  }

  _checkBoardCounts(board, fail) {
    const r = this._r;
    const used = new Map();
    let blanks = 0;
    for (const [, , letter, isBlank] of board.tiles()) {
      if (isBlank) blanks += 1;
      else used.set(letter, (used.get(letter) ?? 0) + 1);
    }
    for (const letter of [...used.keys()].sort()) {
      const have = r.counts[this._code.get(letter)];
      if (used.get(letter) > have) {
        throw fail(`board has ${used.get(letter)} tiles ${pyRepr(letter)}; the ${r.id} set has only ${have}`);
      }
    }
    if (blanks > r.blanks) {
      throw fail(`board has ${blanks} blanks (uppercase letters); the ${r.id} set has only ${r.blanks}`);
    }
  }

  _checkConnected(board, fail) {
    const n = board.size;
    const cells = board.cells;
    const tiles = [];
    cells.forEach((code, i) => { if (code) tiles.push(i); });
    if (!tiles.length) return;
    const r = this._r;
    if (!cells[r.start]) {
      throw fail(`board has tiles (first at row ${Math.floor(tiles[0] / n)} col ${tiles[0] % n}) but the ` +
                 `start square row ${r.startRow} col ${r.startCol} is empty: the first move covers it`);
    }
    for (const index of tiles) {
      if (!neighbours(index, n).some((j) => cells[j])) {
        const [row, col] = [Math.floor(index / n), index % n];
        throw fail(`tile ${pyRepr(board.letter(row, col))} at row ${row} col ${col} touches no other tile`);
      }
    }
    const seen = new Set([r.start]);
    const frontier = [r.start];
    while (frontier.length) {
      for (const j of neighbours(frontier.pop(), n)) {
        if (cells[j] && !seen.has(j)) {
          seen.add(j);
          frontier.push(j);
        }
      }
    }
    for (const index of tiles) {
      if (!seen.has(index)) {
        const [row, col] = [Math.floor(index / n), index % n];
        throw fail(`tile ${pyRepr(board.letter(row, col))} at row ${row} col ${col} is not connected to ` +
                   "the tiles on the start square");
      }
    }
  }

  _board(board) {
    if (typeof board === "string") return this.parseBoard(board);
    if (!(board instanceof Board) || board.size !== this._r.size ||
        (board.letters !== this._r.letters && board.letters.join("") !== this._r.letters.join(""))) {
      throw new BadInput(`a board of ${this.id} is game.parseBoard(text) or game.emptyBoard()`, {field: "board"});
    }
    return board;
  }

  /** The code of one tile: a letter of the game in either case, or "?" (0). */
  _tileCode(tile, what) {
    if (tile === BLANK_SYMBOL) return 0;
    const code = this._code.get(tile.toLowerCase());
    if (code === undefined) {
      throw new BadInput(`${what} ${pyRepr(tile)} is not a letter of ${this.id} (letters: ` +
                         `${this._r.letters.join("")}, '?' for a blank)`, {field: what.split(" ")[0]});
    }
    return code;
  }

  /** Refuse tiles holding more of a kind than the set has (TileSet.check_counts). */
  _checkCounts(codes, what, field) {
    const r = this._r;
    const held = new Array(r.counts.length).fill(0);
    for (const code of codes) held[code] += 1;
    held.forEach((n, code) => {
      if (n > r.counts[code]) {
        const name = code === 0 ? "blanks" : `tiles ${pyRepr(r.letters[code - 1])}`;
        const verb = what.includes(" and ") ? "hold" : "holds";
        throw new BadInput(`${what} ${verb} ${n} ${name}; the ${r.id} set has ${r.counts[code]}`, {field});
      }
    });
  }

  _onBoard(board) {
    const codes = [];
    for (const code of board.cells) if (code) codes.push(code & BLANK ? 0 : code);
    return codes;
  }

  /**
   * The tile codes of a rack such as "abc?def" (0 a blank).
   * @throws {BadInput} too many tiles, a letter outside the game, more tiles than the set has
   */
  rackCodes(rack, board = null) {
    if (typeof rack !== "string") throw new BadInput(`a rack is text, not ${typeof rack}`, {field: "rack"});
    const r = this._r;
    const tiles = [...squeeze(rack)];
    if (tiles.length > r.rackSize) {
      throw new BadInput(`rack ${pyRepr(tiles.join(""))} has ${tiles.length} tiles; a ${r.id} rack holds ${r.rackSize}`,
                         {field: "rack"});
    }
    const codes = tiles.map((tile) => this._tileCode(tile, "rack letter"));
    this._checkCounts(codes.concat(board ? this._onBoard(board) : []), "rack and board", "rack");
    return codes;
  }

  /** Tile codes as text: letters in alphabet order, then "?" per blank (TileSet.text). */
  _tilesText(codes) {
    const letters = codes.filter((code) => code).sort((a, b) => a - b);
    return letters.map((code) => this._r.letters[code - 1]).join("") +
      BLANK_SYMBOL.repeat(codes.length - letters.length);
  }

  /**
   * The tiles neither on the board nor on the rack, as codes in the order of their text.
   * @throws {BadInput} unseen tiles outside the game or more than the set has left
   */
  _unseen(board, rack, unseen) {
    const held = this._onBoard(board).concat(rack);
    let codes;
    if (unseen !== undefined && unseen !== null) {
      if (typeof unseen !== "string") throw new BadInput("the unseen tiles are text", {field: "unseen"});
      codes = [...squeeze(unseen)].map((tile) => this._tileCode(tile, "unseen tile"));
      this._checkCounts(held.concat(codes), "board and rack and unseen tiles", "unseen");
    } else {
      const left = [...this._r.counts];
      for (const code of held) left[code] -= 1;
      codes = [];
      left.forEach((n, code) => { for (let k = 0; k < n; k++) codes.push(code); });
    }
    return codes.sort((a, b) => (a === 0) - (b === 0) || a - b);
  }

  // --- the leave table --------------------------------------------------------------------
  /**
   * Fetch the leave table (started by loadCrosswordGame in the background); resolves to the
   * table, rejects with BadArtifact. Moves by equity and leave() need it; by score never do.
   */
  loadLeaves() {
    if (this._leaves) return Promise.resolve(this._leaves);
    if (!this._leavesLoading) {
      if (!this._leavesUrl) return Promise.reject(new BadArtifact(this.id, "has no leave table", "load the game with loadCrosswordGame"));
      this._leavesLoading = loadLeavePack(this._leavesUrl, this._r).then((table) => {
        this._leaves = table;
        return table;
      }, (error) => {
        this._leavesLoading = null;
        throw error;
      });
    }
    return this._leavesLoading;
  }

  /** Use a leave table read elsewhere (leaves.js readLeavePack), e.g. from a file under Node. */
  setLeaves(table) {
    this._leaves = table;
  }

  /** Whether the leave table has arrived (moves by equity and leave() work). */
  get hasLeaves() {
    return this._leaves !== null;
  }

  _leaveTable() {
    if (!this._leaves) {
      throw new BadInput(`the ${this.id} leave table has not arrived yet: await game.loadLeaves(), or rank by score`,
                         {field: "by"});
    }
    return this._leaves;
  }

  /**
   * The value in points of keeping `tiles` ("?" a blank) with tiles in the bag; 0 for none.
   * @throws {BadInput} tiles outside the game, more than a leave keeps, more than the set has;
   *   or the leave table has not arrived yet
   */
  leave(tiles) {
    const table = this._leaveTable();
    if (typeof tiles !== "string") throw new BadInput("a leave is text", {field: "leave"});
    const text = squeeze(tiles);
    const count = [...text].length;
    const r = this._r;
    if (count > r.rackSize - 1) {
      throw new BadInput(`leave ${pyRepr(text)} has ${count} tiles; a ${r.id} leave holds at most ` +
                         `${r.rackSize - 1} (a rack holds ${r.rackSize})`, {field: "leave"});
    }
    const codes = [...text].map((tile) => this._tileCode(tile, "leave tile"));
    this._checkCounts(codes, `leave ${pyRepr(text)}`, "leave");
    return table.scaled(codes) / table.scale;
  }

  // --- moves ------------------------------------------------------------------------------
  /**
   * Every legal move with its score, best first, as Python's cw.moves(board, rack, ...): plays
   * first among equal scores, then exchanges, then the pass; ties among plays by direction,
   * row, column and tiles. Under placement "multi" (Erudit) the list holds the single-line
   * plays (Python's list without `top`; its `top` ranks multi-word turns by a search that stays
   * in Python: use bestTurn for the greedy turn).
   * @param {Board|string} board the position
   * @param {string} rack the tiles to play, "?" a blank
   * @param {{top?: number, by?: "score"|"equity", bag?: number, unseen?: string,
   *          playedWords?: string[]}} options
   *   top: only the best `top` moves; bag: tiles in the bag (exchanges need exchange_min_bag;
   *   by equity, whether leaves or the end of the game count), by default the unseen tiles
   *   minus a full opponent rack; unseen: by equity, the tiles neither on the board nor on the
   *   rack ("?" a blank), by default the rest of the set; playedWords: under repeat_words =
   *   false, the words played before (those on the board count in any case)
   * @returns {Move[]}
   * @throws {BadInput} a bad board, rack, top, by, bag or unseen; by equity before the leave
   *   table has arrived
   */
  moves(board, rack, {top, by = "score", bag, unseen, playedWords} = {}) {
    board = this._board(board);
    if (top !== undefined && top !== null && !(Number.isInteger(top) && top >= 1)) {
      throw new BadInput(`top must be at least 1, not ${top}`, {field: "top"});
    }
    if (by !== "score" && by !== "equity") throw new BadInput(`moves by ${pyRepr(by)}: use 'score' or 'equity'`, {field: "by"});
    if (bag !== undefined && bag !== null && !Number.isInteger(bag)) {
      throw new BadInput(`bag must be a whole number of tiles, not ${bag}`, {field: "bag"});
    }
    const r = this._r;
    const codes = this.rackCodes(rack, board);
    if (by === "equity") {
      const table = this._leaveTable();
      const pool = this._unseen(board, codes, unseen);
      if (bag === undefined || bag === null) bag = Math.max(0, pool.length - r.rackSize);
      if (!(pool.length - r.rackSize <= bag && bag <= pool.length)) {
        throw new BadInput(`a bag of ${bag} tiles contradicts the ${pool.length} unseen tiles (the bag plus ` +
                           `the opponent's rack of at most ${r.rackSize}): give the bag size and the ` +
                           "unseen tiles that fit", {field: "bag"});
      }
      const found = this._scoreList(board, codes, bag, playedWords);
      const ranked = this._byEquity(table, found, codes, pool, bag);
      return top ? ranked.slice(0, top) : ranked;
    }
    const found = this._scoreList(board, codes, bag, playedWords);
    return top ? found.slice(0, top) : found;
  }

  /** Plays, exchanges and the pass, best score first (moves by score without `top`). */
  _scoreList(board, codes, bag, playedWords) {
    const r = this._r;
    let moves = this._plays(board, codes);
    if (!r.repeatWords) {
      const played = this._playedSet(board, playedWords);
      moves = moves.filter((move) => !repeatProblems(r, move.words, played).length);
    }
    if (bag === undefined || bag === null) {
      const onBoard = board.cells.reduce((sum, code) => sum + (code ? 1 : 0), 0);
      bag = Math.max(0, r.total - onBoard - codes.length - r.rackSize);
    }
    if (bag >= r.exchangeMinBag && codes.length) {
      const tiles = [...this._tilesText(codes)];
      const subsets = new Set();
      for (let bits = 1; bits < 1 << tiles.length; bits++) {
        subsets.add(tiles.filter((_, k) => bits >> k & 1).join(""));
      }
      for (const exchanged of [...subsets].sort(codePointOrder)) moves.push(new Move("exchange", {exchanged}));
    }
    moves.push(new Move("pass"));
    return moves;
  }

  /** The single-line plays of a rack's codes, best first. */
  _plays(board, codes) {
    const counts = new Int32Array(this._r.letters.length + 1);
    for (const code of codes) counts[code] += 1;
    const {plays, order} = this._generator.generate(board.cells, counts);
    const n = board.size;
    const moves = new Array(order.length);
    for (let k = 0; k < order.length; k++) moves[k] = Move.listed(plays, order[k], board);
    return moves;
  }

  _playedSet(board, playedWords) {
    const played = boardWords(board);
    for (const word of playedWords ?? []) played.add(String(word).toLowerCase());
    return played;
  }

  /** Moves with leave and equity, best equity first, ties in their order (equity.py). */
  _byEquity(table, moves, rack, unseen, bag) {
    const values = this._r.values;
    const opponent = unseen.reduce((sum, code) => sum + values[code], 0);
    const full = new Int32Array(values.length);
    for (const code of rack) full[code] += 1;
    const counts = new Int32Array(values.length);
    const kept = new Int32Array(rack.length);
    const equities = new Float64Array(moves.length);
    moves.forEach((move, k) => {
      counts.set(full);
      if (move.kind === "play") move._spend(counts);
      else if (move.kind === "exchange") for (const tile of move.exchanged) counts[this._tileCode(tile, "exchange tile")] -= 1;
      // The tiles kept, ascending: the order a leave's number reads them in.
      let size = 0;
      let worth = 0;
      for (let code = 0; code < counts.length; code++) {
        for (let j = 0; j < counts[code]; j++) kept[size++] = code;
        worth += counts[code] * values[code];
      }
      // The leave in 1/denominator points: numerator / denominator.
      let numerator;
      let denominator = 1;
      if (bag) {
        denominator = table.scale;
        const number = table.index(kept, 0, size);
        numerator = number < 0 ? 0 : table.values[number];
      } else {
        numerator = size ? -(2 * worth + END_KEEP_PENALTY) : 2 * opponent;
      }
      move.leave = round4(numerator, denominator);
      move.equity = round4(move.score * denominator + numerator, denominator);
      equities[k] = move.equity;
    });
    const order = Array.from(moves, (_, k) => k).sort((a, b) => equities[b] - equities[a] || a - b);
    return order.map((k) => moves[k]);
  }


  /**
   * The best turn: a play or, under placement "multi" (Erudit), a Move of kind "turn" whose
   * parts are plays in an order they can be laid. Only the greedy method runs here (the best
   * play, then the best one the tiles left allow, until none fits); "full" stays in Python.
   * @returns {Move|null} null when no tile can be placed
   * @throws {BadInput} a bad board or rack, or a method other than "greedy"
   */
  bestTurn(board, rack, {method = "greedy", playedWords} = {}) {
    board = this._board(board);
    if (!METHODS.includes(method)) throw new BadInput(`unknown method ${pyRepr(method)}: use one of ${METHODS.join(", ")}`, {field: "method"});
    const codes = this.rackCodes(rack, board);
    if (this._r.placement === "line") {
      const best = this.moves(board, rack, {top: 1, playedWords});
      return best[0].kind === "play" ? best[0] : null;
    }
    if (method !== "greedy") {
      throw new BadInput("the full turn search runs in Python only (cw.best_turn(method='full')); use method 'greedy'",
                         {field: "method"});
    }
    return greedyTurn(this, board, codes, this._r.repeatWords ? null : this._playedSet(board, playedWords));
  }

  // --- one placement ----------------------------------------------------------------------
  /**
   * Why a placement is illegal; [] when it is legal (Python's cw.validate, same messages).
   * @param {Board|string} board
   * @param {Move|Array} placed a Move or [[row, col, letter, isBlank], ...]
   * @param {string} [rack] when given, the placement must use tiles of this rack
   * @param {{playedWords?: string[]}} options
   */
  validate(board, placed, rack = null, {playedWords} = {}) {
    board = this._board(board);
    placed = placedTiles(placed);
    const r = this._r;
    const isWord = (word) => this.isWord(word);
    if (r.placement === "multi") {
      let reasons = this._turnProblems(board, placed, isWord, playedWords);
      if (rack !== null && rack !== undefined) reasons = reasons.concat(this._rackProblems(placed, rack));
      return reasons;
    }
    let [reasons, direction] = shapeProblems(r, board, placed);
    if (rack !== null && rack !== undefined && !reasons.length) reasons = this._rackProblems(placed, rack);
    if (reasons.length) return reasons;
    return wordProblems(r, board, placed, direction, isWord);
  }

  /**
   * Score a placement by the game's rules, whatever the lexicon says (Python's cw.score).
   * @throws {BadInput} the tiles do not form one legal shape
   */
  score(board, placed) {
    board = this._board(board);
    if (placed instanceof Move && placed.kind !== "play" && placed.kind !== "turn") return 0;
    placed = placedTiles(placed);
    const r = this._r;
    if (r.placement === "multi") {
      const square = squareProblems(r, board, placed);
      const problems = square.length ? square : connectionProblems(r, board, placed);
      if (problems.length) throw new BadInput(`cannot score this turn: ${problems[0]}`, {field: "placed"});
      return turnScore(r, board, placed);
    }
    const [reasons, direction] = shapeProblems(r, board, placed);
    if (reasons.length) throw new BadInput(`cannot score this placement: ${reasons[0]}`, {field: "placed"});
    return placementScore(r, board, placed, direction);
  }

  /** Whether `word` (lowercase letters) is in the game's lexicon. */
  isWord(word) {
    return this.lexicon.has(word);
  }

  /** The board after a move (exchanges and passes leave it unchanged). */
  play(board, move) {
    board = this._board(board);
    return move.kind === "play" || move.kind === "turn" ? board.withTiles(move.placed) : board;
  }

  _rackProblems(placed, rack) {
    const codes = this.rackCodes(rack);
    const letters = new Map();
    let blanks = 0;
    for (const code of codes) {
      if (!code) blanks += 1;
      else {
        const letter = this._r.letters[code - 1];
        letters.set(letter, (letters.get(letter) ?? 0) + 1);
      }
    }
    const reasons = [];
    for (const letter of [...new Set(placed.filter((p) => !p[3]).map((p) => p[2]))].sort(codePointOrder)) {
      const need = placed.filter((p) => !p[3] && p[2] === letter).length;
      if (need > (letters.get(letter) ?? 0)) {
        reasons.push(`rack ${pyRepr(rack)} has ${letters.get(letter) ?? 0} ${pyRepr(letter)}, the placement uses ${need}`);
      }
    }
    const needBlanks = placed.filter((p) => p[3]).length;
    if (needBlanks > blanks) reasons.push(`rack ${pyRepr(rack)} has ${blanks} blanks, the placement uses ${needBlanks}`);
    return reasons;
  }

  _turnProblems(board, placed, isWord, playedWords) {
    const r = this._r;
    const square = squareProblems(r, board, placed);
    if (square.length) return square;
    const reasons = connectionProblems(r, board, placed);
    const words = turnWords(board, placed);
    if (!words.length) reasons.push("no word formed: a word has two tiles or more in a row or column");
    for (const word of words) {
      const length = [...word].length;
      if (length > r.maxLength) reasons.push(`word ${word.toUpperCase()} is longer than ${r.maxLength} letters`);
      else if (length < r.minLength) reasons.push(`word ${word.toUpperCase()} is shorter than ${r.minLength} letters`);
      else if (!isWord(word)) reasons.push(`word ${word.toUpperCase()} is not a word`);
    }
    return reasons.concat(repeatProblems(r, words, this._playedSet(board, playedWords)));
  }
}

function codePointOrder(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// --- placements (lookup/crossword/placement.py and turn.py) ---------------------------------------
/**
 * The new tiles of a placement as [[row, col, letter, isBlank]].
 * @throws {BadInput} neither a Move nor a list of 4-element arrays
 */
function placedTiles(placed) {
  if (placed instanceof Move) return placed.placed.map((tile) => [...tile]);
  const bad = () => new BadInput("a placement is a list of (row, col, letter, is_blank)", {field: "placed"});
  if (!Array.isArray(placed)) throw bad();
  return placed.map((tile) => {
    if (!Array.isArray(tile) || tile.length !== 4) throw bad();
    const [row, col, letter, isBlank] = tile;
    return [pyInt(row, bad), pyInt(col, bad), String(letter), Boolean(isBlank)];
  });
}

/** Python's int() of a row or column: a number (truncated), a boolean or a decimal string. */
function pyInt(value, bad) {
  if (typeof value === "number" && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === "boolean") return Number(value);
  if (typeof value === "string" && /^\s*[+-]?\d+(_\d+)*\s*$/.test(value)) return Number(value.replace(/_/g, ""));
  throw bad();
}

function squareProblems(r, board, placed) {
  const n = r.size;
  if (!placed.length) return ["no tiles placed"];
  const reasons = [];
  if (placed.length > r.rackSize) reasons.push(`${placed.length} tiles placed; a rack holds ${r.rackSize}`);
  const seen = new Set();
  for (const [row, col, letter] of placed) {
    if (!(row >= 0 && row < n && col >= 0 && col < n)) reasons.push(`square row ${row} col ${col} is off the board`);
    else if (board.cells[row * n + col]) {
      reasons.push(`square row ${row} col ${col} already holds ${pyRepr(board.letter(row, col))}`);
    } else if (seen.has(`${row},${col}`)) reasons.push(`two tiles on row ${row} col ${col}`);
    if (!r.letters.includes(letter)) reasons.push(`${pyRepr(letter)} is not a letter of ${r.id}`);
    seen.add(`${row},${col}`);
  }
  return reasons;
}

function shapeProblems(r, board, placed) {
  const n = r.size;
  const reasons = squareProblems(r, board, placed);
  if (reasons.length) return [reasons, null];
  const rows = new Set(placed.map((p) => p[0]));
  const cols = new Set(placed.map((p) => p[1]));
  if (rows.size > 1 && cols.size > 1) return [["tiles not in one line"], null];
  const after = board.withTiles(placed);
  const sorted = [...placed].sort(compareTiles);
  const [firstRow, firstCol] = sorted[0];
  const direction = rows.size === 1 && (cols.size > 1 || [...lineWord(after, firstRow * n + firstCol, 1)].length > 1)
    ? "H" : "V";
  const [dr, dc] = STEPS[direction];
  const [lastRow, lastCol] = sorted[sorted.length - 1];
  let [row, col] = [firstRow, firstCol];
  while (row !== lastRow || col !== lastCol) {
    row += dr;
    col += dc;
    if (!after.cells[row * n + col]) return [[`tiles not contiguous: row ${row} col ${col} is empty`], null];
  }
  if (board.isEmpty()) {
    if (!placed.some(([pr, pc]) => pr === r.startRow && pc === r.startCol)) {
      reasons.push(`first move must cover the start square row ${r.startRow} col ${r.startCol}`);
    }
  } else if (!placed.some(([pr, pc]) => neighbours(pr * n + pc, n).some((j) => board.cells[j]))) {
    reasons.push("not connected: no new tile touches a tile on the board");
  }
  const main = lineWord(after, firstRow * n + firstCol, direction === "H" ? 1 : n);
  if ([...main].length < r.minLength) {
    reasons.push(`main word ${main.toUpperCase()} is shorter than ${r.minLength} letters`);
  }
  return [reasons, direction];
}

function mainWordSpan(board, placed, direction) {
  const n = board.size;
  const after = board.withTiles(placed);
  const [row, col] = [...placed].sort(compareTiles)[0];
  return runBounds(after.cells, n, row * n + col, direction === "H" ? 1 : n);
}

function wordProblems(r, board, placed, direction, isWord) {
  const n = board.size;
  const [first, last] = mainWordSpan(board, placed, direction);
  const after = board.withTiles(placed);
  const step = direction === "H" ? 1 : n;
  const codes = [];
  for (let j = first; j <= last; j += step) codes.push(after.cells[j]);
  const move = new Move("play", {row: Math.floor(first / n), col: first % n, direction, codes, board});
  const reasons = [];
  move.words.forEach((word, k) => {
    const what = k === 0 ? "main word" : "cross word";
    if ([...word].length > r.maxLength) reasons.push(`${what} ${word.toUpperCase()} is longer than ${r.maxLength} letters`);
    else if (!isWord(word)) reasons.push(`${what} ${word.toUpperCase()} is not a word`);
  });
  return reasons;
}

/** The score of a placement of legal shape (lookup/crossword/scoring.py's rule). */
function placementScore(r, board, placed, direction) {
  const n = r.size;
  const [first, last] = mainWordSpan(board, placed, direction);
  const step = direction === "H" ? 1 : n;
  const values = r.values;
  const newAt = new Map(placed.map(([row, col, letter, isBlank]) =>
    [row * n + col, isBlank ? 0 : values[r.letters.indexOf(letter) + 1]]));
  let main = 0;
  let multiplier = 1;
  let crossing = 0;
  for (let i = first; i <= last; i += step) {
    const code = board.cells[i];
    if (code) {
      main += code & BLANK ? 0 : values[code];
      continue;
    }
    const letter = newAt.get(i) * r.letterMult[i];
    main += letter;
    multiplier *= r.wordMult[i];
    const crossStep = step === 1 ? n : 1;
    const [a, b] = runBounds(board.cells, n, i, crossStep);
    if (a !== b) {
      let sum = 0;
      for (let j = a; j <= b; j += crossStep) if (j !== i) sum += board.cells[j] & BLANK ? 0 : values[board.cells[j]];
      crossing += (sum + letter) * r.wordMult[i];
    }
  }
  return main * multiplier + crossing + (placed.length === r.rackSize ? r.bingo : 0);
}

function connectionProblems(r, board, placed) {
  const n = board.size;
  const fresh = new Set(placed.map(([row, col]) => row * n + col));
  let reached;
  if (board.isEmpty()) {
    if (!fresh.has(r.start)) return [`first move must cover the start square row ${r.startRow} col ${r.startCol}`];
    reached = new Set([r.start]);
  } else {
    reached = new Set([...fresh].filter((index) => neighbours(index, n).some((j) => board.cells[j])));
  }
  const frontier = [...reached];
  while (frontier.length) {
    for (const j of neighbours(frontier.pop(), n)) {
      if (fresh.has(j) && !reached.has(j)) {
        reached.add(j);
        frontier.push(j);
      }
    }
  }
  const loose = [...fresh].filter((index) => !reached.has(index)).sort((a, b) => a - b);
  if (!loose.length) return [];
  const squares = loose.map((index) => `row ${Math.floor(index / n)} col ${index % n}`).join(", ");
  return [`not connected: the tiles on ${squares} join no tile of the board, directly or through the other new tiles`];
}

function runText(board, [first, last, step]) {
  let word = "";
  for (let j = first; j <= last; j += step) word += board.letters[(board.cells[j] & LETTER_MASK) - 1];
  return word;
}

function turnWords(board, placed) {
  const after = board.withTiles(placed);
  return runsThrough(after.cells, after.size, placed.map(([row, col]) => row * board.size + col))
    .map((run) => runText(after, run));
}

/** Every word on the board: the runs of two tiles or more, across and down. */
function boardWords(board) {
  const tiles = [];
  board.cells.forEach((code, index) => { if (code) tiles.push(index); });
  return new Set(runsThrough(board.cells, board.size, tiles).map((run) => runText(board, run)));
}

function repeatProblems(r, words, played) {
  if (r.repeatWords) return [];
  const reasons = [];
  words.forEach((word, k) => {
    if (played.has(word)) reasons.push(`word ${word.toUpperCase()} is already played; ${r.id} forms each word once`);
    else if (words.slice(0, k).includes(word)) {
      reasons.push(`word ${word.toUpperCase()} is formed twice in this turn; ${r.id} forms each word once`);
    }
  });
  return reasons;
}

/** Score runs (first, last, step) of `cells`, each with the premiums of the new squares. */
function scoreRuns(r, cells, fresh, runs, bingo) {
  let total = 0;
  for (const [first, last, step] of runs) {
    let word = 0;
    let multiplier = 1;
    for (let j = first; j <= last; j += step) {
      const value = cells[j] & BLANK ? 0 : r.values[cells[j]];
      if (fresh.has(j)) {
        word += value * r.letterMult[j];
        multiplier *= r.wordMult[j];
      } else word += value;
    }
    total += word * multiplier;
  }
  return total + (fresh.size === r.rackSize ? bingo : 0);
}

function turnScore(r, board, placed) {
  const after = board.withTiles(placed);
  const fresh = placed.map(([row, col]) => row * board.size + col);
  return scoreRuns(r, after.cells, new Set(fresh), runsThrough(after.cells, after.size, fresh), r.bingo);
}

/**
 * Erudit's greedy turn (lookup/crossword/turn_search.py TurnSearch.greedy): lay the best play,
 * then the best one the new board and the tiles left allow, until none fits; a play that would
 * make the turn repeat a word is skipped.
 */
function greedyTurn(game, board, rack, played) {
  const r = game._r;
  const n = board.size;
  const cells = Uint8Array.from(board.cells);
  const counts = new Int32Array(r.letters.length + 1);
  for (const code of rack) counts[code] += 1;
  const plays = [];
  let tiles = [];
  let score = 0;
  while (counts.some((k) => k)) {
    const {plays: found, order} = game._generator.generate(cells, counts);
    let taken = null;
    for (const k of order) {
      const place = found.place[k];
      const direction = Math.floor(place / (n * n));
      const line = Math.floor(place / n) % n;
      const start = place % n;
      const first = direction === ACROSS ? line * n + start : start * n + line;
      const stride = direction === ACROSS ? 1 : n;
      const fresh = [];
      for (let i = 0; i < found.length[k]; i++) {
        const square = first + i * stride;
        if (!cells[square]) {
          fresh.push([square, found.codes[found.offset[k] + i] | (found.blanks[k] >> i & 1 ? BLANK : 0)]);
        }
      }
      for (const [square, code] of fresh) cells[square] = code;
      const all = tiles.concat(fresh);
      const squares = new Set(all.map(([square]) => square));
      const runs = runsThrough(cells, n, [...squares]);
      let legal = true;
      if (played) {
        const words = runs.map(([a, b, step]) => {
          let word = "";
          for (let j = a; j <= b; j += step) word += r.letters[(cells[j] & LETTER_MASK) - 1];
          return word;
        });
        legal = new Set(words).size === words.length && !words.some((word) => played.has(word));
      }
      if (legal) {
        taken = {k, fresh, score: scoreRuns(r, cells, squares, runs, 0), all};
        break;
      }
      for (const [square] of fresh) cells[square] = 0;
    }
    if (!taken) break;
    plays.push(Move.listed(found, taken.k, board));
    tiles = taken.all;
    score = taken.score;
    for (const [, code] of taken.fresh) counts[code & BLANK ? 0 : code] -= 1;
  }
  if (!tiles.length) return null;
  // The parts, each on the board the parts before it leave.
  let before = board;
  const parts = plays.map((part) => {
    const move = new Move("play", {row: part.row, col: part.col, direction: part.direction, score: part.score,
                                   codes: part.codes, board: before});
    before = before.withTiles(move.placed);
    return move;
  });
  if (parts.length === 1) return parts[0];
  return new Move("turn", {score: score + (tiles.length === r.rackSize ? r.bingo : 0), parts});
}

// --- loading ------------------------------------------------------------------------------------
/**
 * Load the crossword game `id` from the site's data directory: `crossword/<id>.json` and the
 * lexicon's `<lexicon>.dawg.gz`; the leave table `crossword/<id>.leaves.pack.gz` is then fetched
 * in the background (game.loadLeaves() awaits it) unless `leaves` is false.
 * @param {string|URL} baseUrl e.g. "data/" (relative to the page) or an absolute URL
 * @param {string} id e.g. "scrabble-en"
 * @param {{leaves?: boolean}} options
 * @returns {Promise<CrosswordGame>}
 * @throws {BadArtifact} a file is missing, damaged or of another version
 */
export async function loadCrosswordGame(baseUrl, id, {leaves = true} = {}) {
  const base = new URL(String(baseUrl).replace(/\/?$/, "/"), globalThis.location?.href);
  const rulesUrl = new URL(`crossword/${id}.json`, base);
  const rulesFile = await fetchRules(rulesUrl, {lexicon: "string"});
  const lexiconUrl = new URL(`${rulesFile.lexicon}.dawg.gz`, base);
  const lexicon = readLexicon(await fetchBytes(lexiconUrl), lexiconUrl);
  const game = new CrosswordGame(rulesFile, lexicon, {rulesUrl: String(rulesUrl), lexiconUrl: String(lexiconUrl)});
  if (game.id !== id) throw new BadArtifact(String(rulesUrl), `is the rules of ${pyRepr(game.id)}, not ${pyRepr(id)}`, REBUILD_RULES);
  game._leavesUrl = new URL(`crossword/${id}.leaves.pack.gz`, base);
  if (leaves) game.loadLeaves().catch(() => {});
  return game;
}
