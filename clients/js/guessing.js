// Guessing games (Wordle, Nerdle) in the browser or Node, from the files of docs/FORMATS.md
// ("guessing games"): the descriptor, the two word lists and the decision trees. The feedback
// matrices are not shipped: feedback is computed, so filtering and ranking cost one feedback per
// (guess, answer) pair they look at. Results come in the same order as lookup/guessing/game.py's.

import {BadArtifact, BadInput} from "./errors.js";
import {checkHeader, checkSeal, fetchBytes, parseWordList, readSealedJson, sha256Hex} from "./files.js";
import {decode, MsgpackError} from "./msgpack.js";

const GAME_FORMAT = "guess-game";
const TREE_FORMAT = "guess-tree";
// Descriptors and trees are sealed (docs/FORMATS.md "Seals") since version 2.
const GAME_VERSION = 2;
const TREE_VERSION = 2;
const FEEDBACK_SYMBOLS = new Map(Object.entries({
  "0": 0, "1": 1, "2": 2,
  "g": 2, "y": 1, "b": 0, "x": 0, "w": 0, ".": 0, "-": 0,
  "🟩": 2, "🟧": 2, "🟨": 1, "🟦": 1, "⬛": 0, "⬜": 0,
}));
const VARIATION_SELECTOR = "\ufe0f";
// Candidate sets of recent history prefixes: a game played along re-asks the same prefixes, and
// playing every answer through the tree shares the first few.
const PREFIX_CACHE_SIZE = 4096;

/** Python's repr of a string, which the error messages quote words with. */
function quote(text) {
  return text.includes("'") && !text.includes('"') ? `"${text}"` : `'${text}'`;
}

/**
 * Feedback code of `text` written as digits, g/y/b letters or squares.
 * @param {string} text e.g. "20100", "gybbb", "🟩⬛🟨⬛⬛"
 * @param {number} length the game's word length
 * @returns {number} the code (position 0 is the most significant trit)
 */
export function parseFeedback(text, length) {
  const symbols = [...String(text).trim().toLowerCase()]
    .filter((ch) => ch !== VARIATION_SELECTOR && !/\s/u.test(ch));
  let code = 0;
  for (const ch of symbols) {
    if (!FEEDBACK_SYMBOLS.has(ch)) {
      throw new BadInput(`feedback ${quote(text)}: ${quote(ch)} is not a colour; use digits ` +
                         "0/1/2, letters g/y/b or the squares 🟩 🟨 ⬛", {field: "feedback"});
    }
    code = code * 3 + FEEDBACK_SYMBOLS.get(ch);
  }
  if (symbols.length !== length) {
    throw new BadInput(`feedback ${quote(text)} has ${symbols.length} positions, the game has ${length}`,
                       {field: "feedback"});
  }
  return code;
}

/** Run `read`; a BadInput it throws is about guess number `turn` of a history. */
function atTurn(turn, read) {
  try {
    return read();
  } catch (error) {
    if (error instanceof BadInput) error.turn = turn;
    throw error;
  }
}

/** The digit string of a feedback code, e.g. codeToDigits(183, 5) === "20210". */
export function codeToDigits(code, length) {
  return code.toString(3).padStart(length, "0");
}

/**
 * Feedback code of the word at letters[guessAt..] against the word at letters[answerAt..]
 * (letter numbers, `length` each), by the rule of docs/FORMATS.md ("Feedback codes"): greens
 * first, then yellows left to right while the answer has unmatched copies.
 * @param {Int32Array} unmatched zeros, one per letter of the alphabet; left zeroed
 */
function feedbackCode(letters, guessAt, answerAt, length, unmatched) {
  let green = 0;
  for (let i = 0; i < length; i++) {
    if (letters[guessAt + i] === letters[answerAt + i]) green |= 1 << i;
    else unmatched[letters[answerAt + i]]++;
  }
  let code = 0;
  for (let i = 0; i < length; i++) {
    let trit = 0;
    if (green & (1 << i)) trit = 2;
    else if (unmatched[letters[guessAt + i]] > 0) { trit = 1; unmatched[letters[guessAt + i]]--; }
    code = code * 3 + trit;
  }
  for (let i = 0; i < length; i++) unmatched[letters[answerAt + i]] = 0;
  return code;
}

/** A decision tree: header and root node [guess, codes, children] (docs/FORMATS.md). */
class GuessTree {
  constructor(header, root) {
    this.header = header;
    this.root = root;
  }

