"""Numbers and files given on the command line are checked where they are typed: a port past
65535 reached the socket (`OverflowError`, a traceback), a console timeout of 0, below 0 or not
a number was taken as it was (every deferred answer "did not answer in time", or none ever),
`enrich --limit abc` was an "invalid _positive value", and a --spec that is no spec a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import build_parser, main


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["localdiscord", "--port", "70000"], "a port is 0 to 65535 (0: any free one), not 70000"),
        (["localdiscord", "--port", "-1"], "a port is 0 to 65535 (0: any free one), not -1"),
        (["localarxiv", "--port", "65536"], "a port is 0 to 65535 (0: any free one), not 65536"),
        (["localarxiv", "--port", "eighty"], "not a port number: 'eighty'"),
        (["console", "--timeout", "0", "-c", "/about"], "must be more than 0 seconds, not 0"),
        (["console", "--timeout=-5", "-c", "/about"], "must be more than 0 seconds, not -5"),
        (["console", "--timeout", "nan", "-c", "/about"], "must be more than 0 seconds, not nan"),
        (["console", "--timeout", "inf", "-c", "/about"], "must be more than 0 seconds, not inf"),
        (["enrich", "--limit", "abc"], "not a whole number: 'abc'"),
        (["enrich", "--limit", "0"], "must be at least 1, not 0"),
    ],
)
def test_a_number_out_of_range_is_refused_in_one_line_before_anything_runs(
    argv: list[str],
    says: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.chdir(tmp_path)  # should the check be gone, the console runs here
    monkeypatch.setenv("LAUREL_DATABASE__PATH", str(tmp_path / "laurel.db"))
    with pytest.raises(SystemExit) as exited:
        main(argv)

    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert (
        err.splitlines()[-1]
        == f"laurel {argv[0]}: error: argument --{argv[1][2:].split('=')[0]}: {says}"
    )
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "port"),
    [(["localdiscord", "--port", "0"], 0), (["localarxiv", "--port", "65535"], 65535)],
)
def test_the_ports_at_the_bounds_are_taken(argv: list[str], port: int) -> None:
    assert build_parser(argv).parse_args(argv).port == port


def test_a_fraction_of_a_second_is_a_timeout() -> None:
    argv = ["console", "--timeout", "0.5"]
    assert build_parser(argv).parse_args(argv).timeout == 0.5


@pytest.mark.parametrize("command", [["localdiscord"], ["console", "-c", "/about"]])
@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("not json", "Expecting value: line 1 column 1 (char 0)"),  # was a JSONDecodeError
        ("[]", "list indices must be integers or slices, not str"),  # was a TypeError
        ('{"paths": {}}', "'components'"),
    ],
)
def test_a_spec_that_is_not_discords_is_one_line(
    command: list[str],
    text: str,
    says: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LAUREL_DATABASE__PATH", str(tmp_path / "laurel.db"))
    spec = tmp_path / "openapi.json"
    spec.write_text(text, encoding="utf-8")

    assert main([*command, "--spec", str(spec)]) == 1

    err = capsys.readouterr().err
    assert err == f"laurel: {spec} is not Discord's OpenAPI spec: {says}\n"
    assert not (tmp_path / "laurel.db").exists()  # refused before anything was made
