-- Watches (docs/history.md "Watches", docs/storage.md "Watches"): an account's standing filter of
-- the catalog, and the events each publish or rollback made it trigger. In CATALOG_DB, beside the
-- profile history they are derived from, so the publish that writes the history evaluates every
-- watch of the deployment in one read, and production and the sandbox (each its own database)
-- stay apart. `query` is the canonical filter query string and `filter` its parsed form (JSON, the
-- shape of src/common/catalog/query-filter.ts); `profiles` a JSON array of scopes and ids. Exactly
-- one of `query` and `profiles` is set.
CREATE TABLE watches (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  name TEXT NOT NULL,
  query TEXT,
  filter TEXT,
  profiles TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX watches_account ON watches (account_id, created_at, id);

-- One row per (watch, history event) that triggered it. `id` is derived from both, so writing an
-- event again (a publish or rollback run again after an interruption) is a no-op.
CREATE TABLE watch_events (
  id TEXT PRIMARY KEY,
  watch_id TEXT NOT NULL,
  event_seq INTEGER NOT NULL,
  at TEXT NOT NULL,
  release TEXT NOT NULL,
  previous_release TEXT,
  entered_count INTEGER NOT NULL,
  left_count INTEGER NOT NULL,
  changed_count INTEGER NOT NULL,
  UNIQUE (watch_id, event_seq)
);
CREATE INDEX watch_events_seq ON watch_events (event_seq);

-- Every entry of an event's lists, in catalog order (`ord`); the event shows the first 100 of each.
CREATE TABLE watch_event_profiles (
  event_id TEXT NOT NULL,
  list TEXT NOT NULL,
  ord INTEGER NOT NULL,
  entry TEXT NOT NULL,
  PRIMARY KEY (event_id, list, ord)
) WITHOUT ROWID;

-- The history events (history_events.seq) whose watches are all evaluated: written last per event,
-- so an interrupted evaluation is done again (its writes are idempotent) by the next run.
CREATE TABLE watch_evaluations (
  event_seq INTEGER PRIMARY KEY,
  evaluated_at TEXT NOT NULL
);
