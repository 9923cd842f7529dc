-- Usage per key (docs/usage.md, docs/storage.md "Usage"): what every authenticated request cost,
-- counted in the isolate and written here in batches (src/worker/usage/usage-meter.ts), plus the
-- refusals before authentication (account_id and subject ''). Production and sandbox have their
-- own databases. `period` is 'hour' (kept 31 days) or 'day' (kept 400 days); `start` the UTC
-- epoch milliseconds the hour or day begins. `code` is '' when the answer was not a problem,
-- `route` the route template ('' when no route matched).
CREATE TABLE usage_counts (
  period TEXT NOT NULL,
  start INTEGER NOT NULL,
  account_id TEXT NOT NULL,
  subject TEXT NOT NULL,
  status INTEGER NOT NULL,
  code TEXT NOT NULL,
  route TEXT NOT NULL,
  requests INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  PRIMARY KEY (period, account_id, subject, start, status, code, route)
) WITHOUT ROWID;
CREATE INDEX usage_counts_time ON usage_counts (period, start);

-- Each batch's id, written in the batch's transaction: a batch retried after it committed fails on
-- this key and is rolled back whole, so no request is counted twice. Kept a day.
CREATE TABLE usage_batches (
  id TEXT PRIMARY KEY,
  at INTEGER NOT NULL
) WITHOUT ROWID;

-- The recent-errors ring: the last 100 answers with status >= 400 per key or grant.
CREATE TABLE usage_errors (
  subject TEXT NOT NULL,
  at INTEGER NOT NULL,
  request_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  method TEXT NOT NULL,
  route TEXT NOT NULL,
  status INTEGER NOT NULL,
  code TEXT NOT NULL,
  PRIMARY KEY (subject, at, request_id)
) WITHOUT ROWID;
CREATE INDEX usage_errors_account ON usage_errors (account_id, at, request_id);
