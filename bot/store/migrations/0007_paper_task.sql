-- A paper's task category (one of the taxonomy's, validated by the domain model), beside its
-- area. Whether an area or task is the taxonomy's or our own reading is said by the source that
-- covers it (bot/domain/areas.py OUR_CLASSIFICATION), as a summary's source covers
-- `summaries.<language>`: both live in the sources JSON and need no column.

ALTER TABLE papers ADD COLUMN task TEXT;
