-- Watches that share a query share its lists (docs/storage.md "Watches"): at a history event every
-- watch with the same filter (or the same profiles) catches the same profiles, so the entries are
-- written once per distinct filter and event, under `lists_id`, and each watch's event points at
-- them. Before, each event had its own entries: 10,000 watches over 1 % of 10k profiles wrote
-- ~370,000 entry rows for one publish. An event written before keeps its entries under its own id.
ALTER TABLE watch_event_profiles RENAME COLUMN event_id TO lists_id;
ALTER TABLE watch_events ADD COLUMN lists_id TEXT NOT NULL DEFAULT '';
UPDATE watch_events SET lists_id = id;
-- A watch's deletion keeps the lists another watch's event still points at.
CREATE INDEX watch_events_lists ON watch_events (lists_id);
-- Events go after WATCH_EVENT_DAYS: found by their time, not by reading every event.
CREATE INDEX watch_events_at ON watch_events (at);
