-- SQLite's migration 0009 (bot/store/migrations/0009_theme_names.sql): a subscription's theme
-- is any theme name (lowercase words joined by "-"), not one of a list of the first five.

ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_theme_check;
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_theme_name
    CHECK (theme ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(theme) <= 40);
