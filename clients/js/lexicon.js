// Lexicons in the browser or Node: the packed word graph of a `.dawg` file (docs/FORMATS.md,
// "Word graphs", version 4), checked against its sha256 and decoded once at load into the words and counts layout of the
// runtime index (the same typed arrays lookup/graph.py maps from the `.idx` file). The queries
// and their order are those of lookup/dawg.py: results longest first, then in code point order.

import {BadArtifact, BadInput} from "./errors.js";
import {fetchBytes, sha256} from "./files.js";

const HEADER_BYTES = 128;
const GRAPH_VERSION = 4;
// The header's file_sha256: the digest of the whole file with these 32 bytes zeroed.
const FILE_SHA256_AT = 48;
const FILE_SHA256_BYTES = 32;
// A LEB128 varint of a u32 takes at most 5 bytes.
const MAX_VARINT_BYTES = 5;
const FLAG_COUNTS = 0x1;
// Packed arcs (lookup/formats.py PACKED_*, REF_*).
const PACKED_TILE = 0x1f;
const PACKED_TILE_ESCAPE = 0x1f;
const PACKED_ACCEPTS = 0x20;
const PACKED_LAST = 0x40;
const PACKED_REF = 0x80;
const REF_NO_CHILD = 0;
const REF_NEW_SHARED = 1;
const REF_SHARED_BASE = 2;
// Files with a perfect hash (counts section); a GADDAG has none and answers other queries.
const MAGICS = {"WPDAWG\0\0": "DAWG", "WPTRIE\0\0": "packed trie"};
const ARC_TILE = 0x3f;
const ARC_ACCEPTS = 0x40;
const ARC_LAST = 0x80;
const ARC_CHILD_SHIFT = 8;
const BLANK = "?";
const ANY_RUN = "*";
const MAX_QUERY_LETTERS = 20;
const MAX_PATTERN_LENGTH = 64;
const REBUILD = "rebuild it with `make lexicons`";

