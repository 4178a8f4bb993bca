// The page: a word finder over a lexicon, a Wordle/Nerdle helper over a guessing game and a
// crossword move finder (moves.js), all answered in the browser by the readers in js/ from the
// files in data/. The helper's and the move finder's searches run in a worker (worker.js, through
// remote.js), so a long one never freezes the page. Fields may be preset from the query string
// (?letters=retinas&lexicon=enable, ?game=nerdle-classic); the move finder keeps its position in
// the address after "#moves?".

import {BadArtifact, BadInput} from "./js/errors.js";
import {fetchBytes, readSealedJson} from "./js/files.js";
import {Remote, Superseded} from "./remote.js";

const DATA = new URL("data/", location.href);
// data/catalog.json, written by pipeline/build_web.py (docs/FORMATS.md, "The site").
const CATALOG_FORMAT = "web-catalog";
const CATALOG_VERSION = 2;
const TRIT_NAMES = ["grey", "yellow", "green"];
const ANSWERS_SHOWN = 100;
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const lexicons = new Map();
const rules = new Map();
// One worker for the page's long searches, started when a view first needs it.
const remote = new Remote(new URL("worker.js", location.href));
let catalog;
let rows = [];
// Each view shows the answer to its latest request only: an older request still waiting on a
// file (a big game on a slow line) that resolves later is dropped, not shown over the newer.
let finderRequest = 0;
let helperRequest = 0;

function setStatus(text, failed = false) {
  $("status").textContent = text;
  $("status").className = failed ? "failed" : "";
}

/** Show a data problem in the page (never a blank page); anything else is a bug, shown too. */
function showFailure(error) {
  const what = error instanceof BadArtifact ? "Cannot use a data file" : "Something went wrong";
  setStatus(`${what}: ${error.message}`, true);
}

function option(select, value, text) {
  const element = document.createElement("option");
  element.value = value;
  element.textContent = text;
  select.append(element);
}

function cached(map, key, load) {
  if (!map.has(key)) map.set(key, load().catch((error) => { map.delete(key); throw error; }));
  return map.get(key);
}

// ---- word finder -------------------------------------------------------------------------------

function fillScores() {
  const scores = $("scores");
  scores.replaceChildren();
  option(scores, "", "none");
  for (const [id, game] of Object.entries(catalog.crossword)) {
    if (game.lexicon === $("lexicon").value) option(scores, id, game.name);
  }
  scores.selectedIndex = scores.options.length > 1 ? 1 : 0;
}

/** Tile score of `word` from `rack`: letters the rack lacks are blanks and score 0. */
function rackScore(tiles, word, rack) {
  const left = new Map();
  for (const ch of rack) left.set(ch, (left.get(ch) ?? 0) + 1);
  let score = 0;
  for (const ch of word) {
    if (left.get(ch)) {
      left.set(ch, left.get(ch) - 1);
      score += tiles[ch]?.[1] ?? 0;
    }
  }
  return score;
}

async function findWords() {
  const request = ++finderRequest;
  $("letters-error").textContent = "";
  $("filters-error").textContent = "";
  const letters = $("letters").value;
  if (!letters.trim()) {
    $("found").textContent = "Type your letters.";
    $("word-list").replaceChildren();
    return;
  }
  try {
    const started = performance.now();
    const {loadLexicon} = await import("./js/lexicon.js");
    const lexicon = await cached(lexicons, $("lexicon").value,
                                 () => loadLexicon(new URL(`${$("lexicon").value}.dawg.gz`, DATA)));
    const scoring = $("scores").value;
    const {fetchRules} = await import("./js/rules.js");
    const tiles = scoring ? (await cached(rules, scoring, () => fetchRules(
      new URL(`crossword/${scoring}.json`, DATA), {tiles: "object"}))).tiles : null;
    if (request !== finderRequest) return;
    const words = lexicon.unscramble(letters, {
      minLength: Number($("minLength").value), starts: $("starts").value, ends: $("ends").value,
      contains: $("contains").value,
    });
    const elapsed = performance.now() - started;
    showWords(words, tiles, letters.trim().toLowerCase());
    $("found").textContent = `${words.length.toLocaleString("en")} words (${elapsed.toFixed(1)} ms)`;
    setStatus(`${lexicon.name}: ${lexicon.size.toLocaleString("en")} words`);
  } catch (error) {
    if (request !== finderRequest) return;
    if (!(error instanceof BadInput)) return showFailure(error);
    const field = ["starts", "ends", "contains"].includes(error.field) ? "filters" : "letters";
    $(`${field}-error`).textContent = error.message;
    $("found").textContent = "";
    $("word-list").replaceChildren();
  }
}

