"""Search (issues 8, 22, 27): what a person typed, read as words (`text`); the derived tantivy
index that follows the catalogue (`index`: its lifecycle, `heal` and `files`: damage found and
healed, `store`: the store it reads, `documents`: what it is built from), its queries (`query`,
`similar`), and FTS5, SQLite's own search while the index is rebuilt (`fts5`)."""