  /** The node after `node`'s guess got `code`, or null when the tree has no such branch. */
  child(node, code) {
    const codes = node[1];
    let low = 0;
    let high = codes.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (codes[mid] < code) low = mid + 1; else high = mid;
    }
    return low < codes.length && codes[low] === code ? node[2][low] : null;
  }
}

/** One guessing game; build it with loadGuessingGame. */
export class GuessingGame {
  constructor(descriptor, answers, guesses, trees) {
    this.descriptor = descriptor;
    this.id = descriptor.id;
    this.name = descriptor.name;
    this.alphabet = descriptor.alphabet;
    this.length = descriptor.length;
    this.maxGuesses = descriptor.max_guesses;
    /** The answer list, in game order. */
    this.answers = answers;
    /** The allowed guesses: the answers first, then the other allowed words. */
    this.guesses = guesses;
    this.trees = trees;
    this.allGreen = 3 ** this.length - 1;
    this.letterNumber = new Map([...this.alphabet].map((ch, i) => [ch, i]));
    this.guessIndex = new Map(guesses.map((word, i) => [word, i]));
    // Letter numbers of every guess, `length` per word; answers are guesses 0..answers-1.
    this.letters = new Uint8Array(guesses.length * this.length);
    guesses.forEach((word, g) => {
      [...word].forEach((ch, i) => { this.letters[g * this.length + i] = this.letterNumber.get(ch); });
    });
    this.unmatched = new Int32Array(this.letterNumber.size);
    this.prefixCache = new Map();
  }

  /** Feedback code of guess number g against answer number a. */
  code(g, a) {
    return feedbackCode(this.letters, g * this.length, a * this.length, this.length, this.unmatched);
  }

  word(text, what = "guess") {
    const word = String(text).trim().toLowerCase();
    const length = [...word].length;
    if (length !== this.length) {
      throw new BadInput(`${what} ${quote(word)} has ${length} characters, ${this.id} needs ${this.length}`,
                         {field: what});
    }
    const bad = [...new Set([...word].filter((ch) => !this.letterNumber.has(ch)))].sort();
    if (bad.length) {
      throw new BadInput(`${what} ${quote(word)} uses ${quote(bad.join(""))}, not in the alphabet ` +
                         `${quote(this.alphabet)}`, {field: what});
    }
    return word;
  }

  guessNumber(text) {
    const word = this.word(text);
    const g = this.guessIndex.get(word);
    if (g === undefined) throw new BadInput(`${quote(word)} is not in the allowed list of ${this.id}`, {field: "guess"});
    return g;
  }

  /**
   * Feedback digits of `guess` against `answer`: feedback("salet", "cigar") === "01000".
   * Any two words of the game's length and alphabet, listed or not.
   */
  feedback(guess, answer) {
    const letters = Uint8Array.from([...this.word(guess), ...this.word(answer, "answer")],
                                    (ch) => this.letterNumber.get(ch));
    return codeToDigits(feedbackCode(letters, 0, this.length, this.length, this.unmatched), this.length);
  }

  /** Why guess number g may not follow guess number previous (which got `code`) in hard mode. */
  hardModeViolation(g, previous, code) {
    const word = [...this.guesses[g]];
    const before = [...this.guesses[previous]];
    const trits = [...codeToDigits(code, this.length)].map(Number);
    for (let i = 0; i < trits.length; i++) {
      if (trits[i] === 2 && word[i] !== before[i]) return `position ${i + 1} must be ${quote(before[i])}`;
    }
    const shown = new Map();
    trits.forEach((t, i) => { if (t) shown.set(before[i], (shown.get(before[i]) ?? 0) + 1); });
    for (const [letter, times] of shown) {
      if (word.filter((ch) => ch === letter).length < times) {
        return `it must contain ${quote(letter)}` + (times > 1 ? ` ${times} times` : "");
      }
    }
    return null;
  }

