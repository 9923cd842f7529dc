-- Each history event's own summary (docs/history.md "Compare two releases"): what it changed
-- against the release current before it, counted as GET /v1/releases/{id}/changes/summary counts
-- it (`{"added", "removed", "changed", "transitions"}`, JSON), written with the event's line from
-- the rows of the same write. The summary of two releases made current one event apart is then one
-- row read, whatever the catalog size; any other pair, and an event written before this column
-- (null), is counted from the rows.
ALTER TABLE history_events ADD COLUMN summary TEXT;
