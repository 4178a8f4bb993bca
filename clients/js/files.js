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
  const text = await fetchText(url);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BadArtifact(String(url), `not valid JSON (${error.message})`);
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

/**
 * Lowercase hex sha256 of `bytes`, or null where the page is not a secure context (plain HTTP
 * from another host): browsers offer no digest there, so the check is skipped.
 */
export async function sha256Hex(bytes) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
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
