// Leave tables in the browser or Node: the leave pack `crossword/<id>.leaves.pack.gz` of
// docs/FORMATS.md ("Leave packs"), written by pipeline/build_web_leaves.py from the game's
// leave table (artifacts/leaves/<id>.leaves, int16 values in steps of 1/256 point). The pack
// stores each value as its difference from a prediction made of shorter leaves, which the
// reader makes again, so the values come back exactly (the pack's sha256 of them is checked).
//
// A leave is a multiset of 1 to max_tiles tile codes (0 a blank, k the letter alphabet[k - 1]),
// at most counts[k] of code k. Leaves are numbered by size, then in lexicographic order of
// their ascending codes (the order of lookup/crossword/leaves.py's keys); `LeaveTable.index`
// computes that number directly (the combinatorial rank), so a lookup needs no key table.

import {BadArtifact} from "./errors.js";
import {checkHeader, fetchBytes, sha256Hex} from "./files.js";
import {decode, MsgpackError} from "./msgpack.js";

const PACK_FORMAT = "leave-pack";
const PACK_VERSION = 1;
// A residual's zig-zag code below ESCAPE is one byte; ESCAPE says it is ESCAPE + the next
// LEB128 varint of the escapes section.
const ESCAPE = 255;
const REBUILD = "rebuild it with `make web`";

/** The value of every leave of a game, in 1/scale points. */
export class LeaveTable {
  /**
   * @param {number[]} counts tiles of each code in the set (index 0 the blanks)
   * @param {number} maxTiles the longest leave (rack size - 1)
   * @param {Int16Array|null} values one per leave in index order (null: fill them in later)
   * @param {number} scale values are in 1/scale points
   */
  constructor(counts, maxTiles, values, scale) {
    this.counts = counts;
    this.maxTiles = maxTiles;
    this.scale = scale;
    const codes = counts.length;
    // within[m * (codes + 1) + c]: multisets of m tiles of codes c.. (c = codes: none left).
    const width = codes + 1;
    const within = new Float64Array((maxTiles + 1) * width);
    for (let c = 0; c <= codes; c++) within[c] = 1;
    for (let m = 1; m <= maxTiles; m++) {
      for (let c = codes - 1; c >= 0; c--) {
        let sum = 0;
        for (let j = 0; j <= Math.min(m, counts[c]); j++) sum += within[(m - j) * width + c + 1];
        within[m * width + c] = sum;
      }
    }
    this.within = within;
    this.width = width;
    // first[n]: the number of the first leave of n tiles.
    this.first = new Float64Array(maxTiles + 2);
    for (let n = 1; n <= maxTiles; n++) this.first[n + 1] = this.first[n] + within[n * width];
    /** How many leaves the table holds. */
    this.size = this.first[maxTiles + 1];
    this.values = values;
  }

  /**
   * The number of a leave: its codes ascending, `length` of them from `at`; -1 when it is
   * empty or longer than maxTiles (the caller keeps codes within the set's counts).
   */
  index(codes, at = 0, length = codes.length) {
    if (length < 1 || length > this.maxTiles) return -1;
    const {within, width, counts} = this;
    let number = this.first[length];
    let previous = -1;
    let run = 0;
    for (let i = 0; i < length; i++) {
      const code = codes[at + i];
      const m = length - i;
      if (code === previous) {
        run += 1;
        continue;
      }
      if (previous < 0) {
        number += within[m * width] - within[m * width + code];
      } else {
        // The rest starting with `previous` again (room for counts - run more), then with a
        // smallest code between previous and code.
        for (let j = 1; j <= Math.min(m, counts[previous] - run); j++) number += within[(m - j) * width + previous + 1];
        number += within[m * width + previous + 1] - within[m * width + code];
      }
      previous = code;
      run = 1;
    }
    return number;
  }

  /** The value of a leave (codes in any order) in 1/scale points; 0 for none or a whole rack. */
  scaled(codes) {
    const sorted = Int32Array.from(codes).sort();
    const number = this.index(sorted);
    return number < 0 ? 0 : this.values[number];
  }
}

/**
 * The prediction of a leave's value from the leaves one tile shorter (docs/FORMATS.md, "Leave
 * packs"): the sum over its tiles t of value(leave - t) + value(t), divided by its size and
 * rounded half up; 0 for one tile.
 */
