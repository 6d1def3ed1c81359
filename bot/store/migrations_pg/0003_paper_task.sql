-- The mirror of SQLite's 0006: a paper's task category, beside its area. live_papers is made
-- again: PostgreSQL fixed its `*` when it was made, and the new column goes at its end.

ALTER TABLE papers ADD COLUMN task TEXT;
CREATE OR REPLACE VIEW live_papers AS
    SELECT * FROM papers WHERE removed_at IS NULL;
