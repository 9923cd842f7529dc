/**
 * Malformed `Authorization` values, each with the code and the words of the detail it must get.
 * Every one is decided without storage; `liveKey` is well formed and `testKey` is of the other mode.
 */
import { generateApiKey, KEY_PREFIX_OF } from "../../src/common/auth/api-key";
import { keyChecksum } from "../../src/common/auth/checksum";

export interface MalformedCase {
  name: string;
  header: string | null;
  code: "unauthenticated" | "invalid_authorization_header" | "invalid_api_key" | "wrong_deployment";
  detail: RegExp;
}

const live = generateApiKey("live").secret;
const test = generateApiKey("test").secret;
const body = live.slice(KEY_PREFIX_OF.live.length);
const random = body.slice(0, 30);
const withChecksum = (r: string) => `sk_live_${r}${keyChecksum(r)}`;
const flip = (ch: string) => (ch === "a" ? "b" : "a");
const lastFlipped = live.slice(0, -1) + flip(live.charAt(live.length - 1));
/** Two adjacent, different characters swapped (a transposition typo). */
const at = [...random].findIndex((ch, i) => ch !== random[i + 1]);
const swapped = `sk_live_${random.slice(0, at)}${random[at + 1]}${random[at]}${random.slice(at + 2)}${body.slice(30)}`;
const otherChecksum = `sk_live_${random}${keyChecksum(flip(random.charAt(0)) + random.slice(1))}`;

const H = "invalid_authorization_header" as const;
const K = "invalid_api_key" as const;

