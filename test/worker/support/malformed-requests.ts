/**
 * The table of malformed requests http-robustness.test.ts sends to every route, and the routes'
 * paths read from the app itself (path parameters filled in).
 */
export interface Credentials {
  apiKey: string;
  operatorSecret: string;
  /** A signed-in dashboard session's Cookie header, and the CSRF token of its forms. */
  cookie: string;
  csrfToken: string;
}

export interface OddRequest {
  name: string;
  path: string;
  init: RequestInit;
}

/** Every concrete path the app routes: `:param` filled with `x`, a trailing `*` with `x`. */
export function routePaths(app: { routes: readonly { path: string }[] }): string[] {
  const paths = app.routes.map((route) => route.path).filter((path) => path.startsWith("/") && path !== "/*");
  const filled = paths.map((path) => path.replace(/:[^/{]+(\{[^}]*\})?\??/g, "x").replace(/\/\*$/, "/x"));
  return [...new Set(filled)].sort();
}

/** The credentials a browser page, the operator API and the API each read. */
function credentialsFor(path: string, credentials: Credentials): Record<string, string> {
  if (path.startsWith("/operator/")) return { Authorization: `Bearer ${credentials.operatorSecret}` };
  if (/^\/(dashboard|login|logout|oauth\/authorize)/.test(path))
    return { Cookie: credentials.cookie, Origin: "https://api.test" };
  return { Authorization: `Bearer ${credentials.apiKey}` };
}

type Variant = [name: string, headers: Record<string, string>, body?: string, path?: (path: string) => string];

const VARIANTS: Variant[] = [
  ["malformed JSON", { "Content-Type": "application/json" }, '{"name":'],
  ["JSON of another shape", { "Content-Type": "application/json" }, "[1,2,3]"],
  ["JSON null", { "Content-Type": "application/json" }, "null"],
  ["text/plain body", { "Content-Type": "text/plain" }, "hello"],
  ["form with broken escapes", { "Content-Type": "application/x-www-form-urlencoded" }, "a=%ZZ&&=&b=%ff&csrf_token=%"],
  [
    "multipart, broken boundary",
    { "Content-Type": "multipart/form-data; boundary=zz" },
    "--zz\r\nContent-Disposition: form-data\r\n\r\nx",
  ],
  ["multipart without boundary", { "Content-Type": "multipart/form-data" }, "x"],
  ["odd Content-Type", { "Content-Type": "application/json;;charset==;" }, "{}"],
  ["body without Content-Type", {}, '{"a":1}'],
  [
    "odd Range and conditionals",
    {
      Range: "bytes=abc",
      "If-Match": '"',
      "If-None-Match": "W/",
      "If-Range": "garbage",
      "If-Modified-Since": "yesterday",
      "If-Unmodified-Since": "0",
    },
  ],
  ["Range past 2^53", { Range: `bytes=${"9".repeat(40)}-${"9".repeat(41)}` }],
  ["a thousand ranges", { Range: `bytes=${"0-0,".repeat(1000)}0-0` }],
  ["20 kB bearer token", { Authorization: `Bearer ${"x".repeat(20_000)}` }],
  ["Basic credentials of garbage", { Authorization: "Basic %%%==" }],
  ["odd query", {}, undefined, (path) => `${path}?x=%ff&%zz=1&a=%00&client_id=%E0%A4%A&q=${"b".repeat(8000)}`],
  ["64 kB header", { "X-Padding": "a".repeat(64 * 1024) }],
  ["odd cookies", { Cookie: 'session=%ff; __Host-session="; a; =b' }],
  [
    "odd Accept headers",
    { Accept: "*/*;q=abc", "Accept-Encoding": "gzip;q=2, identity;q=0", "Accept-Language": "\u00ff" },
  ],
  ["another site's Origin", { Origin: "https://evil.test", "Sec-Fetch-Site": "cross-site" }],
];

const MIB = 1 << 20;
/** Every form field the pages and the OAuth endpoints read, with values no page would send. */
const oddFormFields = (csrfToken: string) =>
  `csrf_token=${csrfToken}&form_id=%ff&mode=%00&access=x&scopes=admin&scopes=&name=${"n".repeat(5000)}&continue=//evil.test&email=%ff&password=` +
  `&grant_type=authorization_code&code=a:b:c&code_verifier=%E0%A4&redirect_uri=javascript:x&client_id=%00&token=x&token_type_hint=q` +
  `&decision=maybe&account_id=acct_&client=..%2f&key_id=key_live_%ff`;

/** The table for one method and path: bare, with credentials, then each malformation with credentials. */
export function odd(method: string, path: string, credentials: Credentials): OddRequest[] {
  const auth = credentialsFor(path, credentials);
  const bodyAllowed = method !== "GET" && method !== "HEAD";
  const requests: OddRequest[] = [
    { name: "no credentials", path, init: { method } },
    { name: "credentials", path, init: { method, headers: auth } },
  ];
  for (const [name, headers, body, rewrite] of VARIANTS) {
    if (body !== undefined && !bodyAllowed) continue;
    requests.push({
      name,
      path: rewrite ? rewrite(path) : path,
      init: { method, headers: { ...auth, ...headers }, body },
    });
  }
  if (bodyAllowed) {
    const form = { ...auth, "Content-Type": "application/x-www-form-urlencoded" };
    requests.push({
      name: "form of odd fields with a valid CSRF token",
      path,
      init: { method, headers: form, body: oddFormFields(credentials.csrfToken) },
    });
  }
  if (method === "POST") {
    requests.push({
      name: "1 MiB JSON body",
      path,
      init: { method, headers: { ...auth, "Content-Type": "application/json" }, body: `"${"a".repeat(MIB)}"` },
    });
    requests.push({
      name: "1 MiB form body",
      path,
      init: {
        method,
        headers: { ...auth, "Content-Type": "application/x-www-form-urlencoded" },
        body: `a=${"b".repeat(MIB)}`,
      },
    });
  }
  return requests;
}
