"""What the README's run command leaves in a fresh clone stays out of `git status`: the database,
its lock, its search index (`laurel.db.search/`, beside it by default) and the backups."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.ops.dockerfile_replay import ROOT

MADE_BY_A_RUN = [
    "laurel.db",
    "laurel.db.lock",
    "laurel.db-wal",
    "laurel.db.search/meta.json",
    "laurel.db.search/.tantivy-writer.lock",
    "backups/laurel-20260101T000000Z.db",
    "laurel.toml",
]


@pytest.mark.parametrize("path", MADE_BY_A_RUN)
def test_what_a_run_makes_in_the_checkout_is_ignored(path: str) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", path], cwd=ROOT, check=False
    )
    assert ignored.returncode == 0, f"{path} would show in git status"
