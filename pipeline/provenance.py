"""Provenance records: what every artifact was built from, for artifacts/manifest.json.

Each stage calls `record(output, format=..., version=..., inputs=[...])` after writing an artifact.
That writes a sidecar `_<name>.meta.json` next to it (the `_` prefix marks it as not shipped).
Licences propagate: an input under sources/ contributes the licence in its `<name>.json`
provenance file; an input that is itself an artifact contributes the licences of its sidecar.
Code and config inputs carry no licence of their own.
"""

import json
from pathlib import Path

from lookup.formats import sha256_file
from pipeline.atomic import atomic_output


def meta_path(artifact) -> Path:
    """The sidecar file that holds an artifact's provenance."""
    artifact = Path(artifact)
    return artifact.with_name(f"_{artifact.name}.meta.json")


def licences_of(path) -> list[str]:
    """Licences that travel with `path`: from its sources/ provenance or its artifact sidecar."""
    path = Path(path)
    provenance = path.with_suffix(".json")
    if path.parent.name == "sources" and provenance.is_file():
        return [json.loads(provenance.read_text())["licence"]]
    sidecar = meta_path(path)
    if sidecar.is_file():
        return json.loads(sidecar.read_text())["licences"]
    return []


def record(artifact, *, format: str, version: int, inputs) -> dict:
    """Write the provenance sidecar of `artifact` and return it."""
    inputs = sorted(Path(p) for p in inputs)
    licences = sorted({lic for p in inputs for lic in licences_of(p)})
    meta = {
        "format": format,
        "version": version,
        "inputs": [{"path": p.as_posix(), "sha256": sha256_file(p)} for p in inputs],
        "licences": licences,
    }
    with atomic_output(meta_path(artifact), "w") as handle:
        json.dump(meta, handle, indent=1, sort_keys=True)
        handle.write("\n")
    return meta
