"""Deeply nested documents are refused with one clear message, early, in every format and by
every way in: `laurel import`, the settings file and environment, and /curate import."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.catalog import formats
from bot.cli import main
from bot.domain.nesting import MAX_DEPTH, NestedTooDeep, check_toml
from bot.errors import LaurelError
from bot.settings import SettingsError, load_settings


def _toml_arrays(depth: int) -> str:
    return '[[awards]]\nvenue = "icml"\nx = ' + "[" * depth + "1" + "]" * depth + "\n"


def _toml_tables(depth: int) -> str:
    return "[[awards]]\nx = " + "{a = " * depth + "1" + "}" * depth + "\n"


def _toml_dotted(depth: int) -> str:
    return "[[awards]]\n" + ".".join(["a"] * depth) + " = 1\n"


def _yaml_flow(depth: int) -> str:
    return "- venue: ICML\n  awards: " + "[" * depth + "]" * depth + "\n"


def _yaml_flow_maps(depth: int) -> str:
    return "- " + "{a: " * depth + "1" + "}" * depth + "\n"


def _yaml_block(depth: int) -> str:
    return "".join("  " * i + "- \n" for i in range(depth)) + "  " * depth + "x\n"


DOCUMENTS: dict[str, tuple[str, Callable[[int], str]]] = {
    "toml arrays": ("deep.toml", _toml_arrays),
    "toml inline tables": ("deep.toml", _toml_tables),
    "toml dotted keys": ("deep.toml", _toml_dotted),
    "yaml flow sequences": ("deep.yml", _yaml_flow),
    "yaml flow mappings": ("deep.yml", _yaml_flow_maps),
    "yaml block sequences": ("deep.yml", _yaml_block),
}


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1_000, 20_000])
@pytest.mark.parametrize("kind", DOCUMENTS)
def test_a_document_nested_too_deep_is_refused_quickly(
    tmp_path: Path, kind: str, depth: int
) -> None:
    name, build = DOCUMENTS[kind]
    if kind == "yaml block sequences":
        depth = min(depth, 2_000)  # 20,000 indented lines would be 400 MB
    path = tmp_path / name
    path.write_text(build(depth), encoding="utf-8")

    started = time.monotonic()
    with pytest.raises(NestedTooDeep, match=f"{name}: nested more than {MAX_DEPTH} levels"):
        formats.read(path, formats.detect(path))
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("kind", DOCUMENTS)
def test_a_document_nested_within_the_limit_is_read_as_usual(tmp_path: Path, kind: str) -> None:
    name, build = DOCUMENTS[kind]
    path = tmp_path / name
    path.write_text(build(MAX_DEPTH - 8), encoding="utf-8")
    try:
        formats.read(path, formats.detect(path))
    except (NestedTooDeep, RecursionError):
        pytest.fail("refused at a depth within the limit")
    except LaurelError:  # the importer's own refusal of a nonsense document is fine
        pass


@pytest.mark.parametrize(
    "text",
    [
        'a = "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["\n',
        "a = '" + "{" * 100 + "'\n",
        'a = """\n' + "[" * 100 + '\n"""\n',
        "a = '''" + "[" * 100 + "'''\n",
        "# " + "[" * 100 + "\n",
        'a = "\\"' + "[" * 100 + '"\n',
    ],
    ids=["basic", "literal", "multi-line", "multi-line literal", "comment", "escaped quote"],
)
def test_brackets_inside_strings_and_comments_do_not_count(text: str) -> None:
    check_toml(text, "x.toml")


def test_a_settings_file_nested_too_deep_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "laurel.toml"
    path.write_text("[logging]\nlevel = " + "[" * 5_000 + "]" * 5_000 + "\n", encoding="utf-8")

    with pytest.raises(SettingsError, match="nested more than"):
        load_settings(path)


def test_a_list_setting_nested_too_deep_in_the_environment_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LAUREL_CURATION__USER_IDS", "[" * 5_000 + "]" * 5_000)

    with pytest.raises(SettingsError, match="LAUREL_CURATION__USER_IDS"):
        load_settings()


@pytest.mark.parametrize("name", ["deep.yml", "deep.toml"])
def test_laurel_import_refuses_it_in_one_line(
    template_db: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
) -> None:
    database = tmp_path / "laurel.db"
    shutil.copyfile(template_db, database)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LAUREL_DATABASE__PATH", str(database))
    path = tmp_path / name
    path.write_text(
        _yaml_flow(50_000) if name.endswith(".yml") else _toml_arrays(50_000), encoding="utf-8"
    )

    assert main(["import", str(path)]) == 1

    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{name}: nested more than {MAX_DEPTH} levels deep" in err
