// The crossword move finder: a board you type on like a crossword, the rack, the unseen tiles and
// the best moves of the position. js/crossword.js finds the moves in the page's worker
// (worker.js); this module keeps the position, draws it and keeps it in the address:
// #moves?game=scrabble-en&board=15/15/.../7cAt5/...&rack=abc?&by=equity&top=20
// (the board row by row, "/" between rows, a number for a run of empty squares).
//
// The position's squares hold the board text format's symbols (lookup/crossword/board.py): ""
// for an empty square, a lowercase letter for a tile, an UPPERCASE letter for a blank.

import {BadArtifact, BadInput} from "./js/errors.js";
import {fetchRules} from "./js/rules.js";
import {Superseded} from "./remote.js";

const BLANK = "?";
const UNDO_LIMIT = 500;
const TOP_CHOICES = [10, 20, 50, 100];
const SENTINEL = "\u200b";
const ARROWS = {ArrowLeft: ["H", -1], ArrowRight: ["H", 1], ArrowUp: ["V", -1], ArrowDown: ["V", 1]};
const $ = (id) => document.getElementById(id);

/** Python's repr of a one-character string, which the messages quote letters with. */
const quote = (text) => (text === "'" ? `"'"` : `'${text}'`);

/**
 * The board of an address (`15/15/7cAt5/...`) as squares, or BadInput.
 * @param {string} text rows separated by "/", a number for a run of empty squares
 * @param {number} size squares per side
 */
export function decodeBoard(text, size) {
  const rows = text.split("/");
  if (rows.length !== size) {
    throw new BadInput(`the board in the address has ${rows.length} rows; it needs ${size}`, {field: "board"});
  }
  const squares = [];
  rows.forEach((row, r) => {
    const start = squares.length;
    for (const [, run, symbol] of row.matchAll(/(\d+)|(\D)/gu)) {
      if (run) squares.push(...new Array(Number(run)).fill(""));
      else squares.push(symbol === "." ? "" : symbol);
    }
    if (squares.length - start !== size) {
      throw new BadInput(`the board in the address has ${squares.length - start} squares in row ${r}; it needs ${size}`,
                         {field: "board"});
    }
  });
  return squares;
}

/** The address form of a board's squares (decodeBoard reads it back). */
export function encodeBoard(squares, size) {
  const rows = [];
  for (let r = 0; r < size; r++) {
    let row = "";
    let run = 0;
    for (const square of squares.slice(r * size, (r + 1) * size)) {
      if (!square) { run++; continue; }
      if (run) row += run;
      row += square;
      run = 0;
    }
    rows.push(run ? row + run : row);
  }
  return rows.join("/");
}

/** The board text format of a board's squares: `size` lines, "." for an empty square. */
export function boardText(squares, size) {
  let text = "";
  for (let r = 0; r < size; r++) text += squares.slice(r * size, (r + 1) * size).map((s) => s || ".").join("") + "\n";
  return text;
}

/** The squares of a board text that the game has accepted (blank lines around it, spaces in rows dropped). */
function squaresOfText(text) {
  const rows = text.split(/\r?\n/u).map((line) => line.replace(/\s/gu, "")).filter((line) => line);
  return rows.flatMap((row) => [...row].map((ch) => (ch === "." ? "" : ch)));
}

/** The rack tiles a move uses: each new tile's letter, "?" for a blank. */
function usedTiles(move) {
  if (move.kind === "exchange") return [...move.exchanged];
  return move.placed.map(([, , letter, isBlank]) => (isBlank ? BLANK : letter));
}

/** `rack` (lower case) without `used` tiles, in rack order. */
function rackWithout(rack, used) {
  const kept = [...rack.toLowerCase()];
  for (const tile of used) {
    const at = kept.indexOf(tile);
    if (at >= 0) kept.splice(at, 1);
  }
  return kept.join("");
}

/**
 * The new tiles of a play written as in the move list, "H 7,3 caT" (across from row 7 col 3;
 * V down; upper case a blank), on `squares`: [[row, col, letter, isBlank], ...]. Letters on
 * squares that hold a tile must be that tile's.
 * @throws {BadInput} another notation, a square off the board or a letter unlike the board's
 */
