"""An interrupted write leaves the previous artifact (or nothing), never a partial file."""

import pytest

from pipeline.atomic import atomic_output


def test_failure_inside_the_block_keeps_the_old_file(tmp_path):
    target = tmp_path / "x.dawg"
    target.write_bytes(b"old complete file")
    with pytest.raises(KeyboardInterrupt):
        with atomic_output(target) as handle:
            handle.write(b"half of the new")
            raise KeyboardInterrupt
    assert target.read_bytes() == b"old complete file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.dawg"]


def test_failure_with_no_previous_file_leaves_nothing(tmp_path):
    target = tmp_path / "sub" / "y.npy"
    with pytest.raises(RuntimeError):
        with atomic_output(target) as handle:
            handle.write(b"partial")
            raise RuntimeError("disk full")
    assert list((tmp_path / "sub").iterdir()) == []


def test_success_replaces(tmp_path):
    target = tmp_path / "z.txt"
    with atomic_output(target, "w") as handle:
        handle.write("done\n")
    assert target.read_text() == "done\n"
    assert [p.name for p in tmp_path.iterdir()] == ["z.txt"]
