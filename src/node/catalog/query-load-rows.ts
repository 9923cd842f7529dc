/**
 * The rows a batch of the D1 load writes (query-load.ts), as the SQL and bound JSON arrays of each
 * statement: each table's rows go in as one bound JSON array (`INSERT … SELECT … FROM json_each(?)`),
 * so a batch is a few statements whatever its size, within D1's 100 parameters per statement and
 * 2 MB per value. Pure: profiles in, SQL and JSON texts out.
 */
import type { QueryRow } from "../../common/catalog/query-fields";
import { STAGES } from "../../common/catalog/schema";
import type { PlacedProfile } from "./query-profiles";

/** At most this many bytes of JSON per bound array (D1: 2 MB per value). */
const STATEMENT_BYTES = 1_000_000;

const PROFILE_COLUMNS = [
  "seq",
  "id",
  "product_key",
  "product_name",
  "funnel_key",
  "funnel_name",
  "entity",
  "grade",
  "grade_rank",
  "overall_outcome",
  "public_state",
  ...STAGES.map((stage) => `stage_${stage}`),
  "primary_stage",
  ...STAGES.map((stage) => `signal_${stage}`),
  "coverage_status",
  "freshness",
  "lifecycle",
  "visibility",
  "last_tested_at",
  "byte_offset",
  "byte_length",
  "sha256",
];

/** An INSERT of every row of one bound JSON array of arrays (the release is the first parameter). */
export const insertRows = (verb: string, table: string, columns: string[]) =>
  `${verb} INTO ${table} (release, ${columns.join(", ")}) SELECT ?, ` +
  `${columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ")} FROM json_each(?)`;

const INSERT_PROFILES = insertRows("INSERT OR REPLACE", "query_profiles", PROFILE_COLUMNS);
const INSERT_TEXT = insertRows("INSERT", "query_text", ["seq", "body"]);
/** A release's profiles in `query_words` are rowids number × 2^32 + seq (migrations/0003). */
export const RELEASE_NUMBER = "(SELECT number FROM query_release_numbers WHERE release = ?1)";
/** OR REPLACE, as every table of a batch: a concurrent load of the release, or a retried batch, writes the same rows. */
const INSERT_WORDS =
  `INSERT OR REPLACE INTO query_words (rowid, body) SELECT ${RELEASE_NUMBER} * 4294967296 + json_extract(value, '$[0]'), ` +
  "json_extract(value, '$[1]') FROM json_each(?2)";
/**
 * A profile's bytes cross wrangler's platform proxy with every `"` as U+E000 (`[seq, text, 1]`),
 * put back by SQLite, unless the text holds U+E000 itself (`[seq, text, 0]`, as it is). The proxy
 * escapes its arguments one character at a time, each escape a string concatenation: bodies are a
 * profile's JSON, ~7 % quotes, each escaped twice inside a JSON array; without them the proxy's work
 * on the bodies falls 3–5× (docs/performance.md, "D1 load time").
 */
const QUOTE_STAND_IN = "\uE000";
const INSERT_BODIES =
  "INSERT OR REPLACE INTO query_bodies (release, seq, body) SELECT ?, json_extract(value, '$[0]'), " +
  "iif(json_extract(value, '$[2]'), replace(json_extract(value, '$[1]'), char(57344), '\"'), json_extract(value, '$[1]')) " +
  "FROM json_each(?)";

/** One statement of a batch: its SQL, bound to the release and `rows` (a JSON array). */
export interface RowsStatement {
  sql: string;
  rows: string;
}

/**
 * One batch's rows as JSON, built as its profiles arrive (the parsed profiles are not kept): per
 * table, arrays of rows of at most STATEMENT_BYTES each, one statement each.
 */
export class BatchRows {
  readonly #profiles = new JsonArrays();
  readonly #words = new JsonArrays();
  readonly #bodies = new JsonArrays();
  size = 0;

  add(placed: PlacedProfile, row: QueryRow) {
    this.#profiles.add(JSON.stringify(columnsOf(placed, row)));
    this.#words.add(JSON.stringify([placed.seq, row.text]));
    const swapped = !placed.text.includes(QUOTE_STAND_IN);
    const pieces = swapped ? placed.text.split('"') : [placed.text];
    const text = pieces.join(QUOTE_STAND_IN);
    const body = JSON.stringify([placed.seq, text, swapped ? 1 : 0]);
    // Exactly its bytes: the profile's own, 2 more for each `"` made U+E000, and the ASCII JSON adds.
    this.#bodies.add(body, placed.entry.length + 2 * (pieces.length - 1) + body.length - text.length);
    this.size++;
  }

  /** Words go to `query_words`, or to `query_text` for a load begun before release numbers. */
  statements(numbered: boolean): RowsStatement[] {
    const statements = (sql: string, arrays: JsonArrays) => arrays.texts().map((rows) => ({ sql, rows }));
    return [
      ...statements(INSERT_PROFILES, this.#profiles),
      ...statements(numbered ? INSERT_WORDS : INSERT_TEXT, this.#words),
      ...statements(INSERT_BODIES, this.#bodies),
    ];
  }
}

/** Rows' JSON texts joined into arrays of at most STATEMENT_BYTES bytes each (a larger row alone). */
class JsonArrays {
  readonly #done: string[][] = [];
  #rows: string[] = [];
  #bytes = 0;

  /** `bytes`: the row's UTF-8 length, or at most that (3 bytes per UTF-16 unit bound it). */
  add(json: string, bytes = 3 * json.length) {
    if (this.#rows.length > 0 && this.#bytes + bytes > STATEMENT_BYTES) {
      this.#done.push(this.#rows);
      this.#rows = [];
      this.#bytes = 0;
    }
    this.#rows.push(json);
    this.#bytes += bytes + 1;
  }

  texts(): string[] {
    const arrays = this.#rows.length > 0 ? [...this.#done, this.#rows] : this.#done;
    return arrays.map((rows) => `[${rows.join(",")}]`);
  }
}

/** A profile's row of `query_profiles`, in PROFILE_COLUMNS order. */
function columnsOf({ seq, entry }: PlacedProfile, row: QueryRow): unknown[] {
  return [
    seq,
    row.id,
    row.product_key,
    row.product_name,
    row.funnel_key,
    row.funnel_name,
    row.entity,
    row.grade,
    row.grade_rank,
    row.overall_outcome,
    row.public_state,
    ...STAGES.map((stage) => row.stages[stage].state),
    row.primary_stage,
    ...STAGES.map((stage) => row.stages[stage].signal),
    row.coverage_status,
    row.freshness,
    row.lifecycle,
    row.visibility,
    row.last_tested_at,
    entry.offset,
    entry.length,
    entry.sha256,
  ];
}