export function playTiles(text, squares, size) {
  const found = /^\s*([HV])\s+(\d+)\s*,\s*(\d+)\s+(\S+)\s*$/iu.exec(text);
  if (!found) {
    throw new BadInput(`${quote(text.trim())}: write a play as in the list, e.g. H 7,3 caT (H across, ` +
                       "V down, then row,col from 0 and the letters, upper case for a blank)", {field: "play"});
  }
  const [, direction, row, col, letters] = found;
  const [dr, dc] = direction.toUpperCase() === "H" ? [0, 1] : [1, 0];
  const placed = [];
  [...letters].forEach((symbol, k) => {
    const [r, c] = [Number(row) + k * dr, Number(col) + k * dc];
    if (r >= size || c >= size) throw new BadInput(`the play runs off the board at row ${r} col ${c}`, {field: "play"});
    const tile = squares[r * size + c];
    if (!tile) {
      placed.push([r, c, symbol.toLowerCase(), symbol !== symbol.toLowerCase()]);
    } else if (tile.toLowerCase() !== symbol.toLowerCase()) {
      throw new BadInput(`row ${r} col ${c} holds ${quote(tile)}, not ${quote(symbol)}`, {field: "play"});
    }
  });
  if (!placed.length) throw new BadInput("the play puts no new tile on the board", {field: "play"});
  return placed;
}

export class MoveFinder {
  /**
   * @param {{catalog: object, remote: import("./remote.js").Remote, data: URL,
   *          setStatus: function(string), showFailure: function(Error)}} page
   */
  constructor(page) {
    Object.assign(this, page);
    this.rulesCache = new Map();
    this.gameId = null;
    this.rules = null;
    this.size = 0;
    this.squares = [];
    this.cursor = 0;
    this.direction = "H";
    this.undoStack = [];
    this.moves = [];
    this.turn = null;
    this.listKey = null;
    this.selected = null;
    this.mine = null;
    this.searchRequest = 0;
    this.gameRequest = 0;
    for (const [id, game] of Object.entries(this.catalog.crossword)) {
      const element = document.createElement("option");
      element.value = id;
      element.textContent = game.name;
      $("cw-game").append(element);
    }
    this.bind();
  }

  // ---- the address ----------------------------------------------------------------------------

  /** The view's part of the address: "moves?game=...&board=...". */
  address() {
    const params = [["game", this.gameId]];
    if (this.squares.some(Boolean)) params.push(["board", encodeBoard(this.squares, this.size)]);
    if ($("rack").value) params.push(["rack", $("rack").value]);
    params.push(["by", $("rank-by").value], ["top", $("top").value]);
    // "/" and "?" need no escape in an address's fragment: the board and rack stay readable.
    const escape = (text) => encodeURIComponent(text).replace(/%2F/gu, "/").replace(/%3F/gu, "?");
    return "moves?" + params.map(([key, value]) => `${key}=${escape(value)}`).join("&");
  }

  writeAddress() {
    if (location.hash.startsWith("#moves")) history.replaceState(null, "", `#${this.address()}`);
  }

  /**
   * Show the view with the position of `query` (the address after "#moves?"); an empty query
   * keeps the position on screen (or starts an empty board of the first game).
   */
  async show(query) {
    const params = new URLSearchParams(query);
    if (this.gameId !== null && (!query || `moves?${query}` === this.address())) {
      this.writeAddress();
      this.setStatus(this.statusLine());
      return;
    }
    const games = Object.keys(this.catalog.crossword);
    if (!games.length) {
      this.setStatus("No crossword game is built: run `make crossword` and `make web`.", true);
      return;
    }
    const wanted = params.get("game");
    const game = wanted ?? (games.includes("scrabble-en") ? "scrabble-en" : games[0]);
    if (!games.includes(game)) {
      this.searchRequest++;  // a search still running would put its game's status back
      this.setStatus(`No crossword game ${quote(game)} on this site: pick one of ${games.join(", ")}.`, true);
      return;
    }
    if (TOP_CHOICES.includes(Number(params.get("top")))) $("top").value = params.get("top");
    if (["score", "equity"].includes(params.get("by"))) $("rank-by").value = params.get("by");
    $("rack").value = params.get("rack") ?? "";
    await this.selectGame(game, params.get("board") ?? "");
  }

  // ---- the game -------------------------------------------------------------------------------

