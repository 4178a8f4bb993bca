// Fetching the data files: bytes, text, JSON, word lists and their sha256, with one-line errors.

import {BadArtifact} from "./errors.js";

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * The bytes at `url`. A gzip file (a precompressed `.gz`, served without HTTP compression) is
 * decompressed, so a reader sees the same bytes whichever of the two a site ships.
 * @param {string|URL} url
 * @returns {Promise<Uint8Array>}
 */
export async function fetchBytes(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new BadArtifact(String(url), `cannot be fetched (${error.message})`, "check the address");
  }
  if (!response.ok) {
    throw new BadArtifact(String(url), `HTTP ${response.status} ${response.statusText}`.trim(),
                          "check the address, or build it with `make web`");
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] !== GZIP_MAGIC[0] || bytes[1] !== GZIP_MAGIC[1]) return bytes;
  try {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (error) {
    throw new BadArtifact(String(url), `a damaged gzip file (${error.message})`);
  }
}

/** The UTF-8 text at `url`; malformed UTF-8 is a damaged file. */
export async function fetchText(url) {
  return decodeText(await fetchBytes(url), url);
}

/** The JSON object at `url`. */
export async function fetchJson(url) {
  return parseJson(await fetchBytes(url), url);
}

/** The JSON object in `bytes` (UTF-8), fetched from `url` (named in errors). */
export function parseJson(bytes, url) {
  const text = decodeText(bytes, url);
  try {
    return JSON.parse(text);
  } catch (error) {
    // V8 quotes the text around the error, newlines and all: keep the message one line.
    throw new BadArtifact(String(url), `not valid JSON (${error.message.replace(/\s+/g, " ")})`);
  }
}

function decodeText(bytes, url) {
  try {
    return new TextDecoder("utf-8", {fatal: true}).decode(bytes);
  } catch {
    throw new BadArtifact(String(url), "not valid UTF-8");
  }
}

/**
 * The words of a plain word list (docs/FORMATS.md, "Normalized word lists"): one per line, every
 * line ending in "\n"; lines starting with "#" and empty lines are skipped.
 */
export function parseWordList(bytes, url) {
  const text = decodeText(bytes, url);
  if (text && !text.endsWith("\n")) {
    throw new BadArtifact(String(url), "truncated: its last line has no newline");
  }
  return text.split("\n").filter((line) => line && !line.startsWith("#"));
}

// SHA-256 (FIPS 180-4), in the readers themselves: pages served over plain HTTP have no
// crypto.subtle, and a reader must refuse a damaged file whatever the transport. ENABLE's
// 289 KB DAWG takes 4-10 ms in Node 20.
const SHA256_K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const SHA256_INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
                 0x5be0cd19];

function sha256Block(state, block, w) {
  for (let t = 0; t < 16; t++) {
    const i = t * 4;
    w[t] = (block[i] << 24) | (block[i + 1] << 16) | (block[i + 2] << 8) | block[i + 3];
  }
  for (let t = 16; t < 64; t++) {
    const a = w[t - 15];
    const b = w[t - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
  }
  let [a, b, c, d, e, f, g, h] = state;
  for (let t = 0; t < 64; t++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + SHA256_K[t] + w[t]) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
  }
  state[0] = (state[0] + a) | 0; state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0; state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0; state[5] = (state[5] + f) | 0;
  state[6] = (state[6] + g) | 0; state[7] = (state[7] + h) | 0;
}

/**
 * The SHA-256 digest of a sequence of byte arrays taken as one message.
 * @param {...Uint8Array} parts
 * @returns {Uint8Array} 32 bytes
 */
export function sha256(...parts) {
  const state = Int32Array.from(SHA256_INITIAL);
  const w = new Int32Array(64);
  const block = new Uint8Array(64);
  let filled = 0;
  let length = 0;
  for (const part of parts) {
    length += part.length;
    let at = 0;
    if (filled) {
      const take = Math.min(64 - filled, part.length);
      block.set(part.subarray(0, take), filled);
      filled += take;
      at = take;
      if (filled < 64) continue;
      sha256Block(state, block, w);
      filled = 0;
    }
    for (; at + 64 <= part.length; at += 64) sha256Block(state, part.subarray(at, at + 64), w);
    block.set(part.subarray(at), 0);
    filled = part.length - at;
  }
  block.fill(0, filled);
  block[filled] = 0x80;
  if (filled >= 56) {
    sha256Block(state, block, w);
    block.fill(0);
  }
  const bits = length * 8;
  const view = new DataView(block.buffer);
  view.setUint32(56, Math.floor(bits / 2 ** 32));
  view.setUint32(60, bits >>> 0);
  sha256Block(state, block, w);
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  state.forEach((word, i) => out.setUint32(i * 4, word >>> 0));
  return digest;
}

