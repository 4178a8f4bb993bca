// Damage cases for the JS readers under Node (tests/test_damage.py): each case names a file, a
// reader and a damage; the driver damages the bytes in memory, runs the reader and prints one
// JSON line per case: {"refused": true, "name": "BadArtifact", "message": ...} or {"refused": false}.
import {readFileSync} from "node:fs";
import {readLexicon} from "../clients/js/lexicon.js";
import {readDescriptor, readTree} from "../clients/js/guessing.js";
import {readLeavePack} from "../clients/js/leaves.js";
import {readRules} from "../clients/js/rules.js";

// What a leave pack is checked against: the game's letters, tile counts (blanks first) and rack.
function packRules(rulesPath) {
  const rules = JSON.parse(readFileSync(rulesPath, "utf8"));
  const letters = [...rules.alphabet];
  return {id: rules.id, letters, rackSize: rules.rack_size,
          counts: [rules.tiles["?"]?.[0] ?? 0, ...letters.map((letter) => rules.tiles[letter][0])]};
}

const READERS = {
  dawg: (bytes, url) => readLexicon(bytes, url),
  tree: (bytes, url, extra) => readTree(bytes, url, JSON.parse(readFileSync(extra, "utf8"))),
  descriptor: (bytes, url) => readDescriptor(bytes, url),
  rules: (bytes, url) => readRules(bytes, url),
  leaves: (bytes, url, extra) => readLeavePack(bytes, url, packRules(extra)),
};

function damaged(bytes, damage) {
  if (damage.kind === "flip") {
    const copy = Uint8Array.from(bytes);
    copy[damage.at] ^= 1 << damage.bit;
    return copy;
  }
  if (damage.kind === "truncate") return bytes.subarray(0, damage.at);
  const copy = new Uint8Array(bytes.length + damage.extra);
  copy.set(bytes);
  copy.fill(1 << damage.bit, bytes.length);
  return copy;
}

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const item of cases) {
  const bytes = new Uint8Array(readFileSync(item.file));
  try {
    READERS[item.reader](damaged(bytes, item.damage), item.file, item.extra);
    console.log(JSON.stringify({refused: false}));
  } catch (error) {
    console.log(JSON.stringify({refused: true, name: error.name, message: error.message}));
  }
}
