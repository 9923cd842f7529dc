-- The catalog query tables (docs/storage.md, "Catalog query tables"): one row per profile of each
-- loaded release, written by publish before `current` moves, read by GET /v1/profiles and the browse
-- routes. `release` is the release id's 64 hex digits; `seq` is the profile's place in catalog order
-- (product key, funnel key), so every ordering ends in `seq` and is total.

CREATE TABLE query_profiles (
  release TEXT NOT NULL,
  seq INTEGER NOT NULL,
  id TEXT NOT NULL,
  product_key TEXT NOT NULL,
  product_name TEXT NOT NULL,
  funnel_key TEXT NOT NULL,
  funnel_name TEXT NOT NULL,
  entity TEXT NOT NULL,
  grade TEXT NOT NULL,
  grade_rank INTEGER NOT NULL,
  overall_outcome TEXT NOT NULL,
  public_state TEXT NOT NULL,
  stage_evaluate TEXT NOT NULL,
  stage_sign_up TEXT NOT NULL,
  stage_pay TEXT NOT NULL,
  stage_provision TEXT NOT NULL,
  stage_operate TEXT NOT NULL,
  primary_stage TEXT NOT NULL,
  signal_evaluate TEXT NOT NULL,
  signal_sign_up TEXT NOT NULL,
  signal_pay TEXT NOT NULL,
  signal_provision TEXT NOT NULL,
  signal_operate TEXT NOT NULL,
  coverage_status TEXT NOT NULL,
  freshness TEXT NOT NULL,
  lifecycle TEXT NOT NULL,
  visibility TEXT NOT NULL,
  last_tested_at TEXT NOT NULL,
  byte_offset INTEGER NOT NULL,
  byte_length INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  PRIMARY KEY (release, seq)
) WITHOUT ROWID;

-- One index per selective filter and per sort, each ending in seq: a filter's matches come out in
-- catalog order, and a sort's keyset page is one range scan.
CREATE INDEX query_profiles_product ON query_profiles (release, product_key, seq);
CREATE INDEX query_profiles_funnel ON query_profiles (release, funnel_key, seq);
CREATE INDEX query_profiles_entity ON query_profiles (release, entity, seq);
CREATE INDEX query_profiles_id ON query_profiles (release, id);
CREATE INDEX query_profiles_grade ON query_profiles (release, grade_rank, seq);
CREATE INDEX query_profiles_tested ON query_profiles (release, last_tested_at, seq);
CREATE INDEX query_profiles_outcome ON query_profiles (release, overall_outcome, seq);
CREATE INDEX query_profiles_state ON query_profiles (release, public_state, seq);
CREATE INDEX query_profiles_stage_evaluate ON query_profiles (release, stage_evaluate, seq);
CREATE INDEX query_profiles_stage_sign_up ON query_profiles (release, stage_sign_up, seq);
CREATE INDEX query_profiles_stage_pay ON query_profiles (release, stage_pay, seq);
CREATE INDEX query_profiles_stage_provision ON query_profiles (release, stage_provision, seq);
CREATE INDEX query_profiles_stage_operate ON query_profiles (release, stage_operate, seq);
CREATE INDEX query_profiles_primary_stage ON query_profiles (release, primary_stage, seq);

-- Full text for `q`: product and funnel names and keys, and every stage's finding and condition.
CREATE VIRTUAL TABLE query_text USING fts5(release UNINDEXED, seq UNINDEXED, body, tokenize = 'unicode61 remove_diacritics 0');

-- Facet counts kept at publish: for the whole release (filter = '') and for each value of each
-- facetable filter, the number of profiles per value of each facet field (product and funnel: the
-- 100 largest). Sums of these answer a query's facets without reading its matches.
CREATE TABLE query_facets (
  release TEXT NOT NULL,
  filter TEXT NOT NULL,
  filter_value TEXT NOT NULL,
  facet TEXT NOT NULL,
  value TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (release, filter, filter_value, facet, value)
) WITHOUT ROWID;

-- A release's rows are complete once its line is here (written last by the load).
CREATE TABLE query_releases (
  release TEXT PRIMARY KEY,
  profile_count INTEGER NOT NULL,
  product_count INTEGER NOT NULL,
  loaded_at TEXT NOT NULL
) WITHOUT ROWID;

-- The browse routes: every product and funnel of a release, in key order.
CREATE TABLE query_products (
  release TEXT NOT NULL,
  product_key TEXT NOT NULL,
  name TEXT NOT NULL,
  lower_name TEXT NOT NULL,
  funnel_count INTEGER NOT NULL,
  PRIMARY KEY (release, product_key)
) WITHOUT ROWID;
CREATE INDEX query_products_name ON query_products (release, lower_name);

CREATE TABLE query_funnels (
  release TEXT NOT NULL,
  funnel_key TEXT NOT NULL,
  name TEXT NOT NULL,
  profile_count INTEGER NOT NULL,
  PRIMARY KEY (release, funnel_key)
) WITHOUT ROWID;
