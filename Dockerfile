# Laurel in a container: `docker build -t laurel .` then
#   docker run -d --name laurel -e DISCORD_TOKEN -v laurel-data:/data laurel
# The token is given at run time only; nothing secret is baked into the image.
# `.venv/bin/python -m tests.ops.dockerfile_replay` replays these steps in a fresh virtual
# environment (there is no Docker engine in CI); `hadolint Dockerfile` lints it.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VIRTUAL_ENV=/opt/laurel \
    PATH=/opt/laurel/bin:$PATH \
    LAUREL_DATABASE__PATH=/data/laurel.db \
    LAUREL_DATABASE__BACKUP_DIR=/data/backups \
    LAUREL_LOGGING__FORMAT=json

# CJK glyphs, so that charts are labelled in Chinese for Chinese readers (without a CJK font
# they stay English: bot/render/chart_fonts.py). Not pinned: Debian's font package moves with
# the base image, and a pinned version disappears from its archive.
# replay: skip (installs a system package; the replay uses the fonts of the machine it runs on)
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-noto-cjk \
    && rm -rf /var/lib/apt/lists/*

# replay: skip (creates a system account; the replay runs as whoever runs it)
RUN groupadd --system --gid 10001 laurel \
    && useradd --system --uid 10001 --gid laurel --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin laurel

WORKDIR /app
# Installed as a normal package: the bundled catalogue (data/, linked into the package as
# bot/_data) ships inside it as package data, so the image needs nothing from /app at run time.
# Only what `laurel run` needs: the postgresql extra (psycopg: compose.yaml and the README run
# the image on PostgreSQL), and not laurel_console/ (the console and the stand-ins;
# `laurel console` in the image says in one line how to get them elsewhere).
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY data ./data
RUN python -m venv /opt/laurel \
    && /opt/laurel/bin/pip install --no-cache-dir "/app[postgresql]" \
    && mkdir -p /data/backups

# replay: skip (ownership needs root and the account above)
RUN chown -R laurel:laurel /data

USER 10001:10001
VOLUME ["/data"]
# Health is served on 127.0.0.1:8086 inside the container; metrics, when enabled with
# LAUREL_METRICS__ENABLED=true and LAUREL_METRICS__HOST=0.0.0.0, on 9108.
EXPOSE 9108
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["laurel", "health"]
CMD ["laurel", "run"]
