"""A built wheel carries the whole catalogue: installed away from the checkout, `laurel db init`
loads it and `laurel stats` counts it.

The wheel is built as `pip wheel .` builds it (an isolated build, setuptools from the local
index, about 20 s). It is installed without dependencies into a fresh virtual environment that
borrows this environment's installed dependencies through a path file (not the checkout:
path files in a borrowed folder are not processed, so the editable install of `bot` stays
out of sight), and run from an empty folder: it works only if the package holds its data.

The wheel ships the console and stand-ins (laurel_console) beside `bot`, but these commands of
a plain install never import them or the console extra.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from bot.catalog.bundled import load_bundled
from tests.ops.dockerfile_replay import ROOT

# `laurel ARGS`, then one line naming the modules of the console that the command imported.
WATCHED = ("laurel_console", "jsonschema", "referencing")
PROBE = f"""
import sys
from bot.__main__ import main
code = main(sys.argv[1:])
print("console modules:", sorted({{m.split(".")[0] for m in sys.modules}} & set({WATCHED!r})))
sys.exit(code)
"""


def _run(argv: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=cwd, env={"PATH": "/usr/bin:/bin", **env}, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `laurel` script of a fresh environment with only the wheel installed from here."""
    root = tmp_path_factory.mktemp("wheel")
    # From a copy without build/ (setuptools reuses build/lib, so a stale one from an older
    # checkout would slip files this tree no longer has, such as the moved converter, in).
    source = root / "source"
    shutil.copytree(
        ROOT, source, symlinks=True,
        ignore=shutil.ignore_patterns("build", ".venv", ".git", "*.egg-info", "__pycache__",
                                      "*.db", "*.db.search", ".mypy_cache", ".pytest_cache"),
    )  # fmt: skip
    built = _run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(root), str(source)],
        root,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = root.glob("laurel-*.whl")
    venv = root / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    assert _run([base, "-m", "venv", "--without-pip", str(venv)], root).returncode == 0
    (site,) = (venv / "lib").glob("python3*/site-packages")
    (site / "borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    install = _run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site),
         str(wheel)],
        root,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr[-3000:]
    # `pip --target` does not write console scripts: make the one the wheel declares.
    laurel = venv / "bin" / "laurel"
    laurel.write_text(f"#!{venv}/bin/python\nfrom bot.__main__ import main\nmain()\n")
    laurel.chmod(0o755)
    return laurel


def test_the_wheel_leaves_the_development_tools_out(installed: Path) -> None:
    """The runtime loader is in; the converter (tools.bundle, which reads ../shared) and the
    other tools are not (issue 26)."""
    (wheel,) = installed.parents[2].glob("laurel-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "bot/catalog/bundled.py" in names
    assert {n.split("/")[0] for n in names} == {"bot", "laurel_console", "laurel-0.1.0.dist-info"}
    assert [n for n in names if "/bundle/" in n or n.startswith("tools/")] == []


def test_the_installed_package_is_the_wheel_not_the_checkout(installed: Path) -> None:
    found = _run(
        [str(installed.parent / "python"), "-c", "import bot; print(bot.__file__)"],
        installed.parents[2],
    )
    assert found.returncode == 0, found.stderr
    assert str(ROOT) not in found.stdout
    assert found.stdout.startswith(str(installed.parents[1]))


def test_db_init_in_an_empty_folder_loads_the_whole_catalogue(
    installed: Path, tmp_path: Path
) -> None:
    env = {"LAUREL_DATABASE__PATH": str(tmp_path / "laurel.db")}
    python = str(installed.parent / "python")
    init = _run([python, "-c", PROBE, "db", "init"], tmp_path, **env)
    assert init.returncode == 0, init.stderr
    stats = _run([python, "-c", PROBE, "stats"], tmp_path, **env)
    assert stats.returncode == 0, stats.stderr
    for run in (init, stats):
        assert run.stdout.splitlines()[-1] == "console modules: []", run.stdout
    totals = re.search(r"(\d+) venues, (\d+) editions, (\d+) papers, (\d+) awards", stats.stdout)
    assert totals is not None, stats.stdout
    venues, _, papers, awards = map(int, totals.groups())
    assert venues == len(load_bundled().venues)
    assert awards >= 800
    assert papers >= 700
    assert re.search(r"^CVPR\s+2023\s+\d+", stats.stdout, re.MULTILINE)


def test_the_wheel_ships_the_console_apart_from_the_runtime(installed: Path) -> None:
    (site,) = (installed.parents[1] / "lib").glob("python3*/site-packages")
    assert (site / "laurel_console" / "localdiscord" / "server.py").is_file()
    assert (site / "laurel_console" / "harness.py").is_file()
    assert not (site / "bot" / "localdiscord").exists()
