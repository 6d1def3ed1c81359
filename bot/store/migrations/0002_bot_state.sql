-- Small facts the bot keeps about itself between runs, such as the hash of the command tree it
-- last synced, so that an unchanged tree is not pushed to Discord again on every start.
CREATE TABLE bot_state (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
) WITHOUT ROWID;
