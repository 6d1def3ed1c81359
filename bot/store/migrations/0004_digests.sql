-- Scheduled digests: subscriptions, the delivery ledger, and per-subscription picker state.

CREATE TABLE subscriptions (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    theme          TEXT NOT NULL CHECK (theme IN ('paper-of-the-day', 'venue-spotlight',
                       'test-of-time', 'by-the-numbers', 'new-awards')),
    cadence        TEXT NOT NULL CHECK (cadence IN ('daily', 'weekly')),
    days           INTEGER NOT NULL CHECK (days BETWEEN 1 AND 127),  -- bit d = weekday d
    time           TEXT NOT NULL,  -- local "HH:MM"
    timezone       TEXT NOT NULL,
    language       TEXT NOT NULL CHECK (language IN ('en', 'zh-TW', 'zh-CN')),
    role_id        INTEGER,
    filters        TEXT NOT NULL DEFAULT '{}',
    status         TEXT NOT NULL CHECK (status IN ('active', 'paused')),
    paused_reason  TEXT CHECK (paused_reason IN ('manual', 'forbidden', 'not-found')),
    created_by     INTEGER NOT NULL,
    created_at     TEXT NOT NULL,
    -- New awards are audit rows above this id; set at creation so the bundled import is old news.
    audit_watermark INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX subscriptions_by_guild ON subscriptions (guild_id);
CREATE INDEX subscriptions_active ON subscriptions (status) WHERE status = 'active';

-- One row per post: reserved (pending) before anything is sent, so a crash leaves a row the
-- next start settles; the nonce sent to Discord is derived from the row.
CREATE TABLE digest_ledger (
    id               INTEGER PRIMARY KEY,
    subscription_id  INTEGER NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
    period           TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'empty')),
    theme            TEXT NOT NULL,
    late             INTEGER NOT NULL DEFAULT 0 CHECK (late IN (0, 1)),
    nonce            TEXT NOT NULL UNIQUE CHECK (length(nonce) <= 25),
    content          TEXT NOT NULL DEFAULT '{}',  -- what was picked, so a re-send repeats it
    reserved_at      TEXT NOT NULL,
    attempted_at     TEXT,
    sent_at          TEXT,
    message_id       INTEGER,
    error            TEXT,
    UNIQUE (subscription_id, period)
);
CREATE INDEX digest_ledger_pending ON digest_ledger (status) WHERE status = 'pending';

-- Paper of the day: the shuffled cycle a channel is in, and what it has shown in it.
CREATE TABLE digest_cycles (
    subscription_id  INTEGER PRIMARY KEY REFERENCES subscriptions (id) ON DELETE CASCADE,
    cycle            INTEGER NOT NULL DEFAULT 0,
    shown            TEXT NOT NULL DEFAULT '[]'
) WITHOUT ROWID;
