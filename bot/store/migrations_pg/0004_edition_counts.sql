-- SQLite's migration 0006 (bot/store/migrations/0006_edition_counts.sql): what an edition's
-- figures count, a JSON object as text, or NULL.

ALTER TABLE editions ADD COLUMN counts TEXT;
