-- Curation from Discord: soft removal of papers and awards, and what readers may see.
-- A removed row stays (the audit points at it, and an undo brings it back); readers go through
-- live_papers / live_awards, which leave removed rows out. A removed paper hides its awards too.

ALTER TABLE papers ADD COLUMN removed_at TEXT;
ALTER TABLE awards ADD COLUMN removed_at TEXT;

CREATE VIEW live_papers AS
    SELECT * FROM papers WHERE removed_at IS NULL;

CREATE VIEW live_awards AS
    SELECT a.* FROM awards AS a
    WHERE a.removed_at IS NULL
      AND NOT EXISTS (
          SELECT 1 FROM papers AS p WHERE p.id = a.paper_id AND p.removed_at IS NOT NULL);
