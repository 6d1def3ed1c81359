-- Curation from Discord: soft removal of papers and awards, and what readers may see.
-- A removed row stays (the audit points at it, and an undo brings it back); readers go through
-- live_papers / live_awards, which leave removed rows out. A removed paper hides its awards too.

ALTER TABLE papers ADD COLUMN removed_at TEXT;
ALTER TABLE awards ADD COLUMN removed_at TEXT;

-- The ids of removed papers, kept by triggers: live_awards consults this (usually empty) table
-- instead of looking up every award's paper row, which made some award reads 3-4x slower
-- (benchmarks/live_views.py measures it).
CREATE TABLE removed_papers (
    paper_id  INTEGER PRIMARY KEY REFERENCES papers (id)
);

CREATE TRIGGER paper_removed AFTER UPDATE OF removed_at ON papers
WHEN NEW.removed_at IS NOT NULL AND OLD.removed_at IS NULL
BEGIN
    INSERT INTO removed_papers (paper_id) VALUES (NEW.id);
END;

CREATE TRIGGER paper_restored AFTER UPDATE OF removed_at ON papers
WHEN NEW.removed_at IS NULL AND OLD.removed_at IS NOT NULL
BEGIN
    DELETE FROM removed_papers WHERE paper_id = NEW.id;
END;

CREATE VIEW live_papers AS
    SELECT * FROM papers WHERE removed_at IS NULL;

CREATE VIEW live_awards AS
    SELECT * FROM awards
    WHERE removed_at IS NULL AND paper_id NOT IN (SELECT paper_id FROM removed_papers);