  async loadRules(game) {
    if (!this.rulesCache.has(game)) {
      const url = new URL(`crossword/${game}.json`, this.data);
      this.rulesCache.set(game, fetchRules(url, {
        id: "string", name: "string", alphabet: "string", tiles: "object", rack_size: "number",
        placement: "string"}).then((rules) => {
        const size = Array.isArray(rules.board) ? rules.board.length : 0;
        if (!size || !Array.isArray(rules.start) || !(rules.start[0] < size && rules.start[1] < size)) {
          throw new BadArtifact(String(url), "its board or start square is missing or malformed");
        }
        return rules;
      }).catch((error) => { this.rulesCache.delete(game); throw error; }));
    }
    return this.rulesCache.get(game);
  }

  /**
   * Switch to `game` with the board of an address (`encoded`: "" for an empty board; null keeps
   * the board on screen when the new game has all its letters, else starts an empty one).
   */
  async selectGame(game, encoded = null) {
    const request = ++this.gameRequest;
    // The worker starts on the game's files while the page reads its rules (the first search
    // waits for them, and reports any problem).
    this.remote.call("crossword.load", {game}).catch(() => {});
    let rules;
    try {
      rules = await this.loadRules(game);
    } catch (error) {
      if (request === this.gameRequest) this.showFailure(error);
      return;
    }
    if (request !== this.gameRequest) return;
    const previous = this.squares;
    const before = {game: this.gameId, squares: previous, rack: $("rack").value};
    this.gameId = game;
    this.rules = rules;
    this.size = rules.board.length;
    this.letters = new Set(rules.alphabet);
    $("cw-game").value = game;
    this.buildBoard();
    let squares = new Array(this.size * this.size).fill("");
    let problem = "";
    if (encoded !== null) {
      try {
        if (encoded) squares = decodeBoard(encoded, this.size);
      } catch (error) {
        problem = error.message;
      }
    } else if (previous.length === squares.length &&
               previous.every((s) => !s || this.letters.has(s.toLowerCase()))) {
      squares = previous;
    } else if (previous.some(Boolean)) {
      this.undoStack.push(before);  // the board of the other game's letters, back with Undo
    }
    this.squares = squares;
    this.cursor = this.rules.start[0] * this.size + this.rules.start[1];
    this.setStatus(this.statusLine());
    this.changed();
    $("board-error").textContent = problem;  // after changed(): its search clears the messages
  }

  statusLine() {
    const r = this.rules;
    const tiles = Object.values(r.tiles).reduce((sum, [count]) => sum + count, 0);
    return `${r.name}: ${this.size}×${this.size} board, ${tiles} tiles, racks of ${r.rack_size}` +
      (r.placement === "multi" ? ", a turn may form words in several lines" : "");
  }

  // ---- the board ------------------------------------------------------------------------------

  buildBoard() {
    const board = $("board");
    board.style.setProperty("--size", this.size);
    const premiums = this.rules.board.flatMap((row) => row.trim().split(/\s+/u));
    const start = this.rules.start[0] * this.size + this.rules.start[1];
    board.replaceChildren(...premiums.map((premium, index) => {
      const square = document.createElement("div");
      square.className = "sq" + (index === start ? " start" : "");
      square.setAttribute("role", "gridcell");
      square.dataset.index = index;
      if (premium !== ".") square.dataset.premium = premium;
      return square;
    }));
  }

  /** Draw the tiles, the previewed move and the cursor. */
  drawBoard() {
    const preview = new Map();
    const shown = this.selected !== null ? this.shownMove : null;
    for (const [row, col, letter, isBlank] of (this.hovered ?? shown ?? this.mine)?.placed ?? []) {
      preview.set(row * this.size + col, isBlank ? letter.toUpperCase() : letter);
    }
    const squares = $("board").children;
    for (let index = 0; index < squares.length; index++) {
      const symbol = this.squares[index] || preview.get(index) || "";
      const square = squares[index];
      const lower = symbol.toLowerCase();
      const isBlank = symbol !== "" && symbol !== lower;
      square.classList.toggle("tiled", symbol !== "");
      square.classList.toggle("blank", isBlank);
      square.classList.toggle("preview", !this.squares[index] && preview.has(index));
      square.classList.toggle("cursor", index === this.cursor);
      // The square's symbol in the board text format: a tile, else a previewed move's tile.
      square.dataset.tile = this.squares[index];
      square.dataset.preview = this.squares[index] ? "" : preview.get(index) ?? "";
      // Tiles show upper case with their value; a blank shows its letter in lower case, no value.
      square.replaceChildren();
      if (symbol) {
        square.append(isBlank ? lower : lower.toUpperCase());
        if (!isBlank) {
          const value = document.createElement("span");
          value.className = "value";
          value.textContent = this.rules.tiles[lower]?.[1] ?? "";
          square.append(value);
        }
      }
      square.title = `row ${Math.floor(index / this.size)} col ${index % this.size}` +
        (square.dataset.premium ? ` (${square.dataset.premium})` : "");
    }
    $("board").dataset.direction = this.direction;
    $("direction").textContent = this.direction === "H" ? "Across →" : "Down ↓";
    $("undo").disabled = !this.undoStack.length;
    this.placeInput();
  }