function showWords(words, tiles, rack) {
  const list = $("word-list");
  list.replaceChildren();
  let group = null;
  for (const word of words) {
    const length = [...word].length;
    if (group?.length !== length) {
      const heading = document.createElement("h3");
      heading.textContent = `${length} letters`;
      group = {length, box: document.createElement("div")};
      list.append(heading, group.box);
    }
    const item = document.createElement("span");
    item.textContent = word;
    if (tiles) {
      const score = document.createElement("sub");
      score.textContent = rackScore(tiles, word, rack);
      item.append(score);
    }
    group.box.append(item);
  }
}

// ---- Wordle / Nerdle helper --------------------------------------------------------------------

function renderRows(errorTurn, message) {
  $("rows").replaceChildren(...rows.map((row, index) => {
    const line = document.createElement("div");
    line.className = "row";
    [...row.word].forEach((letter, position) => {
      const tile = document.createElement("button");
      tile.type = "button";
      tile.className = "tile";
      tile.textContent = letter;
      tile.dataset.trit = row.trits[position];
      tile.title = `${TRIT_NAMES[row.trits[position]]}: click to change`;
      tile.addEventListener("click", () => {
        row.trits[position] = (row.trits[position] + 1) % 3;
        update();
      });
      line.append(tile);
    });
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "remove";
    remove.textContent = "×";
    remove.title = "remove this guess";
    remove.addEventListener("click", () => { rows.splice(index, 1); update(); });
    const error = document.createElement("span");
    error.className = "error";
    error.textContent = errorTurn === index + 1 ? message : "";
    line.append(remove, error);
    return line;
  }));
}

function helperQuestion() {
  return {game: $("game").value, history: rows.map((row) => [row.word, row.trits.join("")]),
          hard: $("hard").checked};
}

function showHelperError(error) {
  if (!(error instanceof BadInput)) return showFailure(error);
  renderRows(error.turn, error.message);
  if (!error.turn) $("guess-error").textContent = error.message;
  $("answers-left").textContent = "";
  $("answers").textContent = "";
  $("next-guess").textContent = "";
}

// Games whose files are still loading in the worker: while any is, the helper's section is
// aria-busy (also what tests wait on to know a late load has come in and been dropped).
let helperLoads = 0;

async function loadHelperGame(game) {
  $("guess").setAttribute("aria-busy", String(++helperLoads > 0));
  try {
    await remote.call("guess.load", {game});
  } finally {
    $("guess").setAttribute("aria-busy", String(--helperLoads > 0));
  }
}

async function update() {
  const request = ++helperRequest;
  $("guess-error").textContent = "";
  renderRows();  // the colours clicked show at once, whatever the worker is doing
  const question = helperQuestion();
  let state;
  try {
    // The game's files first (while they come in, another game may be picked), then the
    // questions, at most one of each kind waiting while the worker ranks.
    await loadHelperGame(question.game);
    if (request !== helperRequest) return;
    state = await remote.latest("guess-state", "guess.state", question);
  } catch (error) {
    if (request === helperRequest && !(error instanceof Superseded)) showHelperError(error);
    return;
  }
  if (request !== helperRequest) return;
  setStatus(`${state.name}: ${state.answers.toLocaleString("en")} answers, ` +
            `${state.guesses.toLocaleString("en")} allowed guesses`);
  const solved = rows.length && rows.at(-1).trits.every((t) => t === 2);
  renderRows();
  $("answers-left").textContent = solved ? `Solved in ${rows.length}.`
    : `${state.leftCount.toLocaleString("en")} answer${state.leftCount === 1 ? "" : "s"} left`;
  $("answers").textContent = solved ? "" : state.left.join(" ") +
    (state.leftCount > state.left.length ? " …" : "");
  $("use-next").hidden = true;
  $("next-guess").textContent = "";
  if (solved) return;
  // Off the decision tree the next guess is a ranking of every allowed guess (1-2 s for
  // Nerdle): it runs in the worker while the answers left are already on screen.
  $("next-guess").textContent = "…";
  let next;
  try {
    next = await remote.latest("guess-next", "guess.next", question);
  } catch (error) {
    if (request === helperRequest && !(error instanceof Superseded)) showHelperError(error);
    return;
  }
  if (request !== helperRequest) return;
  $("next-guess").textContent = next;
  $("use-next").hidden = false;
}

