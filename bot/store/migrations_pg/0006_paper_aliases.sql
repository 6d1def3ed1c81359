-- The mirror of SQLite's 0010: the names people use for a paper that it never gives itself, as
-- a JSON list. live_papers is made again: PostgreSQL fixed its `*` when it was made, and the
-- new column goes at its end.

ALTER TABLE papers ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]';
CREATE OR REPLACE VIEW live_papers AS
    SELECT * FROM papers WHERE removed_at IS NULL;
