"""Replay the Dockerfile's steps in a temporary folder and a fresh virtual environment.

There is no Docker engine where Laurel is built and tested, so this does what `docker build`
would, as far as it can without one: ENV, WORKDIR, COPY (through .dockerignore) and RUN, in
order, with the image's own directories (/app, /opt/…, /data) moved under a temporary root.
Steps marked `# replay: skip` (making the system account, chown) need root and are not run;
USER is not switched. Then it runs the image's commands there: `laurel --help`,
`laurel db init`, `laurel run` without a token (refused), `laurel console` (refused: the image
holds neither the stand-ins nor the console extra), and `laurel run` against the loopback
Discord stand-in (run from this checkout) with `laurel health` reporting it live: on SQLite,
on PostgreSQL (the tests' embedded server), and as compose.yaml's two shard processes on it.

    .venv/bin/python -m tests.ops.dockerfile_replay [--keep]

It downloads the dependencies from PyPI as the image build does, so it runs in .ci/run, not in
the test suite; tests/ops/test_dockerfile.py checks the replay machinery itself, fast.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = re.compile(r"^#\s*replay:\s*skip\b")
SYSTEM_DIRS = {"usr", "bin", "sbin", "lib", "etc", "var", "tmp", "dev", "proc", "sys", "root"}
GRACE = 180.0  # seconds for a fresh install to start the bot on a loaded machine (issue 22:
# on PostgreSQL the first start loads the bundled catalogue: 70 s here, over 90 s at load 10)


@dataclass(frozen=True)
class Instruction:
    keyword: str
    args: str
    skip: bool


def parse(text: str) -> list[Instruction]:
    """Instructions with their continuation lines joined; `# replay: skip` marks the next one."""
    found: list[Instruction] = []
    skip_next = False
    lines = iter(text.splitlines())
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            skip_next = skip_next or bool(SKIP.match(line))
            continue
        while line.endswith("\\"):
            line = line[:-1].rstrip() + " " + next(lines, "").strip()
        keyword, _, args = line.partition(" ")
        found.append(Instruction(keyword.upper(), args.strip(), skip_next))
        skip_next = False
    return found


def env_pairs(args: str) -> list[tuple[str, str]]:
    return [tuple(item.split("=", 1)) for item in shlex.split(args)]  # type: ignore[misc]


def image_dirs(instructions: list[Instruction]) -> set[str]:
    """The top-level directories the image makes its own (/app, /opt, /data …)."""
    found = set()
    for step in instructions:
        if step.keyword in ("WORKDIR", "VOLUME", "ENV", "RUN", "COPY"):
            found.update(re.findall(r"(?<![\w.$/-])/([a-z]+)(?=/|\b)", step.args))
    return found - SYSTEM_DIRS


class Ignore:
    """.dockerignore: patterns in order, `!` re-includes, a match on a parent folder counts."""

    def __init__(self, text: str) -> None:
        self.rules: list[tuple[re.Pattern[str], bool]] = []
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            negate = line.startswith("!")
            pattern = line.lstrip("!").strip("/")
            self.rules.append((re.compile(_glob_to_regex(pattern)), negate))

    def excluded(self, relative: str) -> bool:
        parts = relative.split("/")
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        excluded = False
        for pattern, negate in self.rules:
            if any(pattern.fullmatch(p) for p in prefixes):
                excluded = not negate
        return excluded


def _glob_to_regex(pattern: str) -> str:
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return out


class Replay:
    def __init__(self, context: Path, root: Path) -> None:
        self.context = context
        self.root = root
        self.instructions = parse((context / "Dockerfile").read_text())
        self.ignore = Ignore((context / ".dockerignore").read_text())
        self.moved = image_dirs(self.instructions)
        self.workdir = root
        base = root / "base-image-bin"  # the base image's `python` on PATH
        base.mkdir(parents=True)
        (base / "python").symlink_to(_base_python())
        self.env = {
            "PATH": f"{base}:/usr/bin:/bin",
            "HOME": str(root / "home"),
            "LANG": "C.UTF-8",
        }

    def inside(self, text: str) -> str:
        """`text` with the image's own absolute paths moved under the temporary root."""
        dirs = "|".join(sorted(self.moved))
        return re.sub(rf"(?<![\w.$/-])/({dirs})(?=/|\b)", rf"{self.root}/\1", text)

    def expand(self, text: str) -> str:
        return re.sub(r"\$\{?(\w+)\}?", lambda m: self.env.get(m[1], ""), self.inside(text))

    def run_steps(self) -> Iterator[str]:
        for step in self.instructions:
            if step.skip:
                yield f"skip  {step.keyword} {step.args[:60]}"
                continue
            handler = getattr(self, f"_{step.keyword.lower()}", None)
            if handler is not None:
                handler(step.args)
                yield f"done  {step.keyword} {step.args[:60]}"

    def _env(self, args: str) -> None:
        for key, value in env_pairs(args):
            self.env[key] = self.expand(value)

    def _workdir(self, args: str) -> None:
        self.workdir = Path(self.inside(args))
        self.workdir.mkdir(parents=True, exist_ok=True)

    def _copy(self, args: str) -> None:
        *sources, dest = shlex.split(args)
        target = Path(self.inside(dest))
        if not target.is_absolute():
            target = self.workdir / target
        for source in sources:
            self._copy_one(self.context / source, target, many=len(sources) > 1)

    def _copy_one(self, source: Path, target: Path, *, many: bool) -> None:
        relative = source.relative_to(self.context).as_posix()
        if source.is_file():
            if self.ignore.excluded(relative):
                raise AssertionError(f"COPY {relative}: excluded by .dockerignore")
            into = target / source.name if many or str(target).endswith("/") else target
            into = target / source.name if target.is_dir() else into
            into.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into)
            return
        for path in sorted(source.rglob("*")):
            rel = path.relative_to(self.context).as_posix()
            if path.is_symlink() and not self.ignore.excluded(rel):
                # COPY keeps a link as a link (bot/_data -> ../data), as docker build does.
                into = target / path.relative_to(source)
                into.parent.mkdir(parents=True, exist_ok=True)
                into.symlink_to(os.readlink(path))
            elif path.is_file() and not self.ignore.excluded(rel):
                into = target / path.relative_to(source)
                into.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, into)

    def _run(self, args: str) -> None:
        command = self.inside(args)
        done = subprocess.run(
            ["/bin/sh", "-c", command],
            cwd=self.workdir,
            env=self.env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise AssertionError(f"RUN {command}\nexited {done.returncode}:\n{done.stderr[-3000:]}")

    def command(self, keyword: str) -> list[str]:
        (step,) = [s for s in self.instructions if s.keyword == keyword]
        args = step.args
        if keyword == "HEALTHCHECK":
            args = args.split(" CMD ", 1)[1]
        return [self.expand(a) for a in _exec_form(args)]

    def call(self, argv: list[str], **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv, cwd=self.workdir, env=self.env | env, capture_output=True, text=True, timeout=120
        )


def _exec_form(args: str) -> list[str]:
    value = json.loads(args)
    assert isinstance(value, list), f"not in exec form: {args}"
    return [str(v) for v in value]


def _base_python() -> str:
    return str(getattr(sys, "_base_executable", sys.executable))


def check_image_commands(replay: Replay) -> Iterator[str]:
    laurel = replay.command("CMD")[0]
    assert replay.call([laurel, "--help"]).returncode == 0
    yield "ok    laurel --help"
    init = replay.call([laurel, "db", "init"])
    assert init.returncode == 0, init.stderr
    assert Path(replay.env["LAUREL_DATABASE__PATH"]).is_file()
    yield f"ok    laurel db init: {init.stdout.strip()}"
    refused = replay.call(replay.command("CMD"))
    assert refused.returncode == 1
    assert "DISCORD_TOKEN is not set" in refused.stderr
    yield "ok    laurel run without DISCORD_TOKEN: refused (no token in the image)"
    yield from _only_the_runtime(replay, laurel)
    yield from _live_bot(replay, laurel)


def _only_the_runtime(replay: Replay, laurel: str) -> Iterator[str]:
    """The image holds what `laurel run` needs: neither the console extra nor the stand-ins,
    and `laurel console` says so in one line."""
    python = str(Path(laurel).with_name("python"))
    for module in ("laurel_console", "jsonschema", "referencing"):
        found = replay.call([python, "-c", f"import {module}"])
        assert found.returncode != 0, f"the image can import {module}"
    yield "ok    the image has no laurel_console, jsonschema or referencing"
    console = replay.call([laurel, "console", "-c", "/about"])
    assert console.returncode == 1, console
    assert console.stderr.count("\n") == 1, console.stderr
    assert "pip install" in console.stderr, console.stderr
    yield f"ok    laurel console in the image: 1 ({console.stderr.strip()})"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _live_bot(replay: Replay, laurel: str) -> Iterator[str]:
    """Every configuration compose.yaml and the README run the image in, to `laurel health` =
    live: SQLite (`docker run`), PostgreSQL, and compose's two shard processes on PostgreSQL."""
    # A container has its own network; this machine may have port 8086 taken, so the run (as
    # `docker run -e` would) names a free one, for the bot and its health check alike.
    replay.env["LAUREL_HEALTH__PORT"] = str(_free_port())
    health = replay.command("HEALTHCHECK")
    idle = replay.call(health)
    assert idle.returncode == 1, idle
    yield f"ok    {' '.join(health)} with no bot: 1 ({idle.stderr.strip()})"
    with _stand_in(replay) as runtime:
        yield from _live(replay, "SQLite", [(replay.command("CMD"), runtime)])
        with _postgresql() as url:
            services = _compose_services(replay, runtime, url)
            bot = services[0][1]
            yield from _live(replay, "PostgreSQL", [(replay.command("CMD"), bot)])
            yield from _live(replay, "PostgreSQL, compose's shard processes", services)


@contextlib.contextmanager
def _stand_in(replay: Replay) -> Iterator[dict[str, str]]:
    """The loopback Discord stand-in (no part of the image: it runs from this checkout, as a
    test's would), with compose's four shards; the environment a bot needs to reach it."""
    argv = [sys.executable, "-m", "laurel_console.localdiscord", "--port", "0"]
    argv += ["--shards", "4", "--max-concurrency", "4"]
    with subprocess.Popen(
        argv, cwd=ROOT, env=replay.env, stdout=subprocess.PIPE, text=True
    ) as stand:
        try:
            assert stand.stdout is not None
            lines = dict(stand.stdout.readline().split(maxsplit=1) for _ in range(4))
            yield {
                "DISCORD_TOKEN": lines["token"].strip(),
                "LAUREL_DISCORD__API_BASE_URL": lines["REST"].strip(),
            }
        finally:
            stand.terminate()
            stand.wait(timeout=10)


@contextlib.contextmanager
def _postgresql() -> Iterator[str]:
    """A real PostgreSQL server (the tests' embedded one) with an empty database; its URL."""
    from tests.support.postgres import PostgresServer

    folder = Path(tempfile.mkdtemp(prefix="laurel-image-pg-"))
    server = PostgresServer(folder / "pgdata")
    try:
        server.start()
        yield server.url(server.create_database(name="laurel"))
    finally:
        try:
            server.stop()
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def _compose_services(
    replay: Replay, runtime: dict[str, str], url: str
) -> list[tuple[list[str], dict[str, str]]]:
    """compose.yaml's bot services: each one's command and environment, as compose would run
    them, but reaching this PostgreSQL server, and each with a /data folder of its own (its
    volume)."""
    import yaml

    compose = yaml.safe_load((replay.context / "compose.yaml").read_text())
    services = []
    for name, service in compose["services"].items():
        if "laurel" not in service.get("command", []):
            continue
        env = {}
        for key, value in service["environment"].items():
            if key == "PGPASSWORD":  # the tests' server trusts its local socket
                continue
            env[key] = str(value).replace("/data/", f"{replay.root}/data-{name}/")
        # What the run gives (the token; the stand-in, never Discord), and this server.
        env |= runtime | {"LAUREL_DATABASE__URL": url}
        services.append((replay.inside(" ".join(service["command"])).split(), env))
    assert len(services) == 2, services
    return services


def _live(
    replay: Replay, label: str, processes: list[tuple[list[str], dict[str, str]]]
) -> Iterator[str]:
    """Start each (command, environment) with a health port of its own; wait until `laurel
    health` says each is live; stop each with SIGTERM, which must end it cleanly."""
    health = replay.command("HEALTHCHECK")
    started = time.monotonic()
    bots: list[tuple[subprocess.Popen[bytes], dict[str, str], Path]] = []
    try:
        for number, (command, env) in enumerate(processes):
            env = replay.env | env | {"LAUREL_HEALTH__PORT": str(_free_port())}
            log_path = replay.root / f"bot-{abs(hash(label))}-{number}.log"
            with log_path.open("w") as log:
                bot = subprocess.Popen(command, cwd=replay.workdir, env=env, stderr=log)
            bots.append((bot, env, log_path))
        answers = []
        for bot, env, log_path in bots:
            deadline = time.monotonic() + GRACE
            while (result := replay.call(health, **env)).returncode != 0:
                assert bot.poll() is None, log_path.read_text()[-2000:]
                assert time.monotonic() < deadline, result.stderr
                time.sleep(1.0)  # another process: nothing to wait on but its answer
            answers.append(result.stdout.strip())
        took = time.monotonic() - started
        yield f"ok    {' '.join(health)}, {label}: 0 in {took:.0f} s ({'; '.join(answers)})"
    finally:
        for bot, _, _ in bots:
            bot.send_signal(signal.SIGTERM)
        for bot, _, _ in bots:
            bot.wait(timeout=30)
    codes = [bot.returncode for bot, _, _ in bots]
    assert codes == [0] * len(bots), f"laurel run exited {codes} on SIGTERM"
    yield f"ok    {label}: laurel run stopped cleanly on SIGTERM (docker stop)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary root")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="laurel-image-"))
    started = time.monotonic()
    try:
        replay = Replay(ROOT, root)
        for line in replay.run_steps():
            print(line, flush=True)
        for line in check_image_commands(replay):
            print(line, flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print(f"Dockerfile replayed in {time.monotonic() - started:.0f} s (root {root})")
    return 0


if __name__ == "__main__":
    os.environ.pop("DISCORD_TOKEN", None)
    sys.exit(main())
