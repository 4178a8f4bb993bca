// The page: a word finder over a lexicon and a Wordle/Nerdle helper over a guessing game, both
// answered in the browser by the readers in js/ from the files in data/. Fields may be preset
// from the query string (?letters=retinas&lexicon=enable, ?game=nerdle-classic).

import {BadArtifact, BadInput} from "./js/errors.js";
import {fetchJson} from "./js/files.js";
import {loadGuessingGame} from "./js/guessing.js";
import {loadLexicon} from "./js/lexicon.js";

const DATA = new URL("data/", location.href);
const TRIT_NAMES = ["grey", "yellow", "green"];
const ANSWERS_SHOWN = 100;
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const lexicons = new Map();
const games = new Map();
const rules = new Map();
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
    const lexicon = await cached(lexicons, $("lexicon").value,
                                 () => loadLexicon(new URL(`${$("lexicon").value}.dawg.gz`, DATA)));
    const scoring = $("scores").value;
    const tiles = scoring ? (await cached(rules, scoring,
                                          () => fetchJson(new URL(`crossword/${scoring}.json`, DATA)))).tiles : null;
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

function currentGame() {
  const id = $("game").value;
  return cached(games, id, () => loadGuessingGame(DATA, id));
}

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

async function update() {
  const request = ++helperRequest;
  $("guess-error").textContent = "";
  try {
    const game = await currentGame();
    if (request !== helperRequest) return;
    setStatus(`${game.name}: ${game.answers.length.toLocaleString("en")} answers, ` +
              `${game.guesses.length.toLocaleString("en")} allowed guesses`);
    const history = rows.map((row) => [row.word, row.trits.join("")]);
    const hard = $("hard").checked;
    const solved = rows.length && rows.at(-1).trits.every((t) => t === 2);
    const left = game.candidates(history, {hard});
    renderRows();
    $("answers-left").textContent = solved ? `Solved in ${rows.length}.`
      : `${left.length.toLocaleString("en")} answer${left.length === 1 ? "" : "s"} left`;
    $("answers").textContent = solved ? "" : left.slice(0, ANSWERS_SHOWN).join(" ") +
      (left.length > ANSWERS_SHOWN ? " …" : "");
    $("next-guess").textContent = solved ? "" : game.nextGuess(history, {hard});
    $("use-next").hidden = solved;
  } catch (error) {
    if (request !== helperRequest) return;
    if (!(error instanceof BadInput)) return showFailure(error);
    renderRows(error.turn, error.message);
    if (!error.turn) $("guess-error").textContent = error.message;
    $("answers-left").textContent = "";
    $("answers").textContent = "";
    $("next-guess").textContent = "";
  }
}

async function addGuess(text) {
  $("guess-error").textContent = "";
  try {
    const game = await currentGame();
    const word = game.guesses[game.guessNumber(text)];
    rows.push({word, trits: new Array(game.length).fill(0)});
    $("guess-input").value = "";
    await update();
  } catch (error) {
    if (!(error instanceof BadInput)) return showFailure(error);
    $("guess-error").textContent = error.message;
  }
}

// ---- start -------------------------------------------------------------------------------------

function show(view) {
  for (const link of document.querySelectorAll("nav a")) {
    link.toggleAttribute("aria-current", link.dataset.view === view);
    if (link.dataset.view === view) link.setAttribute("aria-current", "page");
  }
  $("words").hidden = view !== "words";
  $("guess").hidden = view !== "guess";
  return view === "words" ? findWords() : update();
}

async function start() {
  try {
    catalog = await fetchJson(new URL("catalog.json", DATA));
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
  window.addEventListener("hashchange", () => show(location.hash.slice(1) || "words"));
  await show(location.hash.slice(1) || (params.has("game") ? "guess" : "words"));
}

start();
