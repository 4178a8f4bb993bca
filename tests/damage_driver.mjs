// Damage cases for the JS readers under Node (tests/test_damage.py): each case names a file, a
// reader and a damage; the driver damages the bytes in memory, runs the reader and prints one
// JSON line per case: {"refused": true, "name": "BadArtifact", "message": ...} or {"refused": false}.
import {readFileSync} from "node:fs";
import {readLexicon} from "../clients/js/lexicon.js";
import {readDescriptor, readTree} from "../clients/js/guessing.js";

const READERS = {
  dawg: (bytes, url) => readLexicon(bytes, url),
  tree: (bytes, url, extra) => readTree(bytes, url, JSON.parse(readFileSync(extra, "utf8"))),
  descriptor: (bytes, url) => readDescriptor(bytes, url),
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
