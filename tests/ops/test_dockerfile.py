"""The Dockerfile: lint-clean, its promises kept, and the replay that proves its steps (the full
replay downloads the dependencies and runs in .ci/run: `python -m tests.ops.dockerfile_replay`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ops.dockerfile_replay import ROOT, Ignore, Replay, env_pairs, image_dirs, parse

DOCKERFILE = ROOT / "Dockerfile"


def _hadolint() -> str:
    found = shutil.which("hadolint", path=str(Path(sys.executable).parent))
    assert found, "hadolint is in the test extra: pip install -e '.[test]'"
    return found


def test_hadolint_finds_nothing() -> None:
    result = subprocess.run(
        [_hadolint(), "--no-color", str(DOCKERFILE)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""


def test_the_image_keeps_its_promises() -> None:
    steps = parse(DOCKERFILE.read_text())
    by = {s.keyword: s for s in steps}
    assert by["FROM"].args.startswith("python:3.11-slim")
    user = by["USER"].args.split(":")[0]
    assert user not in ("root", "0")
    assert steps.index(by["USER"]) > max(i for i, s in enumerate(steps) if s.keyword == "RUN")
    assert by["VOLUME"].args == '["/data"]'
    assert by["CMD"].args == '["laurel", "run"]'
    assert by["HEALTHCHECK"].args.endswith('CMD ["laurel", "health"]')
    env = dict(pair for s in steps if s.keyword == "ENV" for pair in env_pairs(s.args))
    assert env["LAUREL_DATABASE__PATH"] == "/data/laurel.db"
    assert env["LAUREL_DATABASE__BACKUP_DIR"].startswith("/data/")
    # The token only ever comes at run time.
    instructions = "\n".join(f"{s.keyword} {s.args}" for s in steps)
    assert "DISCORD_TOKEN" not in instructions
    assert "ARG" not in by


def test_the_image_installs_what_compose_runs_it_with() -> None:
    """compose.yaml points the image at postgresql://: its install must carry the extra that
    reads one (psycopg), or `laurel run` dies at the instance lock (issue 22, item 3)."""
    import tomllib

    import yaml

    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    urls = {
        s["environment"]["LAUREL_DATABASE__URL"]
        for s in compose["services"].values()
        if "LAUREL_DATABASE__URL" in s.get("environment", {})
    }
    assert urls, "compose.yaml runs no Laurel on a database URL"
    assert all(u.startswith("postgresql://") for u in urls)
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert any(d.startswith("psycopg") for d in extras["postgresql"])
    installs = [s.args for s in parse(DOCKERFILE.read_text()) if "pip install" in s.args]
    assert len(installs) == 1
    assert '"/app[postgresql]"' in installs[0]


@pytest.mark.parametrize(
    ("path", "sent"),
    [
        ("pyproject.toml", True),
        ("README.md", True),
        ("bot/app.py", True),
        ("bot/store/migrations/0001_catalog.sql", True),
        ("data/venues.toml", True),
        ("laurel.toml", False),  # settings stay out of the image
        (".env", False),
        ("laurel.db", False),
        ("data/laurel.db", False),
        ("bot/laurel.db-wal", False),
        ("backups/laurel-20260101T000000Z.db", False),
        (".venv/bin/python", False),
        (".git/config", False),
        ("bot/__pycache__/app.cpython-311.pyc", False),
        ("tests/conftest.py", False),
    ],
)
def test_the_build_context_holds_only_what_the_image_needs(path: str, sent: bool) -> None:
    assert Ignore((ROOT / ".dockerignore").read_text()).excluded(path) is not sent


TOY = """\
FROM python:3.11-slim
ENV HOME_DIR=/app \\
    OUT=/data/out.txt
# replay: skip (needs root)
RUN touch /etc/never-made-by-a-test
WORKDIR /app
COPY keep.txt ./
COPY pkg ./pkg
RUN echo "$OUT" > "$OUT.where" && cp keep.txt "$OUT"
CMD ["echo", "hi"]
"""


def test_the_replay_moves_the_images_folders_and_honours_dockerignore(tmp_path: Path) -> None:
    context, root = tmp_path / "context", tmp_path / "root"
    (context / "pkg").mkdir(parents=True)
    (context / "Dockerfile").write_text(TOY)
    (context / ".dockerignore").write_text("*\n!keep.txt\n!pkg/\n**/*.secret\n")
    (context / "keep.txt").write_text("kept")
    (context / "other.txt").write_text("left out")
    (context / "pkg" / "a.py").write_text("")
    (context / "pkg" / "b.secret").write_text("")
    (root / "data").mkdir(parents=True)
    replay = Replay(context, root)
    assert image_dirs(replay.instructions) == {"app", "data"}
    log = list(replay.run_steps())
    assert log[1].startswith("skip  RUN touch /etc/never")
    assert not Path("/etc/never-made-by-a-test").exists()
    assert sorted(p.relative_to(root / "app").as_posix() for p in (root / "app").rglob("*")) == [
        "keep.txt",
        "pkg",
        "pkg/a.py",
    ]
    assert (root / "data" / "out.txt").read_text() == "kept"
    assert (root / "data" / "out.txt.where").read_text().strip() == f"{root}/data/out.txt"
    assert replay.command("CMD") == ["echo", "hi"]


def test_the_replay_copies_a_link_as_a_link(tmp_path: Path) -> None:
    # bot/_data links to ../data: docker build keeps the link, and so must the replay.
    context, root = tmp_path / "context", tmp_path / "root"
    (context / "pkg").mkdir(parents=True)
    (context / "shared").mkdir()
    (context / "shared" / "x.toml").write_text("x = 1\n")
    (context / "pkg" / "_data").symlink_to("../shared")
    (context / "Dockerfile").write_text("FROM python:3.11-slim\nWORKDIR /app\nCOPY pkg ./pkg\n")
    (context / ".dockerignore").write_text("*\n!pkg/\n")
    (root / "app").mkdir(parents=True)
    replay = Replay(context, root)
    list(replay.run_steps())
    copied = root / "app" / "pkg" / "_data"
    assert copied.is_symlink()
    assert str(copied.readlink()) == "../shared"