  /** Put the field that takes the keys on the cursor's square (a phone scrolls it into view). */
  placeInput() {
    const square = $("board").children[this.cursor];
    if (!square) return;
    const input = $("board-input");
    input.style.left = `${square.offsetLeft}px`;
    input.style.top = `${square.offsetTop}px`;
    input.style.width = `${square.offsetWidth}px`;
    input.style.height = `${square.offsetHeight}px`;
  }

  focusBoard() {
    $("board-input").focus({preventScroll: true});
  }

  /** Remember the position for Undo (before changing it). */
  remember() {
    this.undoStack.push({game: this.gameId, squares: [...this.squares], rack: $("rack").value});
    if (this.undoStack.length > UNDO_LIMIT) this.undoStack.shift();
  }

  undo() {
    const last = this.undoStack.pop();
    if (!last) return;
    $("rack").value = last.rack;
    if (last.game !== this.gameId) {
      this.selectGame(last.game).then(() => { this.squares = last.squares; this.changed(); });
      return;
    }
    this.squares = last.squares;
    this.changed();
  }

  step(direction, delta) {
    const row = Math.floor(this.cursor / this.size);
    const col = this.cursor % this.size;
    const [r, c] = direction === "H" ? [row, col + delta] : [row + delta, col];
    if (r >= 0 && r < this.size && c >= 0 && c < this.size) this.cursor = r * this.size + c;
  }

  /** Put the letters typed on the board from the cursor on, in the typing direction. */
  type(text) {
    const before = this.squares;
    let problem = "";
    for (const ch of text) {
      if (/\s/u.test(ch)) {
        this.turnDirection();
        continue;
      }
      const lower = ch.toLowerCase();
      if (ch === BLANK) {
        problem = `${quote(BLANK)} is a blank on the rack; on the board a blank stands for a ` +
          "letter: type the letter in upper case, or press Blank first";
        continue;
      }
      if (!this.letters.has(lower)) {
        problem = `${quote(ch)} is not a letter of ${this.gameId} (letters: ${this.rules.alphabet})`;
        continue;
      }
      const blank = ch !== lower || $("blank-mode").getAttribute("aria-pressed") === "true";
      const symbol = blank ? lower.toUpperCase() : lower;
      if (this.squares[this.cursor] !== symbol) {
        this.remember();
        this.squares = [...this.squares];
        this.squares[this.cursor] = symbol;
      }
      this.step(this.direction, 1);
    }
    if (this.squares !== before) this.changed(); else this.drawBoard();
    // After changed(): the search it starts clears the messages of the position before.
    $("board-error").textContent = problem;
  }

  erase(back) {
    if (back && !this.squares[this.cursor]) this.step(this.direction, -1);
    if (this.squares[this.cursor]) {
      this.remember();
      this.squares = [...this.squares];
      this.squares[this.cursor] = "";
      this.changed();
    } else {
      this.drawBoard();
    }
  }

  turnDirection() {
    this.direction = this.direction === "H" ? "V" : "H";
    this.drawBoard();
  }

  clearBoard() {
    if (!this.squares.some(Boolean)) return;
    this.remember();
    this.squares = new Array(this.size * this.size).fill("");
    this.cursor = this.rules.start[0] * this.size + this.rules.start[1];
    this.changed();
  }

  /** Use the board text of the paste box (or of a paste on the board), checked by the game. */
  async useBoardText(text) {
    const game = this.gameId;
    $("board-error").textContent = "";
    try {
      await this.remote.call("crossword.parse", {game, text});
    } catch (error) {
      if (!(error instanceof BadInput)) return this.showFailure(error);
      $("board-error").textContent = `pasted board: ${error.message}`;
      return;
    }
    if (game !== this.gameId) return;
    this.remember();
    this.squares = squaresOfText(text);
    this.changed();
  }

  // ---- the position changed -------------------------------------------------------------------

