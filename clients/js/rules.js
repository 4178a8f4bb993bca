// The crossword rules file `crossword/<id>.json` (docs/FORMATS.md, "Rules file"): one reader
// for the page and the move finder's engine, so that both check the format, the version and the
// seal (file_sha256 over the whole file) before they use a byte of it.

import {fetchBytes, readSealedJson} from "./files.js";

export const RULES_FORMAT = "crossword-rules";
export const RULES_VERSION = 3;
export const REBUILD_RULES = "rebuild it with `make crossword web`";

/**
 * Check the bytes of a rules file and decode them.
 * @param {Uint8Array} bytes the whole file
 * @param {string|URL} url where it came from (named in errors)
 * @param {Object<string, string>} fields the header fields the caller uses (see checkHeader)
 * @returns {object} the rules
 * @throws {BadArtifact} not JSON, another format or version, a field missing, or damaged
 */
export function readRules(bytes, url, fields = {}) {
  return readSealedJson(bytes, url, RULES_FORMAT, RULES_VERSION, fields, REBUILD_RULES);
}

/**
 * Fetch, check and decode a rules file.
 * @param {string|URL} url
 * @param {Object<string, string>} fields the header fields the caller uses
 * @returns {Promise<object>}
 * @throws {BadArtifact} as readRules, or the file cannot be fetched
 */
export async function fetchRules(url, fields = {}) {
  return readRules(await fetchBytes(url), url, fields);
}
