"""Manifest stage: artifacts/manifest.json lists every shipped artifact.

Each entry: path (relative to the artifacts directory), size, sha256, format, format version,
the sha256 of every input, and the licences of the sources it derives from (the project's own
licence when there are none), all read from the provenance sidecars that
pipeline/provenance.py writes. Files whose name starts with `_` are
build helpers and are not listed. A file without a sidecar is an error: every artifact must say
where it came from.

Usage: wordpack-build manifest artifacts
"""

import json
from pathlib import Path

from lookup.errors import CorruptArtifact
from lookup.formats import MANIFEST_FORMAT, MANIFEST_NAME, MANIFEST_VERSION, sha256_file
from lookup.headers import sealed_json
from pipeline.atomic import atomic_output
from pipeline.provenance import meta_path

# Artifacts derived from no licensed source (crossword rules, generated Nerdle equations) are
# wordpack's own work, under the project's licence.
PROJECT_LICENCE = "MIT (wordpack)"
# The static site's directory under artifacts/ (pipeline/build_web.py, `make web`).
SITE_DIR = "web"


def build_manifest(artifacts) -> list[dict]:
    """Write <artifacts>/manifest.json and return its entries."""
    artifacts = Path(artifacts)
    entries = []
    for path in sorted(artifacts.rglob("*")):
        # Names starting with "_" are sidecars or work directories (_proofs, _leave-runs:
        # checkpoints of long runs), never artifacts. The static site (`make web`, not part of
        # `make`) lists its own files with their sha256 in web/web-manifest.json.
        relative = path.relative_to(artifacts).parts
        if not path.is_file() or any(part.startswith("_") for part in relative) \
                or path.name.endswith(".tmp") or relative[0] == SITE_DIR:
            continue
        if path.parent == artifacts and path.name == MANIFEST_NAME:
            continue
        sidecar = meta_path(path)
        if not sidecar.is_file():
            raise CorruptArtifact(f"{path} has no provenance sidecar {sidecar.name}: "
                                  "it was not written by a pipeline stage; delete it")
        meta = json.loads(sidecar.read_text())
        entries.append({
            "path": path.relative_to(artifacts).as_posix(),
            "size": path.stat().st_size,
            "sha256": sha256_file(path),
            "format": meta["format"],
            "version": meta["version"],
            "inputs": meta["inputs"],
            "licences": meta["licences"] or [PROJECT_LICENCE],
        })
    manifest = {"format": MANIFEST_FORMAT, "version": MANIFEST_VERSION, "artifacts": entries}
    with atomic_output(artifacts / MANIFEST_NAME) as handle:
        handle.write(sealed_json(manifest))
    return entries
