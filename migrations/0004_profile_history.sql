-- Profile history (docs/history.md, docs/storage.md "Profile history"): one row per event that made
-- a release current (publish or rollback), and one row per profile per event at which the profile's
-- bytes differ from those of the release current before it. Written after `current` moves, from
-- the changes already computed for the pair; never pruned with releases, so it grows with the
-- changes, not with catalog size × releases. `seq` is the event's `sequence` in KV `history`.

CREATE TABLE history_events (
  seq INTEGER PRIMARY KEY,
  release TEXT NOT NULL,
  previous_release TEXT,
  event TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX history_events_release ON history_events (release, seq);

-- A profile's rows are visible once their event's line is in history_events (written last), so an
-- interrupted write shows nothing and the next run completes it (INSERT OR IGNORE on the key).
-- `sha256`/`previous_sha256`: 64 hex, null on the side that does not exist. The rated fields are
-- the new ones, or for `removed` the last ones the profile had. `fields_changed`: a JSON array.
CREATE TABLE history_profiles (
  product_key TEXT NOT NULL,
  funnel_key TEXT NOT NULL,
  event_seq INTEGER NOT NULL,
  id TEXT NOT NULL,
  change TEXT NOT NULL,
  sha256 TEXT,
  previous_sha256 TEXT,
  grade TEXT NOT NULL,
  overall_outcome TEXT NOT NULL,
  public_state TEXT NOT NULL,
  primary_stage TEXT NOT NULL,
  stage_evaluate TEXT NOT NULL,
  stage_sign_up TEXT NOT NULL,
  stage_pay TEXT NOT NULL,
  stage_provision TEXT NOT NULL,
  stage_operate TEXT NOT NULL,
  last_tested_at TEXT NOT NULL,
  fields_changed TEXT NOT NULL,
  PRIMARY KEY (product_key, funnel_key, event_seq, id)
) WITHOUT ROWID;
CREATE INDEX history_profiles_id ON history_profiles (id, event_seq);
CREATE INDEX history_profiles_event ON history_profiles (event_seq);
