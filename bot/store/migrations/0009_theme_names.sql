-- A digest theme is a module of bot/digests/themes (issue 26): the column takes any theme name
-- (lowercase words joined by "-", as ThemeName says) instead of a list of the first five, so a
-- new theme needs no migration. SQLite drops a column's own CHECK only with the column: the
-- names move to a new column, which then takes the old one's name.

ALTER TABLE subscriptions ADD COLUMN theme_name TEXT
    CHECK (theme_name <> '' AND length(theme_name) <= 40 AND theme_name NOT GLOB '*[^a-z0-9-]*');
UPDATE subscriptions SET theme_name = theme;
ALTER TABLE subscriptions DROP COLUMN theme;
ALTER TABLE subscriptions RENAME COLUMN theme_name TO theme;
