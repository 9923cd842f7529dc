/**
 * Floods of invalid credentials: counted per client IP with the Workers rate-limiting binding
 * (AUTH_FAILURE_LIMITER, 30 per 10 s in wrangler.toml); past the limit 429, and from then on the
 * IP's requests cost no storage at all. Other addresses, valid requests and requests that sent no
 * credential are not counted.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { generateApiKey } from "../../src/common/auth/api-key";
import { AUTH_FAILURE_WINDOW_SECONDS } from "../../src/worker/limits/ip-throttle";
import { accountWithKey, bearer, call, countingEnv, freshIp } from "./auth-fixtures";

const LIMIT = 30;

/**
 * Sends failed guesses (`secret`) from `ip` until past the limit whatever the window (2 × LIMIT + 1);
 * returns the headers of that failing request.
 */
async function floodFrom(ip: string, secret = "sk_live_not-a-key") {
  const failing = { Authorization: `Bearer ${secret}`, "CF-Connecting-IP": ip };
  for (let i = 0; i < 2 * LIMIT + 1; i++) await call("/v2/cheeses", { headers: failing });
  return failing;
}

describe("invalid credentials per client IP", () => {
  it("401 up to the limit, then 429 with Retry-After; afterwards no storage is touched, whatever the key", async () => {
    const ip = freshIp();
    const bad = { Authorization: "Bearer sk_live_not-a-key", "CF-Connecting-IP": ip };
    // The binding counts in fixed windows: a window may roll over once during the test, so the
    // first 429 arrives after at least LIMIT and at most 2 × LIMIT failures.
    let unauthorized = 0;
    let throttled: Response | undefined;
    while (!throttled && unauthorized <= 2 * LIMIT) {
      const res = await call("/v2/cheeses", { headers: bad });
      if (res.status === 429) throttled = res;
      else {
        expect(res.status).toBe(401);
        unauthorized++;
      }
    }
    const refused = expectDefined(throttled, `a 429 within ${2 * LIMIT} failures`);
    expect(unauthorized).toBeGreaterThanOrEqual(LIMIT);
    expect(refused.headers.get("retry-after")).toBe(String(AUTH_FAILURE_WINDOW_SECONDS));
    expect(await refused.json()).toMatchObject({
      code: "rate_limited",
      detail: expect.stringMatching(/invalid credentials from your address/),
    });

    // A malformed key from the same address: 429 before any storage read.
    const { env: counted, calls } = countingEnv();
    const res = await call(
      "/v2/cheeses",
      { headers: { Authorization: "Bearer sk_live_another-guess", "CF-Connecting-IP": ip } },
      counted,
    );
    expect(res.status).toBe(429);
    expect(calls).toEqual([]);
  });

  it("admits a valid key from an address over the limit (a shared NAT); failed guesses from it keep getting 429", async () => {
    const { secret } = await accountWithKey();
    const ip = freshIp();
    const bad = await floodFrom(ip);
    expect((await call("/v2/cheeses", { headers: bad })).status).toBe(429);
    // A key this isolate has never seen: checked against storage, and admitted.
    expect((await call("/v2/cheeses", { headers: { ...bearer(secret), "CF-Connecting-IP": ip } })).status).toBe(200);
    expect((await call("/v2/cheeses", { headers: { ...bearer(secret), "CF-Connecting-IP": ip } })).status).toBe(200);
    expect((await call("/v2/cheeses", { headers: bad })).status).toBe(429);
    const unknown = await call("/v2/cheeses", {
      headers: { ...bearer(generateApiKey("live").secret), "CF-Connecting-IP": ip },
    });
    expect(unknown.status).toBe(429);
  });

  it("past the limit, checks well-formed guesses against storage at most at the limit's rate, then not at all", async () => {
    const ip = freshIp();
    await floodFrom(ip);
    const { env: counted, calls } = countingEnv();
    const statuses: number[] = [];
    // The binding counts in fixed windows of the wall clock (miniflare: Date.now() ÷ the period),
    // and a loaded machine may take more than one window for these guesses: each guess is counted
    // in its window (one that straddles two is left out).
    const windowOf = (ms: number) => Math.floor(ms / (AUTH_FAILURE_WINDOW_SECONDS * 1000));
    const readsByWindow = new Map<number, number>();
    let withoutRead = 0;
    for (let i = 0; i < 3 * LIMIT; i++) {
      const before = calls.length;
      const started = windowOf(Date.now());
      const res = await call(
        "/v2/cheeses",
        { headers: { ...bearer(generateApiKey("live").secret), "CF-Connecting-IP": ip } },
        counted,
      );
      statuses.push(res.status);
      const read = calls.length > before;
      if (!read) withoutRead++;
      const window = windowOf(Date.now());
      if (read && window === started) readsByWindow.set(window, (readsByWindow.get(window) ?? 0) + 1);
    }
    expect(statuses.every((status) => status === 429)).toBe(true);
    // At most the limit's allowance reached storage in any window; past it, nothing did.
    for (const [window, reads] of readsByWindow) expect(reads, `window ${window}`).toBeLessThanOrEqual(LIMIT);
    expect(withoutRead).toBeGreaterThan(0);
  });

  it("takes the client address from CF-Connecting-IP only behind Cloudflare's edge: elsewhere a spoofed one evades nothing", async () => {
    // Under `wrangler dev` the header is whatever the client sent (miniflare fills it in only when absent).
    const local = { ...env, CLIENT_ADDRESS_SOURCE: "local" } as unknown as Env;
    let status = 0;
    for (let i = 0; i < 2 * LIMIT + 1 && status !== 429; i++) {
      status = (
        await call(
          "/v2/cheeses",
          { headers: { Authorization: "Bearer sk_live_wrong", "CF-Connecting-IP": freshIp() } },
          local,
        )
      ).status;
    }
    expect(status).toBe(429);
  });

  it("does not throttle other addresses, nor valid keys from them", async () => {
    const { secret } = await accountWithKey();
    const wrong = await floodFrom(freshIp(), "sk_live_wrong");
    expect((await call("/v2/cheeses", { headers: wrong })).status).toBe(429);
    expect((await call("/v2/cheeses", { headers: { ...bearer(secret), "CF-Connecting-IP": freshIp() } })).status).toBe(
      200,
    );
    expect((await call("/v2/cheeses", { headers: { ...wrong, "CF-Connecting-IP": freshIp() } })).status).toBe(401);
  });

  it("does not count requests that sent no credential, nor requests without a client address", async () => {
    const ip = freshIp();
    for (let i = 0; i < 2 * LIMIT + 1; i++)
      expect((await call("/v2/cheeses", { headers: { "CF-Connecting-IP": ip } })).status).toBe(401);
    for (let i = 0; i < 2 * LIMIT + 1; i++)
      expect((await call("/v2/cheeses", { headers: { Authorization: "Bearer sk_live_wrong" } })).status).toBe(401);
  });

  it("does not count valid requests against the address", async () => {
    const { secret, key } = await accountWithKey();
    await env.SUBJECT_GUARDS.getByName(key.id).setPolicyOverride({ rate: 1000, burst: 1000 });
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 2 * LIMIT + 5 }, () =>
        call("/v2/cheeses", { headers: { ...bearer(secret), "CF-Connecting-IP": ip } }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
  });
});
