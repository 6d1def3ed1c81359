-- The catalogue: venues, editions (a venue in a year), papers, awards; and the audit log.
-- Lists (sources, alternatives, links, summaries) are JSON written by the store from validated
-- models; authors and affiliations get tables of their own because leaderboards query them.

CREATE TABLE venues (
    key        TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    full_name  TEXT,
    url        TEXT,
    aliases    TEXT NOT NULL DEFAULT '[]'
) WITHOUT ROWID;

CREATE TABLE editions (
    id                  INTEGER PRIMARY KEY,
    venue               TEXT NOT NULL REFERENCES venues (key),
    year                INTEGER NOT NULL CHECK (year BETWEEN 1950 AND 2100),
    start_date          TEXT,
    end_date            TEXT,
    month               INTEGER CHECK (month BETWEEN 1 AND 12),
    city                TEXT,
    country             TEXT,
    submissions         INTEGER CHECK (submissions >= 0),
    accepted            INTEGER CHECK (accepted >= 0 AND (submissions IS NULL OR accepted <= submissions)),
    orals               INTEGER CHECK (orals >= 0),
    spotlights          INTEGER CHECK (spotlights >= 0),
    posters             INTEGER CHECK (posters >= 0),
    reviewers           INTEGER CHECK (reviewers >= 0),
    area_chairs         INTEGER CHECK (area_chairs >= 0),
    senior_area_chairs  INTEGER CHECK (senior_area_chairs >= 0),
    note                TEXT,
    sources             TEXT NOT NULL DEFAULT '[]',
    alternatives        TEXT NOT NULL DEFAULT '[]',
    UNIQUE (venue, year)
);

CREATE TABLE papers (
    id             INTEGER PRIMARY KEY,
    title          TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 500),
    title_key      TEXT NOT NULL,
    year           INTEGER,
    arxiv          TEXT UNIQUE,
    arxiv_version  INTEGER CHECK (arxiv_version >= 1),
    doi            TEXT UNIQUE CHECK (doi = lower(doi)),
    links          TEXT NOT NULL DEFAULT '{}',
    abstract       TEXT,
    summaries      TEXT NOT NULL DEFAULT '{}',
    sources        TEXT NOT NULL DEFAULT '[]',
    alternatives   TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX papers_by_title_key ON papers (title_key);

CREATE TABLE paper_authors (
    paper_id  INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    position  INTEGER NOT NULL,
    name      TEXT NOT NULL,
    PRIMARY KEY (paper_id, position)
) WITHOUT ROWID;
CREATE INDEX paper_authors_by_name ON paper_authors (name);

CREATE TABLE paper_affiliations (
    paper_id  INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
    position  INTEGER NOT NULL,
    name      TEXT NOT NULL,
    PRIMARY KEY (paper_id, position)
) WITHOUT ROWID;
CREATE INDEX paper_affiliations_by_name ON paper_affiliations (name);

CREATE TABLE awards (
    id          INTEGER PRIMARY KEY,
    edition_id  INTEGER NOT NULL REFERENCES editions (id),
    paper_id    INTEGER NOT NULL REFERENCES papers (id),
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('best', 'outstanding', 'runner-up',
                    'honorable-mention', 'test-of-time', 'position', 'datasets-benchmarks',
                    'classic', 'distinguished', 'student', 'other')),
    track       TEXT,
    sources     TEXT NOT NULL DEFAULT '[]',
    alternatives TEXT NOT NULL DEFAULT '[]'
);
-- One paper holds one award of a kind (and track) per edition; a second listing merges.
CREATE UNIQUE INDEX awards_identity ON awards (edition_id, paper_id, kind, ifnull(track, ''));
CREATE INDEX awards_by_paper ON awards (paper_id);

-- Ranked full-text search; rowid is the paper id. CJK text is indexed one character a token
-- (the store spaces it out), so Chinese queries match as phrases without a segmenter.
CREATE VIRTUAL TABLE paper_search USING fts5 (
    title, authors, affiliations, summaries, abstract,
    tokenize = 'unicode61 remove_diacritics 2'
);

-- Append-only: who changed what, when, with the record before and after.
CREATE TABLE audit (
    id         INTEGER PRIMARY KEY,
    at         TEXT NOT NULL,
    actor      TEXT NOT NULL,
    batch      TEXT NOT NULL,
    action     TEXT NOT NULL CHECK (action IN ('add', 'change', 'merge', 'remove')),
    entity     TEXT NOT NULL CHECK (entity IN ('venue', 'edition', 'paper', 'award')),
    entity_id  TEXT NOT NULL,
    before     TEXT,
    after      TEXT
);
CREATE INDEX audit_by_entity ON audit (entity, entity_id);

CREATE TRIGGER audit_is_append_only_update BEFORE UPDATE ON audit
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;
CREATE TRIGGER audit_is_append_only_delete BEFORE DELETE ON audit
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;