  changed() {
    this.selected = null;
    this.hovered = null;
    this.mine = null;  // a checked play is checked again on the new position (Check)
    for (const id of ["my-play-result", "my-play-error"]) $(id).textContent = "";
    $("play-mine").hidden = true;
    this.drawBoard();
    this.drawUnseen();
    if (!$("board-text").matches(":focus")) $("board-text").value = boardText(this.squares, this.size);
    this.writeAddress();
    this.search();
  }

  /** The tiles neither on the board nor on the rack (the bag and the opponent's rack). */
  drawUnseen() {
    const left = new Map(Object.entries(this.rules.tiles).map(([tile, [count]]) => [tile, count]));
    const take = (tile) => left.set(tile, (left.get(tile) ?? 0) - 1);
    for (const symbol of this.squares) {
      if (symbol) take(symbol === symbol.toLowerCase() ? symbol : BLANK);
    }
    for (const tile of $("rack").value.replace(/\s/gu, "").toLowerCase()) take(tile);
    const over = [...left].filter(([tile, count]) => count < 0 || !(tile in this.rules.tiles));
    if (over.length) {
      // The search names the problem (more tiles of a letter than the set has, or a stranger).
      $("unseen").textContent = "";
      $("unseen-count").textContent = "";
      return;
    }
    const order = [...this.rules.alphabet, BLANK];
    const groups = order.filter((tile) => left.get(tile) > 0).map((tile) => tile.repeat(left.get(tile)));
    const total = [...left.values()].reduce((sum, count) => sum + count, 0);
    $("unseen-count").textContent = `(${total})`;
    $("unseen").textContent = groups.join(" ");
  }

  question() {
    return {game: this.gameId, board: boardText(this.squares, this.size),
            rack: $("rack").value.replace(/\s/gu, ""), by: $("rank-by").value,
            top: Number($("top").value)};
  }

  async search() {
    const request = ++this.searchRequest;
    const question = this.question();
    const status = $("moves-status");
    for (const id of ["board-error", "rack-error", "moves-error"]) $(id).textContent = "";
    $("move-list").classList.add("stale");
    status.classList.add("busy");
    status.textContent = question.rack ? "Searching" : "Checking the board";
    let answer;
    try {
      // The game's files first (while they come in, the position may change again), then the
      // search, at most one waiting while the worker runs another.
      await this.remote.call("crossword.load", {game: question.game});
      if (request !== this.searchRequest) return;
      answer = question.rack
        ? await this.remote.latest("moves", "crossword.moves", question)
        : await this.remote.latest("moves", "crossword.parse", {game: question.game, text: question.board});
    } catch (error) {
      if (error instanceof Superseded || request !== this.searchRequest) return;
      status.classList.remove("busy");
      status.textContent = "";
      this.showMoves(question, {moves: [], turn: null});
      if (!(error instanceof BadInput)) return this.showFailure(error);
      // Next to the field at fault: the rack, the board, else above the list.
      const where = {rack: "rack-error", board: "board-error"}[error.field] ?? "moves-error";
      $(where).textContent = error.message;
      return;
    }
    if (request !== this.searchRequest) return;
    status.classList.remove("busy");
    this.setStatus(this.statusLine());
    if (!question.rack) {
      status.textContent = "Type your rack to see the moves.";
      this.showMoves(question, {moves: [], turn: null});
      return;
    }
    status.textContent = `Best ${answer.moves.length} moves by ${answer.by} (${answer.ms.toFixed(0)} ms)`;
    if (answer.by !== question.by) {
      status.textContent += "; by equity once the leave table has arrived";
      this.awaitLeaves(question.game, request);
    }
    this.showMoves(question, answer);
  }

  /** Search again by equity when the leave table arrives (the list is by score until then). */
  async awaitLeaves(game, request) {
    try {
      await this.remote.call("crossword.leaves", {game});
    } catch (error) {
      if (request !== this.searchRequest) return;
      $("moves-status").textContent = $("moves-status").textContent.replace(/; by equity .*$/u, "");
      $("moves-error").textContent = `No equity: ${error.message}`;
      return;
    }
    if (request === this.searchRequest) this.search();
  }

  // ---- the moves ------------------------------------------------------------------------------