  /** [[guess number, code]] of a history, and the answer numbers still possible (ascending). */
  parseHistory(history, hard) {
    if (!Array.isArray(history)) throw new BadInput("history must be an array of [guess, feedback] pairs");
    const parsed = [];
    let candidates = null;
    let key = "";
    history.forEach((item, index) => {
      const turn = index + 1;
      if (!Array.isArray(item) || item.length !== 2) {
        throw new BadInput(`history item ${turn} must be a (guess, feedback) pair`, {turn});
      }
      const [guess, feedback] = item;
      const [g, code] = atTurn(turn, () => [this.guessNumber(guess),
        Number.isInteger(feedback) ? feedback : parseFeedback(String(feedback), this.length)]);
      if (code < 0 || code > this.allGreen) {
        throw new BadInput(`feedback code ${code} of guess ${turn} is out of range`, {field: "feedback", turn});
      }
      if (hard) {
        parsed.forEach(([pg, pc], earlier) => {
          const why = this.hardModeViolation(g, pg, pc);
          if (why) {
            throw new BadInput(`hard mode: guess ${turn} ${quote(this.guesses[g])} breaks guess ` +
                               `${earlier + 1}'s hint: ${why}`, {field: "guess", turn});
          }
        });
      }
      parsed.push([g, code]);
      key += `${g}:${code};`;
      candidates = this.cachedFilter(key, candidates, g, code);
      if (candidates.length === 0) {
        throw new BadInput(`no answer fits: check the colours of guess ${turn} (${quote(this.guesses[g])})`,
                           {field: "feedback", turn});
      }
    });
    if (candidates === null) candidates = Int32Array.from(this.answers.keys());
    return [parsed, candidates];
  }

  cachedFilter(key, previous, g, code) {
    let candidates = this.prefixCache.get(key);
    if (candidates === undefined) {
      const from = previous ?? Int32Array.from(this.answers.keys());
      candidates = from.filter((a) => this.code(g, a) === code);
      if (this.prefixCache.size >= PREFIX_CACHE_SIZE) {
        this.prefixCache.delete(this.prefixCache.keys().next().value);
      }
      this.prefixCache.set(key, candidates);
    }
    return candidates;
  }

  /**
   * Answers still possible after `history`, in answer-list order.
   * @param {Array<[string, string|number]>} history (guess, feedback) pairs
   * @param {{hard?: boolean}} options hard: also check every guess obeys the hints before it
   */
  candidates(history = [], {hard = false} = {}) {
    const [, candidates] = this.parseHistory(history, hard);
    return Array.from(candidates, (a) => this.answers[a]);
  }

  /** The tree node the history leads to, or null once it leaves the tree (or has none). */
  treeNode(parsed, hard) {
    const tree = this.trees[hard ? "hard" : "normal"];
    if (!tree) return null;
    let node = tree.root;
    for (const [g, code] of parsed) {
      if (node === null || node[0] !== g || code === this.allGreen) return null;
      node = tree.child(node, code);
    }
    return node;
  }

  /**
   * The guess to play next: the tree's while the history follows it, else the best ranked:
   * fewest expected answers left, then one that could win, then guess-list order.
   * @param {Array<[string, string|number]>} history
   * @param {{hard?: boolean}} options hard: hard mode (its own tree; guesses obey every hint)
   */
  nextGuess(history = [], {hard = false} = {}) {
    const [parsed, candidates] = this.parseHistory(history, hard);
    if (candidates.length === 1) return this.answers[candidates[0]];
    const node = this.treeNode(parsed, hard);
    if (node !== null) return this.guesses[node[0]];
    return this.guesses[this.bestRanked(parsed, candidates, hard)];
  }

  bestRanked(parsed, candidates, hard) {
    const isCandidate = new Uint8Array(this.answers.length);
    for (const a of candidates) isCandidate[a] = 1;
    const sizes = new Int32Array(this.allGreen + 1);
    const codes = new Int32Array(candidates.length);
    let best = -1;
    let bestSquares = Infinity;
    let bestIsCandidate = 0;
    for (let g = 0; g < this.guesses.length; g++) {
      if (hard && parsed.some(([pg, pc]) => this.hardModeViolation(g, pg, pc) !== null)) continue;
      let squares = 0;
      for (let i = 0; i < candidates.length; i++) {
        const code = this.code(g, candidates[i]);
        codes[i] = code;
        squares += 2 * sizes[code] + 1;  // (s + 1)^2 - s^2
        sizes[code]++;
      }
      for (const code of codes) sizes[code] = 0;
      const candidate = g < isCandidate.length ? isCandidate[g] : 0;
      if (squares < bestSquares || (squares === bestSquares && candidate > bestIsCandidate)) {
        best = g;
        bestSquares = squares;
        bestIsCandidate = candidate;
      }
    }
    return best;
  }
}