export const MALFORMED_CASES: MalformedCase[] = [
  { name: "no header", header: null, code: "unauthenticated", detail: /No Authorization header/ },
  { name: "empty header", header: "", code: "unauthenticated", detail: /empty/ },
  { name: "Basic scheme", header: "Basic dXNlcjpwYXNzd29yZA==", code: H, detail: /Basic scheme.*only Bearer/ },
  { name: "Token scheme", header: `Token ${live}`, code: H, detail: /Token scheme/ },
  { name: "Negotiate scheme", header: "Negotiate YIIBhwYGKwYBBQUCoIIBezCCAXeg", code: H, detail: /Negotiate scheme/ },
  {
    name: "AWS signature scheme",
    header: "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request",
    code: H,
    detail: /scheme/,
  },
  { name: "scheme with a colon", header: `Bearer: ${live}`, code: H, detail: /unknown scheme/ },
  { name: "Bearer without credential", header: "Bearer", code: H, detail: /no credential/ },
  { name: "key without the Bearer prefix", header: live, code: H, detail: /missing the "Bearer " prefix/ },
  { name: "Bearer= glued to the key", header: `Bearer=${live}`, code: H, detail: /missing the "Bearer " prefix/ },
  { name: "Bearer%20 url-encoded space", header: `Bearer%20${live}`, code: H, detail: /missing the "Bearer " prefix/ },
  { name: "Bearer+ instead of a space", header: `Bearer+${live}`, code: H, detail: /missing the "Bearer " prefix/ },
  { name: "two spaces", header: `Bearer  ${live}`, code: H, detail: /More than one space/ },
  { name: "three spaces", header: `Bearer   ${live}`, code: H, detail: /More than one space/ },
  { name: "tab separator", header: `Bearer\t${live}`, code: H, detail: /tab/ },
  { name: "two credentials", header: `Bearer ${live} ${live}`, code: H, detail: /more than one credential/ },
  { name: "credential plus a word", header: `Bearer ${live} please`, code: H, detail: /more than one credential/ },
  { name: "comma list of two", header: `Bearer ${live}, Bearer ${live}`, code: H, detail: /comma/ },
  { name: "trailing comma", header: `Bearer ${live},`, code: H, detail: /comma/ },
  { name: "Digest with parameters", header: 'Digest username="a", realm="b"', code: H, detail: /comma/ },
  { name: "quoted key", header: `Bearer "${live}"`, code: H, detail: /characters that no API key/ },
  { name: "key in angle brackets", header: `Bearer <${live}>`, code: H, detail: /characters that no API key/ },
  { name: "trailing semicolon", header: `Bearer ${live};`, code: H, detail: /characters that no API key/ },
  { name: "non-ASCII letter in the credential", header: "Bearer sk_live_café", code: H, detail: /non-ASCII/ },
  { name: "no-break space separator", header: "Bearer\u00a0sk_live_x", code: H, detail: /non-ASCII/ },
  { name: "over-long header", header: `Bearer ${"a".repeat(600)}`, code: H, detail: /at most 512/ },
  { name: "over-long sk_ credential", header: `Bearer sk_live_${"x".repeat(505)}`, code: H, detail: /at most 512/ },
  { name: "prefix only", header: "Bearer sk_live_", code: K, detail: /44 characters long; this one has 8/ },
  { name: "key missing its last character", header: `Bearer ${live.slice(0, -1)}`, code: K, detail: /this one has 43/ },
  { name: "key with one extra character", header: `Bearer ${live}a`, code: K, detail: /this one has 45/ },
  { name: "key with padding", header: `Bearer ${live}=`, code: K, detail: /this one has 45/ },
  { name: "key pasted twice", header: `Bearer ${live}${live}`, code: K, detail: /this one has 88/ },
  { name: "unknown mode prefix", header: `Bearer sk_prod_${body}`, code: K, detail: /unknown prefix/ },
  { name: "capitalised mode", header: `Bearer sk_Live_${body}`, code: K, detail: /unknown prefix/ },
  { name: "no mode at all", header: `Bearer sk_${body}`, code: K, detail: /unknown prefix/ },
  {
    name: "dash inside the key",
    header: `Bearer sk_live_${random.slice(0, 29)}-${body.slice(30)}`,
    code: K,
    detail: /base62.*character 38/,
  },
  {
    name: "underscore inside the key",
    header: `Bearer sk_live__${body.slice(1)}`,
    code: K,
    detail: /base62.*character 9/,
  },
  { name: "dot inside the key", header: `Bearer sk_live_${random}.${body.slice(31)}`, code: K, detail: /base62/ },
  { name: "last character mistyped", header: `Bearer ${lastFlipped}`, code: K, detail: /checksum does not match/ },
  { name: "two characters swapped", header: `Bearer ${swapped}`, code: K, detail: /checksum does not match/ },
  {
    name: "checksum of other characters",
    header: `Bearer ${otherChecksum}`,
    code: K,
    detail: /checksum does not match/,
  },
  { name: "all zeros", header: `Bearer sk_live_${"0".repeat(36)}`, code: K, detail: /checksum does not match/ },
  { name: "lower-case scheme, mistyped key", header: `bearer ${lastFlipped}`, code: K, detail: /checksum/ },
  {
    name: "upper-case scheme, truncated key",
    header: `BEARER ${live.slice(0, 40)}`,
    code: K,
    detail: /this one has 40/,
  },
  {
    name: "test key sent to production",
    header: `Bearer ${test}`,
    code: "wrong_deployment",
    detail: /test key .* production deployment.*sandbox/,
  },
  {
    name: "well-formed checksum on a test key, lower-case scheme",
    header: `bearer ${test}`,
    code: "wrong_deployment",
    detail: /sandbox/,
  },
];

/** Values the fetch API itself would normalise or refuse, so only the pure parser sees them. */
export const RAW_ONLY_CASES: { name: string; header: string; detail: RegExp }[] = [
  { name: "leading space", header: ` Bearer ${live}`, detail: /starts with whitespace/ },
  { name: "trailing space", header: `Bearer ${live} `, detail: /ends with whitespace/ },
  { name: "Bearer and one space only", header: "Bearer ", detail: /ends with whitespace/ },
  { name: "leading tab", header: `\tBearer ${live}`, detail: /starts with whitespace/ },
  { name: "NUL byte", header: `Bearer ${live}\u0000`, detail: /control characters/ },
  { name: "CR LF injection", header: `Bearer ${live}\r\nX-Evil: 1`, detail: /control characters/ },
  { name: "emoji", header: `Bearer ${live}🧀`, detail: /non-ASCII/ },
];

export const WELL_FORMED = { live, test, checksummed: withChecksum(random) };