  showMoves(question, {moves, turn, by}) {
    this.moves = moves;
    this.turn = turn;
    this.listKey = JSON.stringify(question);
    this.selected = null;
    this.hovered = null;
    const rack = question.rack;
    const list = $("move-list");
    list.classList.remove("stale");
    // The position the list is for (the tests wait for it).
    Object.assign(list.dataset, {game: question.game, board: question.board, rack, by: by ?? ""});
    list.replaceChildren(...moves.map((move, index) => {
      const row = document.createElement("tr");
      row.dataset.index = index;
      row.dataset.text = move.text;
      row.tabIndex = 0;
      const kept = rackWithout(rack, usedTiles(move));
      const cells = [
        ["move", move.kind === "play" ? move.text.replace(/ -?\d+$/u, "") : move.text],
        ["num", String(move.score)],
        ["leave", kept || "–"],
        ["num", move.equity === null ? "" : move.equity.toFixed(1)],
        ["words", move.words.join(" ")],
      ];
      for (const [className, text] of cells) {
        const cell = document.createElement("td");
        cell.className = className;
        cell.textContent = text;
        row.append(cell);
      }
      if (move.leave !== null) {
        // The value of the tiles kept, in points (equity = score + this, before the bag's end).
        const value = document.createElement("small");
        value.textContent = ` ${move.leave >= 0 ? "+" : "−"}${Math.abs(move.leave).toFixed(1)}`;
        row.children[2].append(value);
      }
      const action = document.createElement("td");
      if (move.placed.length) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "play";
        button.textContent = "Play";
        button.title = "put this move on the board and take its tiles off the rack";
        action.append(button);
      }
      row.append(action);
      return row;
    }));
    $("greedy-turn-line").hidden = !turn;
    $("greedy-turn").textContent = turn ? turn.text : "";
    this.drawBoard();
  }

  /** Show `move` on the board until another is hovered (null: the selected one, if any). */
  hover(move) {
    this.hovered = move;
    this.drawBoard();
  }

  select(index) {
    this.selected = this.selected === index ? null : index;
    this.shownMove = this.selected === null ? null : this.moves[index];
    for (const row of $("move-list").children) {
      row.setAttribute("aria-selected", String(Number(row.dataset.index) === this.selected));
    }
    this.hovered = null;
    this.drawBoard();
  }

  /** Check the play typed in "Score your play": its score, and why it is not legal if not. */
  async checkPlay() {
    const question = this.question();
    for (const id of ["my-play-result", "my-play-error"]) $(id).textContent = "";
    $("play-mine").hidden = true;
    this.mine = null;
    const text = $("my-play").value;
    if (!text.trim()) return this.drawBoard();
    let placed;
    let answer;
    try {
      placed = playTiles(text, this.squares, this.size);
      answer = await this.remote.call("crossword.check", {game: question.game, board: question.board,
                                                          placed, rack: question.rack});
    } catch (error) {
      if (!(error instanceof BadInput)) return this.showFailure(error);
      $("my-play-error").textContent = error.message;
      return this.drawBoard();
    }
    if (JSON.stringify(this.question()) !== JSON.stringify(question)) return;  // moved on
    const {reasons, score} = answer;
    $("my-play-result").textContent = (score === null ? "" : `${score} points`) +
      (reasons.length ? `${score === null ? "" : "; "}not legal: ${reasons.join("; ")}` : ", legal");
    this.mine = {kind: "play", placed, position: JSON.stringify(question)};
    $("play-mine").hidden = reasons.length > 0;
    this.drawBoard();  // shown on the board while no move of the list is
  }

  /** Put `move` (of the list, or checked) on the board and take its tiles off the rack. */
  play(move) {
    // Only on the position it was found or checked on (a list being renewed is not).
    if (!move?.placed.length || (move.position ?? this.listKey) !== JSON.stringify(this.question())) return;
    this.remember();
    this.squares = [...this.squares];
    for (const [row, col, letter, isBlank] of move.placed) {
      this.squares[row * this.size + col] = isBlank ? letter.toUpperCase() : letter;
    }
    $("rack").value = rackWithout($("rack").value.replace(/\s/gu, ""), usedTiles(move));
    this.changed();
  }

  // ---- events ---------------------------------------------------------------------------------

  bind() {
    const input = $("board-input");
    // A click on a square leaves the keys with the board's field (a second click turns).
    $("board").addEventListener("mousedown", (event) => event.preventDefault());
    $("board").addEventListener("click", (event) => {
      const square = event.target.closest(".sq");
      if (!square) return;
      const index = Number(square.dataset.index);
      if (index === this.cursor && document.activeElement === input) this.turnDirection();
      this.cursor = index;
      this.drawBoard();
      this.focusBoard();
    });
    input.addEventListener("keydown", (event) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
        event.preventDefault();
        this.undo();
      } else if (event.key in ARROWS) {
        event.preventDefault();
        const [direction, delta] = ARROWS[event.key];
        this.direction = direction;
        this.step(direction, delta);
        this.drawBoard();
      } else if (event.key === "Backspace" || event.key === "Delete") {
        event.preventDefault();
        this.erase(event.key === "Backspace");
      } else if (event.key === " " || event.key === "Enter") {
        event.preventDefault();
        this.turnDirection();
      } else if (event.key === "Escape") {
        input.blur();
      }
    });
    // Letters arrive as input: a phone's keyboard sends no usable key codes. The field always
    // holds one zero-width space, so that a phone's Backspace has something to delete (and is
    // seen as an input that deletes).
    input.value = SENTINEL;
    input.addEventListener("input", (event) => {
      const text = input.value.replaceAll(SENTINEL, "");
      input.value = SENTINEL;
      if (event.inputType?.startsWith("delete")) this.erase(event.inputType === "deleteContentBackward");
      else if (text) this.type(text);
    });
    input.addEventListener("paste", (event) => {
      const text = event.clipboardData?.getData("text") ?? "";
      if (!text.includes("\n")) return;
      event.preventDefault();
      this.useBoardText(text);
    });
    input.addEventListener("focus", () => this.drawBoard());
    input.addEventListener("blur", () => this.drawBoard());
    $("direction").addEventListener("click", () => { this.turnDirection(); this.focusBoard(); });
    $("blank-mode").addEventListener("click", () => {
      const pressed = $("blank-mode").getAttribute("aria-pressed") !== "true";
      $("blank-mode").setAttribute("aria-pressed", String(pressed));
      this.focusBoard();
    });
    $("undo").addEventListener("click", () => this.undo());
    $("clear").addEventListener("click", () => this.clearBoard());
    $("use-board").addEventListener("click", () => this.useBoardText($("board-text").value));
    $("paste").addEventListener("toggle", () => {
      // Closing drops the edits not used, so the box opens on the board (changed() keeps it
      // current). Not on opening: the toggle event comes after the box is open, and would
      // overwrite a board typed or pasted into it at once.
      if (!$("paste").open) $("board-text").value = boardText(this.squares, this.size);
    });
    $("copy-link").addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(location.href);
        this.setStatus("Link copied: it opens this position.");
      } catch {
        this.setStatus(`The link to this position: ${location.href}`);
      }
    });
    $("cw-game").addEventListener("change", () => this.selectGame($("cw-game").value));
    let rackBefore = null;
    $("rack").addEventListener("focus", () => { rackBefore = $("rack").value; });
    $("rack").addEventListener("change", () => {
      // One Undo step per edit of the rack (not per letter).
      if (rackBefore !== null && rackBefore !== $("rack").value) {
        this.undoStack.push({game: this.gameId, squares: [...this.squares], rack: rackBefore});
      }
      rackBefore = $("rack").value;
    });
    $("rack").addEventListener("input", () => this.changed());
    $("rank-by").addEventListener("change", () => this.changed());
    $("top").addEventListener("change", () => this.changed());
    const list = $("move-list");
    const moveOf = (event) => {
      const row = event.target.closest("tr");
      return row ? [Number(row.dataset.index), this.moves[Number(row.dataset.index)]] : [null, null];
    };
    list.addEventListener("mouseover", (event) => {
      const [, move] = moveOf(event);
      if (move && move !== this.hovered) this.hover(move);
    });
    list.addEventListener("mouseleave", () => this.hover(null));
    list.addEventListener("focusin", (event) => {
      const [, move] = moveOf(event);
      if (move) this.hover(move);
    });
    list.addEventListener("click", (event) => {
      const [index, move] = moveOf(event);
      if (!move) return;
      if (event.target.closest("button.play")) this.play(move);
      else this.select(index);
    });
    list.addEventListener("keydown", (event) => {
      const [, move] = moveOf(event);
      if (move && event.key === "Enter" && event.target.tagName === "TR") this.play(move);
    });
    $("play-turn").addEventListener("click", () => this.play(this.turn));
    $("my-play-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.checkPlay();
    });
    $("play-mine").addEventListener("click", () => this.play(this.mine));
    window.addEventListener("resize", () => this.placeInput());
  }
}