async function addGuess(text) {
  $("guess-error").textContent = "";
  try {
    const {word, length} = await remote.call("guess.word", {game: $("game").value, text});
    rows.push({word, trits: new Array(length).fill(0)});
    $("guess-input").value = "";
    await update();
  } catch (error) {
    if (!(error instanceof BadInput)) return showFailure(error);
    $("guess-error").textContent = error.message;
  }
}

// ---- start -------------------------------------------------------------------------------------

const VIEWS = ["words", "guess", "moves"];
let moveFinder = null;

/** The view and its query of an address's hash: "#moves?game=scrabble-en" -> ["moves", "game=..."]. */
function route(hash) {
  const text = hash.replace(/^#/u, "");
  const at = text.indexOf("?");
  const [view, query] = at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 1)];
  if (VIEWS.includes(view)) return [view, query];
  return [params.has("game") ? "guess" : "words", ""];
}

async function showMoves(query) {
  if (moveFinder === null) {
    try {
      const {MoveFinder} = await import("./moves.js");
      moveFinder ??= new MoveFinder({catalog, remote, data: DATA, setStatus, showFailure});
    } catch (error) {
      return showFailure(error);
    }
  }
  return moveFinder.show(query);
}

function show([view, query]) {
  for (const link of document.querySelectorAll("nav a")) {
    link.toggleAttribute("aria-current", link.dataset.view === view);
    if (link.dataset.view === view) link.setAttribute("aria-current", "page");
  }
  for (const name of VIEWS) $(name).hidden = view !== name;
  if (view === "moves") return showMoves(query);
  return view === "words" ? findWords() : update();
}

async function start() {
  const [view, query] = route(location.hash);
  if (view === "moves") {
    // Opened on the move finder: its module and the worker's game load start now, beside the
    // catalog (a game the catalog lacks fails there in silence; the view says why).
    import("./moves.js").catch(() => {});
    const game = new URLSearchParams(query).get("game") ?? "scrabble-en";
    remote.call("crossword.load", {game}).catch(() => {});
  }
  try {
    const url = new URL("catalog.json", DATA);
    catalog = readSealedJson(await fetchBytes(url), url, CATALOG_FORMAT, CATALOG_VERSION,
                             {guessing: "object", crossword: "object"}, "rebuild it with `make web`");
  } catch (error) {
    return showFailure(error);
  }
  for (const name of catalog.lexicons) option($("lexicon"), name, name);
  for (const [id, name] of Object.entries(catalog.guessing)) option($("game"), id, `${name} (${id})`);
  $("lexicon").value = params.get("lexicon") ?? (catalog.lexicons.includes("enable") ? "enable" : catalog.lexicons[0]);
  $("game").value = params.get("game") ?? ("wordle-en" in catalog.guessing ? "wordle-en" : Object.keys(catalog.guessing)[0]);
  fillScores();
  for (const field of ["letters", "minLength", "starts", "ends", "contains"]) {
    if (params.has(field)) $(field).value = params.get(field);
    $(field).addEventListener("input", findWords);
  }
  $("lexicon").addEventListener("change", () => { fillScores(); findWords(); });
  $("scores").addEventListener("change", findWords);
  $("finder").addEventListener("submit", (event) => { event.preventDefault(); findWords(); });
  $("game").addEventListener("change", () => { rows = []; update(); });
  $("hard").addEventListener("change", update);
  $("guesser").addEventListener("submit", (event) => { event.preventDefault(); addGuess($("guess-input").value); });
  $("use-next").addEventListener("click", () => addGuess($("next-guess").textContent));
  window.addEventListener("hashchange", () => show(route(location.hash)));
  await show(route(location.hash));
}

start();
