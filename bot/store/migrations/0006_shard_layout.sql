-- The shard layout of the processes sharing this database (issue 22): the shard count they run
-- (one for all: a guild's shard depends on it), and which live process runs each shard, until
-- when (a claim each process renews while it runs, and gives up when it stops).
CREATE TABLE shard_layout (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    shard_count  INTEGER NOT NULL CHECK (shard_count >= 1)
);
CREATE TABLE shard_claims (
    shard    INTEGER PRIMARY KEY CHECK (shard >= 0),
    holder   TEXT NOT NULL,
    expires  TEXT NOT NULL  -- ISO 8601, UTC
);