function popcount(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function quote(text) {
  return text.includes("'") && !text.includes('"') ? `"${text}"` : `'${text}'`;
}

function longestFirst(a, b) {
  return b.length - a.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** One lexicon; build it with loadLexicon. */
export class Lexicon {
  constructor(name, alphabet, wordCount, words, stride, counts) {
    /** The name: the file's stem ("enable"). */
    this.name = name;
    /** The letters in tile order: tile k is alphabet[k - 1]. */
    this.alphabet = alphabet;
    /** Number of words. */
    this.size = wordCount;
    // words[stride * i] is word i of the words section (the low 32 bits of an 8-byte word);
    // arcs[i] is word i + 1, and the mask of the node at arc p is word p (bits 32-63 at
    // words[stride * p + 1] when stride is 2).
    this.words = words;
    this.stride = stride;
    this.counts = counts;
    this.tile = new Map(alphabet.map((letter, i) => [letter, i + 1]));
    this.root = this.arc(0) >>> ARC_CHILD_SHIFT;
  }

  arc(i) {
    return this.words[this.stride * (i + 1)];
  }

  /** Index in `arcs` of the arc of `tile` in the node at p, or -1 when the node has none. */
  arcOf(p, tile) {
    const low = this.words[this.stride * p];
    if (tile < 32) {
      if (!((low >>> tile) & 1)) return -1;
      return p + popcount(low & (2 ** tile - 1));
    }
    const high = this.words[this.stride * p + 1];
    if (!((high >>> (tile - 32)) & 1)) return -1;
    return p + popcount(low) + popcount(high & (2 ** (tile - 32) - 1));
  }

  /** Whether `word` (lowercase, normalized, as stored) is a word. */
  has(word) {
    if (typeof word !== "string" || !word) return false;
    let p = this.root;
    let arc = 0;
    for (const letter of word) {
      const tile = this.tile.get(letter);
      const q = tile === undefined || !p ? -1 : this.arcOf(p, tile);
      if (q < 0) return false;
      arc = this.arc(q);
      p = arc >>> ARC_CHILD_SHIFT;
    }
    return (arc & ARC_ACCEPTS) !== 0;
  }

  /**
   * Position of `word` in the sorted lexicon (the perfect hash), or -1 when it is not a word.
   */
  index(word) {
    const counts = this.counts;
    let index = 0;
    let p = this.root;
    const letters = [...String(word)];
    for (let depth = 0; depth < letters.length; depth++) {
      const tile = this.tile.get(letters[depth]);
      const q = tile === undefined || !p ? -1 : this.arcOf(p, tile);
      if (q < 0) return -1;
      const arc = this.arc(q);
      index += counts[p] - counts[q];
      if (depth === letters.length - 1) return arc & ARC_ACCEPTS ? index : -1;
      if (arc & ARC_ACCEPTS) index += 1;
      p = arc >>> ARC_CHILD_SHIFT;
    }
    return -1;
  }

  /**
   * The word at position `i` of the sorted lexicon (inverse of index).
   * @throws {RangeError} i outside 0..size-1
   */
  word(i) {
    if (!Number.isInteger(i) || i < 0 || i >= this.size) {
      throw new RangeError(`word index ${i} out of range 0..${this.size - 1}`);
    }
    const counts = this.counts;
    const letters = [];
    let p = this.root;
    for (;;) {
      const arc = this.arc(p);
      const under = counts[p] - (arc & ARC_LAST ? 0 : counts[p + 1]);
      if (i >= under) {
        i -= under;
        p += 1;
        continue;
      }
      letters.push(this.alphabet[(arc & ARC_TILE) - 1]);
      if (arc & ARC_ACCEPTS) {
        if (i === 0) return letters.join("");
        i -= 1;
      }
      p = arc >>> ARC_CHILD_SHIFT;
    }
  }

  clean(text, what, extra = "") {
    if (typeof text !== "string") throw new BadInput(`${what} must be a string, not ${typeof text}`, {field: what});
    const cleaned = text.trim().normalize("NFC").toLowerCase();
    for (const ch of cleaned) {
      if (!this.tile.has(ch) && !extra.includes(ch)) {
        throw new BadInput(`${quote(ch)} in ${what} ${quote(cleaned)} is not in the ${this.name} ` +
                           `alphabet (use ${this.alphabet.join("")}${extra})`, {field: what});
      }
    }
    return cleaned;
  }

  rack(text, what) {
    const letters = [...this.clean(text, what, BLANK)];
    if (!letters.length) throw new BadInput(`${what} is empty: give at least one letter`, {field: what});
    if (letters.length > MAX_QUERY_LETTERS) {
      throw new BadInput(`${what} has ${letters.length} letters; at most ${MAX_QUERY_LETTERS}`, {field: what});
    }
    const rack = new Int32Array(this.alphabet.length + 1);
    let blanks = 0;
    for (const letter of letters) {
      if (letter === BLANK) blanks += 1; else rack[this.tile.get(letter)] += 1;
    }
    return [rack, blanks, letters.length];
  }

  /**
   * Words of minLength..maxLength letters spelled from the rack (blanks any letter) that start
   * with `starts`. A real tile is used before a blank: swapping a blank for an equal tile never
   * changes which words are makeable, so each prefix is visited once.
   */
  makeable(rack, blanks, minLength, maxLength, starts) {
    const forced = [...starts].map((ch) => this.tile.get(ch));
    const found = [];
    const walk = (p, blanksLeft, prefix, depth) => {
      const want = depth <= forced.length ? forced[depth - 1] : 0;
      for (;; p++) {
        const arc = this.arc(p);
        const tile = arc & ARC_TILE;
        if (!want || tile === want) {
          const child = arc >>> ARC_CHILD_SHIFT;
          const word = prefix + this.alphabet[tile - 1];
          if (rack[tile]) {
            rack[tile] -= 1;
            if (arc & ARC_ACCEPTS && depth >= minLength) found.push(word);
            if (child && depth < maxLength) walk(child, blanksLeft, word, depth + 1);
            rack[tile] += 1;
          } else if (blanksLeft) {
            if (arc & ARC_ACCEPTS && depth >= minLength) found.push(word);
            if (child && depth < maxLength) walk(child, blanksLeft - 1, word, depth + 1);
          }
        }
        if (arc & ARC_LAST) return;
      }
    };
    if (this.root && maxLength > 0) walk(this.root, blanks, "", 1);
    return found.sort(longestFirst);
  }

  /** Words that use exactly these letters; "?" is a blank. */
  anagrams(letters) {
    const [rack, blanks, total] = this.rack(letters, "letters");
    return this.makeable(rack, blanks, total, total, "");
  }

  /**
   * Every word spelled from some of these letters ("?" = blank), longest first.
   * @param {string} letters the rack, e.g. "retinas?"
   * @param {{minLength?: number, starts?: string, ends?: string, contains?: string}} options
   *   minLength: shortest word (default 2); the filters' letters still come from the rack
   */
  unscramble(letters, {minLength = 2, starts = "", ends = "", contains = ""} = {}) {
    const [rack, blanks, total] = this.rack(letters, "letters");
    if (!Number.isInteger(minLength) || minLength < 1) {
      throw new BadInput(`minimum length must be a positive integer, not ${minLength}`, {field: "minLength"});
    }
    const start = this.clean(starts, "starts");
    const end = this.clean(ends, "ends");
    const inside = this.clean(contains, "contains");
    return this.makeable(rack, blanks, minLength, total, start)
      .filter((word) => word.endsWith(end) && word.includes(inside));
  }

  /** Words matching a pattern: "?" one letter, "*" any run (even empty), letters fixed. */
  match(pattern) {
    const text = this.clean(pattern, "pattern", BLANK + ANY_RUN);
    if (!text) throw new BadInput("pattern is empty: use letters, '?' and '*'", {field: "pattern"});
    const symbols = [...text];
    if (symbols.length > MAX_PATTERN_LENGTH) {
      throw new BadInput(`pattern has ${symbols.length} symbols; at most ${MAX_PATTERN_LENGTH}`, {field: "pattern"});
    }
    const tokens = symbols.map((ch) => this.tile.get(ch) ?? ch);
    const end = tokens.length;
    // A state set is the pattern positions reached; closure adds those a "*" reaches empty.
    const closure = (states) => {
      const result = new Set();
      for (let s of states) {
        result.add(s);
        while (s < end && tokens[s] === ANY_RUN) result.add(++s);
      }
      return result;
    };
    const step = (states, tile) => {
      const next = new Set();
      for (const s of states) {
        if (s >= end) continue;
        const token = tokens[s];
        if (token === ANY_RUN) next.add(s);
        else if (token === BLANK || token === tile) next.add(s + 1);
      }
      return next.size ? closure(next) : null;
    };
    const found = [];
    const walk = (p, states, prefix) => {
      for (;; p++) {
        const arc = this.arc(p);
        const tile = arc & ARC_TILE;
        const after = step(states, tile);
        if (after !== null) {
          const word = prefix + this.alphabet[tile - 1];
          if (arc & ARC_ACCEPTS && after.has(end)) found.push(word);
          const child = arc >>> ARC_CHILD_SHIFT;
          if (child) walk(child, after, word);
        }
        if (arc & ARC_LAST) return;
      }
    };
    if (this.root) walk(this.root, closure([0]), "");
    return found.sort(longestFirst);
  }
}

/**
 * Decode the arcs and counts sections of a packed graph (docs/FORMATS.md, "Packed graph: arcs
 * and counts sections") into nodes: node k (pre-order, the root first) as a flat list of
 * [tile, accepts, child] (child -1 for none), and the words below each node.
 * @throws {Error} a section that does not decode (the caller names the file)
 */
function unpackGraph(bytes, start, end, countsEnd) {
  const nodes = [];
  const shared = [];
  let position = start;
  const byte = (limit) => {
    if (position >= limit) throw new Error("section ends early");
    return bytes[position++];
  };
  const varint = (limit) => {
    let value = 0;
    for (let scale = 1, read = 1; ; scale *= 128, read++) {
      const next = byte(limit);
      value += (next & 0x7f) * scale;
      if (next < 0x80) return value;
      if (read === MAX_VARINT_BYTES) throw new Error("a varint longer than 5 bytes");
    }
  };
  // Recursion depth is the longest string (at most 64 letters and the separator).
  const node = () => {
    const number = nodes.length;
    const arcs = [];
    nodes.push(arcs);
    for (;;) {
      const head = byte(end);
      let tile = head & PACKED_TILE;
      if (tile === PACKED_TILE_ESCAPE) {
        tile = byte(end);
        if (tile < PACKED_TILE_ESCAPE) throw new Error("an escaped tile that fits the head byte");
      }
      let child = -1;
      if (!(head & PACKED_REF)) {
        child = node();
      } else {
        const reference = varint(end);
        if (reference === REF_NEW_SHARED) {
          shared.push(nodes.length);
          child = node();
        } else if (reference !== REF_NO_CHILD) {
          child = shared[reference - REF_SHARED_BASE] ?? -2;
          if (child === -2) throw new Error("reference to a shared node not yet written");
        }
      }
      arcs.push(tile, head & PACKED_ACCEPTS ? 1 : 0, child);
      if (head & PACKED_LAST) return number;
    }
  };
  if (end > start) node();
  if (position !== end) throw new Error("arcs section longer than its nodes");
  const below = countsEnd > end ? nodes.map(() => varint(countsEnd)) : null;
  if (below && position !== countsEnd) throw new Error("counts section longer than its nodes");
  return [nodes, below];
}

/**
 * Lay decoded nodes out as the runtime index's words section and per-arc counts
 * (docs/FORMATS.md, "Runtime index: words, counts and membership sections").
 */
function indexLayout(nodes, below, stride) {
  const start = new Array(nodes.length);
  let position = 1;
  nodes.forEach((arcs, k) => {
    start[k] = position + 1;
    position += 1 + arcs.length / 3;
  });
  const words = new Uint32Array(stride * (position + 1));
  const counts = new Uint32Array(position);
  // arcs[i] is word i + 1; the mask of the node at p is word p.
  words[stride] = ARC_LAST + (nodes.length ? start[0] * 2 ** ARC_CHILD_SHIFT : 0);
  nodes.forEach((arcs, k) => {
    const p = start[k];
    let low = 0;
    let high = 0;
    let after = 0;
    for (let j = arcs.length - 3; j >= 0; j -= 3) {
      const [tile, accepts, child] = [arcs[j], arcs[j + 1], arcs[j + 2]];
      if (tile < 32) low += 2 ** tile; else high += 2 ** (tile - 32);
      const last = j === arcs.length - 3;
      words[stride * (p + j / 3 + 1)] = tile + (accepts ? ARC_ACCEPTS : 0) + (last ? ARC_LAST : 0) +
        (child >= 0 ? start[child] * 2 ** ARC_CHILD_SHIFT : 0);
      if (below) {
        after += accepts + (child >= 0 ? below[child] : 0);
        counts[p + j / 3] = after;
      }
    }
    words[stride * p] = low;
    if (stride === 2) words[stride * p + 1] = high;
  });
  return [words, counts];
}

/**
 * Check a packed word graph's header, decode it and lay it out (docs/FORMATS.md, "Word graphs").
 * @param {Uint8Array} bytes the whole file
 * @param {string} url where it came from (named in errors)
 * @returns {Lexicon}
 * @throws {BadArtifact} not a DAWG or trie, another version, truncated or damaged
 */
export function readLexicon(bytes, url) {
  if (bytes.length < HEADER_BYTES) throw new BadArtifact(String(url), `truncated: ${bytes.length} bytes, less than a header`, REBUILD);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = String.fromCharCode(...bytes.subarray(0, 8));
  if (!(magic in MAGICS)) {
    throw new BadArtifact(String(url), "not a DAWG (.dawg) or packed trie (.trie) file", "give the URL of a .dawg file");
  }
  const version = view.getUint16(8, true);
  if (version !== GRAPH_VERSION) {
    throw new BadArtifact(String(url), `word graph version ${version}; these readers read version ${GRAPH_VERSION}`, REBUILD);
  }
  const flags = view.getUint16(10, true);
  const headerSize = view.getUint32(12, true);
  const wordCount = view.getUint32(80, true);
  const nodeCount = view.getUint32(84, true);
  const arcCount = view.getUint32(88, true);
  const alphabetBytes = view.getUint32(92, true);
  const arcsBytes = view.getUint32(96, true);
  const countsBytes = view.getUint32(100, true);
  if (!(flags & FLAG_COUNTS)) throw new BadArtifact(String(url), "has no perfect-hash counts section", REBUILD);
  if (headerSize !== HEADER_BYTES + Math.ceil(alphabetBytes / 8) * 8) {
    throw new BadArtifact(String(url), `header_size ${headerSize} does not fit its ${alphabetBytes}-byte alphabet`, REBUILD);
  }
  const expected = headerSize + arcsBytes + countsBytes;
  if (bytes.length !== expected) {
    throw new BadArtifact(String(url), `${bytes.length} bytes where its header promises ${expected}: truncated or damaged`, REBUILD);
  }
  const digest = sha256(bytes.subarray(0, FILE_SHA256_AT), new Uint8Array(FILE_SHA256_BYTES),
                        bytes.subarray(FILE_SHA256_AT + FILE_SHA256_BYTES));
  const stored = bytes.subarray(FILE_SHA256_AT, FILE_SHA256_AT + FILE_SHA256_BYTES);
  if (digest.some((b, i) => b !== stored[i])) {
    throw new BadArtifact(String(url), "damaged: its sha256 (file_sha256) does not match its bytes", REBUILD);
  }
  let alphabet;
  try {
    alphabet = [...new TextDecoder("utf-8", {fatal: true}).decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + alphabetBytes))];
  } catch {
    throw new BadArtifact(String(url), "its alphabet is not valid UTF-8", REBUILD);
  }
  let nodes;
  let below;
  try {
    [nodes, below] = unpackGraph(bytes, headerSize, headerSize + arcsBytes, expected);
  } catch (error) {
    throw new BadArtifact(String(url), `its arcs do not decode (${error.message}): damaged`, REBUILD);
  }
  const arcs = nodes.reduce((sum, node) => sum + node.length / 3, 0);
  if (nodes.length !== nodeCount || arcs !== arcCount ||
      nodes.some((node) => node.some((value, i) => i % 3 === 0 && value > alphabet.length))) {
    throw new BadArtifact(String(url), "its arcs disagree with its header: damaged", REBUILD);
  }
  // Tile masks need tile bits 0..alphabet.length: two 32-bit halves past 31 letters.
  const stride = alphabet.length >= 32 ? 2 : 1;
  const [words, counts] = indexLayout(nodes, below, stride);
  const name = String(url).split("/").pop().replace(/\.(dawg|trie)(\.gz)?$/, "");
  return new Lexicon(name, alphabet, wordCount, words, stride, counts);
}

/**
 * Load a lexicon from the URL of its `.dawg` file (or the same file gzipped).
 * @param {string|URL} url
 * @returns {Promise<Lexicon>}
 * @throws {BadArtifact} missing, not a word graph, another version, truncated or damaged
 */
export async function loadLexicon(url) {
  const resolved = new URL(String(url), globalThis.location?.href);
  return readLexicon(await fetchBytes(resolved), resolved);
}