async function loadList(base, role, descriptor, url) {
  const listUrl = new URL(descriptor[role].file, base);
  const bytes = await fetchBytes(listUrl);
  if (sha256Hex(bytes) !== descriptor[role].sha256) {
    throw new BadArtifact(String(listUrl), `does not match the sha256 in ${url}`);
  }
  const words = parseWordList(bytes, listUrl);
  if (words.length !== descriptor[role].count) {
    throw new BadArtifact(String(listUrl), `has ${words.length} words, ${url} says ${descriptor[role].count}`);
  }
  return words;
}

async function loadTree(url, descriptor) {
  let bytes;
  try {
    bytes = await fetchBytes(url);
  } catch (error) {
    // A game may ship without a tree (lookup/guessing/game.py then ranks every guess); a damaged
    // one is refused below.
    if (error instanceof BadArtifact && / HTTP 404/.test(error.message)) return null;
    throw error;
  }
  return readTree(bytes, url, descriptor);
}

/**
 * Check and decode a game descriptor `<id>.game.json` (docs/FORMATS.md, "Descriptor").
 * @param {Uint8Array} bytes the whole file
 * @param {string|URL} url where it came from (named in errors)
 * @throws {BadArtifact} not a descriptor, another version, or damaged
 */
export function readDescriptor(bytes, url) {
  return readSealedJson(bytes, url, GAME_FORMAT, GAME_VERSION,
                        {id: "string", name: "string", alphabet: "string", length: "number",
                         max_guesses: "number", answers: "object", guesses: "object"});
}

/**
 * Check and decode a decision tree file (docs/FORMATS.md, "Decision tree") of a game.
 * @param {Uint8Array} bytes the whole file
 * @param {string|URL} url where it came from (named in errors)
 * @param {object} descriptor the game's descriptor (the lists the tree must be built from)
 * @throws {BadArtifact} not a tree, another version, damaged, or built from other lists
 */
export function readTree(bytes, url, descriptor) {
  let data;
  try {
    data = decode(bytes);
  } catch (error) {
    if (error instanceof MsgpackError) throw new BadArtifact(String(url), `not a complete msgpack ${TREE_FORMAT} (${error.message})`);
    throw error;
  }
  if (!Array.isArray(data) || data.length !== 2 || !Array.isArray(data[1])) {
    throw new BadArtifact(String(url), `not a ${TREE_FORMAT} file: it should be [header, root]`);
  }
  const [header, root] = data;
  checkHeader(header, url, TREE_FORMAT, TREE_VERSION,
              {answers_sha256: "string", guesses_sha256: "string", total: "number", hard: "boolean"});
  checkSeal(bytes, url, "msgpack");
  if (header.answers_sha256 !== descriptor.answers.sha256 || header.guesses_sha256 !== descriptor.guesses.sha256) {
    throw new BadArtifact(String(url), "built from other word lists than the game's");
  }
  return new GuessTree(header, root);
}

/**
 * Load the guessing game `id` from the directory `baseUrl` (`<id>.game.json`, the lists it
 * names, `<id>.tree.msgpack`, `<id>.hard.tree.msgpack`).
 * @param {string|URL} baseUrl e.g. "data/" (relative to the page) or an absolute URL
 * @param {string} id e.g. "wordle-en", "nerdle-classic"
 * @returns {Promise<GuessingGame>}
 * @throws {BadArtifact} a file is missing, damaged, of another version, or from other lists
 */
export async function loadGuessingGame(baseUrl, id) {
  const base = new URL(String(baseUrl).replace(/\/?$/, "/"), globalThis.location?.href);
  const url = new URL(`${id}.game.json`, base);
  const descriptor = readDescriptor(await fetchBytes(url), url);
  const [answers, guesses, normal, hard] = await Promise.all([
    loadList(base, "answers", descriptor, url),
    loadList(base, "guesses", descriptor, url),
    loadTree(new URL(`${id}.tree.msgpack`, base), descriptor),
    loadTree(new URL(`${id}.hard.tree.msgpack`, base), descriptor),
  ]);
  if (answers.some((word, i) => guesses[i] !== word)) {
    throw new BadArtifact(String(url), "its guess list does not start with its answers");
  }
  const alphabet = new Set(descriptor.alphabet);
  const stray = guesses.find((word) => [...word].length !== descriptor.length || [...word].some((ch) => !alphabet.has(ch)));
  if (stray !== undefined) {
    throw new BadArtifact(String(url), `its lists hold ${quote(stray)}, not a word of its length and alphabet`);
  }
  return new GuessingGame(descriptor, answers, guesses, {normal, hard});
}
