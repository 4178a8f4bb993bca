"""Goals that read no games (help, clean) work on a fresh clone without building anything."""

import subprocess

import pytest

from conftest import REPO


@pytest.mark.parametrize("goal", ["help", "clean"])
def test_goal_installs_and_generates_nothing(goal, tmp_path):
    venv, artifacts = tmp_path / "venv", tmp_path / "artifacts"
    result = subprocess.run(["make", "-C", str(REPO), f"VENV={venv}", f"ARTIFACTS={artifacts}",
                             goal], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert not venv.exists() and not (artifacts / "_guessing.mk").exists()
    assert "pip" not in result.stdout + result.stderr


def test_help_lists_lint():
    result = subprocess.run(["make", "-C", str(REPO), "help"], capture_output=True, text=True)
    assert "  make lint: check the code with ruff (rules in pyproject.toml)" in result.stdout
