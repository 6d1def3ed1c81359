-- A paper's research area (one of the taxonomy's ten, validated by the domain model) and
-- whether the source cut its author list short ("et al.", "等").

ALTER TABLE papers ADD COLUMN area TEXT;
ALTER TABLE papers ADD COLUMN authors_incomplete INTEGER NOT NULL DEFAULT 0
    CHECK (authors_incomplete IN (0, 1));
CREATE INDEX papers_by_area ON papers (area) WHERE area IS NOT NULL;