// The seal of JSON and msgpack artifacts (docs/FORMATS.md "Seals"): the header field
// file_sha256 holds the hex sha256 of the file with those 64 digits read as "0"; it is found by
// the bytes before it, which occur exactly once.
const SEAL_TAGS = {
  json: new TextEncoder().encode('"file_sha256": "'),
  msgpack: Uint8Array.from([0xab, ...new TextEncoder().encode("file_sha256"), 0xd9, 0x40]),
};
const SEAL_DIGITS = 64;

function findBytes(bytes, tag, from) {
  const first = tag[0];
  for (let at = bytes.indexOf(first, from); at >= 0; at = bytes.indexOf(first, at + 1)) {
    let k = 1;
    while (k < tag.length && bytes[at + k] === tag[k]) k++;
    if (k === tag.length) return at;
  }
  return -1;
}

/**
 * Refuse a file whose seal is missing or does not match its bytes.
 * @param {Uint8Array} bytes the whole file
 * @param {string|URL} url named in the error
 * @param {"json"|"msgpack"} encoding
 * @param {string} remedy what rebuilds it
 * @throws {BadArtifact}
 */
export function checkSeal(bytes, url, encoding, remedy = undefined) {
  const tag = SEAL_TAGS[encoding];
  const at = findBytes(bytes, tag, 0);
  if (at < 0 || findBytes(bytes, tag, at + 1) >= 0 || at + tag.length + SEAL_DIGITS > bytes.length) {
    throw new BadArtifact(String(url), "damaged: its header has no single file_sha256", remedy);
  }
  const start = at + tag.length;
  const digest = sha256(bytes.subarray(0, start), new Uint8Array(SEAL_DIGITS).fill(0x30),
                        bytes.subarray(start + SEAL_DIGITS));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  if (new TextDecoder().decode(bytes.subarray(start, start + SEAL_DIGITS)) !== hex) {
    throw new BadArtifact(String(url), "damaged: its sha256 (file_sha256) does not match its bytes", remedy);
  }
}

/**
 * Decode a sealed JSON file (docs/FORMATS.md, "Seals") after checking its header and its seal.
 * @param {Uint8Array} bytes the whole file
 * @param {string|URL} url where it came from (named in errors)
 * @param {string} format the expected `format`
 * @param {number} version the one version these readers know
 * @param {Object<string, string>} fields the header fields the caller uses (see checkHeader)
 * @param {string} remedy what rebuilds it
 * @returns {object}
 * @throws {BadArtifact} not JSON, another format or version, a field missing, or damaged
 */
export function readSealedJson(bytes, url, format, version, fields, remedy = undefined) {
  const data = parseJson(bytes, url);
  checkHeader(data, url, format, version, fields);
  checkSeal(bytes, url, "json", remedy);
  return data;
}

/** Lowercase hex sha256 of `bytes`. */
export function sha256Hex(bytes) {
  return Array.from(sha256(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Refuse a JSON or msgpack header of another format or version, or one lacking a field
 * (docs/FORMATS.md, "Headers").
 * @param {object} header
 * @param {string} url
 * @param {string} format the expected `format`
 * @param {number} version the one version these readers know
 * @param {Object<string, string>} fields the fields a reader uses: name -> "string", "number",
 *   "boolean" or "object" (a map)
 */
export function checkHeader(header, url, format, version, fields) {
  if (header === null || typeof header !== "object" || Array.isArray(header)) {
    throw new BadArtifact(String(url), `not a ${format} header`);
  }
  if (header.format !== format) {
    throw new BadArtifact(String(url), `format is ${JSON.stringify(header.format)}, not "${format}"`);
  }
  if (header.version !== version) {
    throw new BadArtifact(String(url), `${format} version ${header.version}, these readers read version ${version}`);
  }
  for (const [field, type] of Object.entries(fields)) {
    const value = header[field];
    const ok = type === "object" ? value !== null && typeof value === "object" && !Array.isArray(value)
      : typeof value === type;
    if (!ok) throw new BadArtifact(String(url), `field "${field}" is missing or not a ${type}`);
  }
}
