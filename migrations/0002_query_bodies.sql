-- Each loaded profile's bytes, exactly as they stand in the release's document (valid UTF-8, kept as
-- text: D1 returns text as is, blobs as arrays of numbers). A page of profiles is then one D1
-- statement instead of one R2 range read per profile (docs/performance.md, "Queries"). A rowid
-- table: its rows are a few KiB, too large for a WITHOUT ROWID table's b-tree.
CREATE TABLE query_bodies (
  release TEXT NOT NULL,
  seq INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (release, seq)
);
