// Leave tables in the browser or Node: the leave pack `crossword/<id>.leaves.pack.gz` of
// docs/FORMATS.md ("Leave packs"), written by pipeline/build_web_leaves.py from the game's
// leave table (artifacts/leaves/<id>.leaves, int16 values in steps of 1/256 point). The pack
// stores each value as its difference from a prediction made of the leaves one tile shorter,
// which the reader makes again from the values it has decoded already, so every value comes
// back exactly.
//
// A leave is a multiset of 1 to max_tiles tile codes (0 a blank, k the letter alphabet[k - 1]),
// at most counts[k] of code k. Leaves are numbered by size, then in lexicographic order of
// their ascending codes (the order of lookup/crossword/leaves.py's keys); `LeaveTable.index`
// computes that number directly (the multiset's rank), so a lookup needs no table of keys.

import {BadArtifact} from "./errors.js";
import {checkHeader, checkSeal, fetchBytes} from "./files.js";
import {decode, MsgpackError} from "./msgpack.js";

const PACK_FORMAT = "leave-pack";
const PACK_VERSION = 1;
// A residual's zig-zag code below ESCAPE is one byte; the byte ESCAPE says the code is ESCAPE
// plus the next LEB128 varint of the escapes section (pipeline/build_web_leaves.py).
const ESCAPE = 255;
const MAX_VARINT_BYTES = 5;
const REBUILD = "rebuild it with `make web`";

/** The value of every leave of a game, in 1/scale points. */
export class LeaveTable {
  /**
   * @param {number[]} counts tiles of each code in the set (index 0 the blanks)
   * @param {number} maxTiles the longest leave (rack size - 1)
   * @param {Int16Array} values one per leave, in the order of their numbers
   * @param {number} scale values are in 1/scale points
   */
  constructor(counts, maxTiles, values, scale) {
    this.counts = counts;
    this.maxTiles = maxTiles;
    this.scale = scale;
    this.values = values;
    const codes = counts.length;
    // within(m, c) = within[m * width + c]: the multisets of m tiles of codes c and up.
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
    // first[n]: the number of the first leave of n tiles.
    const first = new Float64Array(maxTiles + 2);
    for (let n = 1; n <= maxTiles; n++) first[n + 1] = first[n] + within[n * width];
    /** How many leaves there are. */
    this.size = first[maxTiles + 1];
    // The rank of a leave c_1 <= ... <= c_n adds, at each position i where the code changes,
    // the multisets that agree before i and are smaller at i. With m = n - i + 1 tiles left:
    // at i = 1, those starting below c_1: within(m, 0) - within(m, c_1) (`opening`); after a
    // run of r codes p, those going on with p (room for counts[p] - r more: `again`) plus those
    // whose next code lies between p and c_i: within(m, p + 1) - within(m, c_i).
    this.opening = new Float64Array((maxTiles + 1) * width);
    this.again = new Float64Array((maxTiles + 1) * width * (maxTiles + 1));
    for (let m = 1; m <= maxTiles; m++) {
      for (let c = 0; c < codes; c++) {
        this.opening[m * width + c] = within[m * width] - within[m * width + c];
        for (let r = 1; r <= maxTiles; r++) {
          let sum = within[m * width + c + 1];
          for (let j = 1; j <= Math.min(m, counts[c] - r); j++) sum += within[(m - j) * width + c + 1];
          this.again[(m * width + c) * (maxTiles + 1) + r] = sum;
        }
      }
    }
    this.within = within;
    this.width = width;
    this.first = first;
    this.sorted = new Int32Array(maxTiles + 1);
  }

  /**
   * The number of a leave given as `length` ascending codes from `at`; -1 for none or more
   * than maxTiles (the codes must keep within the set's counts).
   */
  index(codes, at = 0, length = codes.length) {
    if (length < 1 || length > this.maxTiles) return -1;
    const {within, width, again} = this;
    const stride = this.maxTiles + 1;
    let previous = codes[at];
    let number = this.first[length] + this.opening[length * width + previous];
    let run = 1;
    for (let i = 1; i < length; i++) {
      const code = codes[at + i];
      if (code === previous) {
        run += 1;
        continue;
      }
      const m = length - i;
      number += again[(m * width + previous) * stride + run] - within[m * width + code];
      previous = code;
      run = 1;
    }
    return number;
  }

