-- Full text for `q`, addressed by rowid: each loaded release has a number, and its profiles' rows in
-- `query_words` have rowid number × 2^32 + seq. A query's release is then a rowid range FTS5 serves
-- from its index, where `query_text` checks each match's stored `release` (docs/performance.md,
-- "Queries"). Releases loaded before this migration keep `query_text` and no number.
CREATE TABLE query_release_numbers (
  release TEXT PRIMARY KEY,
  number INTEGER NOT NULL UNIQUE
) WITHOUT ROWID;

CREATE VIRTUAL TABLE query_words USING fts5(body, tokenize = 'unicode61 remove_diacritics 0');
