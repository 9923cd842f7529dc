/**
 * The request log `npm start` shows once everything answers: the worker's own access-log line per
 * request (src/worker/http/access-log.ts: request id, route pattern, status, key or grant, never a
 * raw path), prefixed by deployment. wrangler prints its own line for the same request
 * (`[wrangler:info] GET /v1/catalog 200 OK (12ms)`): left out, or every request would show twice.
 * Operator API calls are left out too: wrangler logs a request when it ends, so the lines of
 * start's own seeding calls can arrive after the welcome screen, and the operator CLI prints its
 * own results anyway. So are wrangler's table of bindings, printed again each time it reloads the
 * worker (the welcome screen said what runs), and its line per queue batch (each publish sends
 * one to the webhook consumer, whose deliveries the worker logs itself).
 */
const WRANGLER_NOISE = [
  /^\[wrangler:info\] [A-Z]+ \S+ \d{3}\b/,
  /^\[wrangler:info\] QUEUE \S+ \d+\/\d+\b/,
  /^Your Worker has access to the following bindings:$/,
  /^Binding\s+Resource\s+Mode$/,
  /^env\.[A-Z0-9_]+\b.*\s(local|remote)$/,
];

export function requestLogLines(text: string, prefix: string): string {
  return text
    .split(/(?<=\n)/)
    .filter((line) => !line.includes("/operator/v1/") && !WRANGLER_NOISE.some((noise) => noise.test(line.trim())))
    .map((line) => (line.trim() ? prefix + line : line))
    .join("");
}