  /** The value of a leave (codes in any order) in 1/scale points; 0 for none or a whole rack. */
  scaled(codes) {
    if (codes.length > this.maxTiles) return 0;
    const sorted = this.sorted.subarray(0, codes.length);
    sorted.set(codes);
    sorted.sort();
    const number = this.index(sorted);
    return number < 0 ? 0 : this.values[number];
  }
}

/**
 * Decode a leave pack (the whole file, gzip undone) made for a game's rules.
 * @param {Uint8Array} bytes
 * @param {string|URL} url where it came from (named in errors)
 * @param {{id: string, letters: string[], counts: number[], rackSize: number}} rules
 * @returns {LeaveTable}
 * @throws {BadArtifact} not a leave pack, another version, other rules, damaged
 */
export function readLeavePack(bytes, url, rules) {
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
    escapes: "number"});
  checkSeal(bytes, url, "msgpack", REBUILD);
  const counts = header.counts;
  if (header.alphabet !== rules.letters.join("") || !Array.isArray(counts) ||
      counts.join(",") !== rules.counts.join(",") || header.max_tiles !== rules.rackSize - 1) {
    throw new BadArtifact(String(url), `made for other ${rules.id} rules (alphabet, tile counts or rack size differ)`, REBUILD);
  }
  const table = new LeaveTable(counts, header.max_tiles, new Int16Array(header.leaves), header.scale);
  if (header.leaves !== table.size || !(residuals instanceof Uint8Array) || residuals.length !== table.size ||
      !(escapes instanceof Uint8Array) || !(header.scale > 0)) {
    throw new BadArtifact(String(url), `holds ${residuals?.length} values where ${rules.id} has ${table.size} leaves: damaged`, REBUILD);
  }
  try {
    decodeValues(table, residuals, escapes, header.escapes);
  } catch (error) {
    throw new BadArtifact(String(url), `its values do not decode (${error.message}): damaged`, REBUILD);
  }
  return table;
}

/**
 * Fill the table's values from the residuals: leave by leave in number order, each the
 * prediction (docs/FORMATS.md, "Leave packs") plus its residual.
 */
function decodeValues(table, residuals, escapes, escapeCount) {
  const {values, counts, maxTiles} = table;
  const leave = new Int32Array(maxTiles);
  const without = new Int32Array(maxTiles);
  let number = 0;
  let escapeAt = 0;
  let escaped = 0;
  const next = () => {
    let code = residuals[number];
    if (code === ESCAPE) {
      let extra = 0;
      for (let k = 0, scale = 1; ; k++, scale *= 128) {
        if (escapeAt >= escapes.length || k === MAX_VARINT_BYTES) throw new Error("an escape does not decode");
        const byte = escapes[escapeAt++];
        extra += (byte & 0x7f) * scale;
        if (byte < 0x80) break;
      }
      code += extra;
      escaped += 1;
    }
    return code % 2 ? -(code + 1) / 2 : code / 2;
  };
  // The prediction: the sum over the tiles t of value(leave - t) + value(t), over the size,
  // rounded half up (equal tiles give equal terms).
  const predict = (length) => {
    let sum = 0;
    let term = 0;
    for (let i = 0; i < length; i++) {
      if (!i || leave[i] !== leave[i - 1]) {
        let k = 0;
        for (let j = 0; j < length; j++) if (j !== i) without[k++] = leave[j];
        term = values[table.index(without, 0, length - 1)] + values[table.index(leave, i, 1)];
      }
      sum += term;
    }
    return Math.floor((2 * sum + length) / (2 * length));
  };
  // Every leave of `length` tiles, in order: ascending codes, at most counts[c] of code c.
  const fill = (length, at, from, run) => {
    if (at === length) {
      const value = (length > 1 ? predict(length) : 0) + next();
      if (value < -32768 || value > 32767) throw new Error(`leave ${number} is out of range`);
      values[number++] = value;
      return;
    }
    for (let code = from; code < counts.length; code++) {
      const same = at && code === leave[at - 1] ? run : 0;
      if (same >= counts[code]) continue;
      leave[at] = code;
      fill(length, at + 1, code, same + 1);
    }
  };
  for (let length = 1; length <= maxTiles; length++) fill(length, 0, 0, 0);
  if (escapeAt !== escapes.length || escaped !== escapeCount) throw new Error("its escapes section does not match");
}

/**
 * Fetch and decode the leave pack at `url` (docs/FORMATS.md, "Leave packs").
 * @throws {BadArtifact} missing, not a leave pack, another version, other rules, damaged
 */
export async function loadLeavePack(url, rules) {
  return readLeavePack(await fetchBytes(url), url, rules);
}