function predict(table, leave, length, without) {
  if (length === 1) return 0;
  const values = table.values;
  let sum = 0;
  for (let i = 0; i < length; i++) {
    if (i && leave[i] === leave[i - 1]) {
      sum += without;
      continue;
    }
    let k = 0;
    for (let j = 0; j < length; j++) if (j !== i) table.scratch[k++] = leave[j];
    without = values[table.index(table.scratch, 0, length - 1)] + values[table.index(leave, i, 1)];
    sum += without;
  }
  return Math.floor((2 * sum + length) / (2 * length));
}

/**
 * Decode a leave pack (the whole file, gzip already undone) for a game's rules.
 * @param {Uint8Array} bytes
 * @param {string|URL} url where it came from (named in errors)
 * @param {{id: string, letters: string[], counts: number[], rackSize: number}} rules
 * @returns {Promise<LeaveTable>}
 * @throws {BadArtifact} not a leave pack, another version, other rules, damaged
 */
export async function readLeavePack(bytes, url, rules) {
  let data;
  try {
    data = decode(bytes);
  } catch (error) {
    if (error instanceof MsgpackError) throw new BadArtifact(String(url), `not a leave pack (${error.message})`, REBUILD);
    throw error;
  }
  if (!Array.isArray(data) || data.length !== 3) throw new BadArtifact(String(url), "not a leave pack", REBUILD);
  const [header, residuals, escapes] = data;
  checkHeader(header, url, PACK_FORMAT, PACK_VERSION, {
    game: "string", alphabet: "string", max_tiles: "number", leaves: "number", scale: "number",
    escapes: "number", values_sha256: "string"});
  const counts = header.counts;
  if (header.alphabet !== rules.letters.join("") || !Array.isArray(counts) ||
      counts.join(",") !== rules.counts.join(",") || header.max_tiles !== rules.rackSize - 1) {
    throw new BadArtifact(String(url), `made for other ${rules.id} rules (alphabet, tile counts or rack size differ)`, REBUILD);
  }
  const table = new LeaveTable(counts, header.max_tiles, null, header.scale);
  if (header.leaves !== table.size || !(residuals instanceof Uint8Array) || residuals.length !== table.size ||
      !(escapes instanceof Uint8Array)) {
    throw new BadArtifact(String(url), `holds ${residuals?.length} values where ${rules.id} has ${table.size} leaves: damaged`, REBUILD);
  }
  const values = new Int16Array(table.size);
  table.values = values;
  table.scratch = new Int32Array(table.maxTiles);
  const leave = new Int32Array(table.maxTiles);
  let number = 0;
  let escapeAt = 0;
  let escaped = 0;
  const residual = () => {
    let code = residuals[number];
    if (code === ESCAPE) {
      let extra = 0;
      for (let scale = 1; ; scale *= 128) {
        if (escapeAt >= escapes.length) throw new Error("escapes section ends early");
        const byte = escapes[escapeAt++];
        extra += (byte & 0x7f) * scale;
        if (byte < 0x80) break;
      }
      code += extra;
      escaped += 1;
    }
    return code % 2 ? -(code + 1) / 2 : code / 2;
  };
  // Every leave of n tiles in order: ascending codes, at most counts[c] of code c.
  const fill = (length, at, from) => {
    if (at === length) {
      const value = predict(table, leave, length, 0) + residual();
      if (value < -32768 || value > 32767) throw new Error(`leave ${number} is out of range`);
      values[number++] = value;
      return;
    }
    for (let code = from; code < counts.length; code++) {
      let run = 0;
      for (let i = at - 1; i >= 0 && leave[i] === code; i--) run += 1;
      if (run >= counts[code]) continue;
      leave[at] = code;
      fill(length, at + 1, code);
    }
  };
  try {
    for (let length = 1; length <= table.maxTiles; length++) fill(length, 0, 0);
    if (escapeAt !== escapes.length || escaped !== header.escapes) throw new Error("escapes section does not match");
  } catch (error) {
    throw new BadArtifact(String(url), `its values do not decode (${error.message}): damaged`, REBUILD);
  }
  const digest = await sha256Hex(new Uint8Array(values.buffer));
  if (digest !== null && digest !== header.values_sha256) {
    throw new BadArtifact(String(url), "its values do not match their sha256: damaged", REBUILD);
  }
  delete table.scratch;
  return table;
}

/**
 * Fetch and decode the leave pack at `url` (docs/FORMATS.md, "Leave packs").
 * @throws {BadArtifact} missing, not a leave pack, another version, other rules, damaged
 */
export async function loadLeavePack(url, rules) {
  return readLeavePack(await fetchBytes(url), url, rules);
}
