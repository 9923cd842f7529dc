/**
 * The catalog:pull command `npm start` prints writes where git ignores it: running it as pasted
 * from the repository leaves `git status` clean.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { requestLogLines } from "../../src/node/start/request-log";
import { welcomeText, type Welcome } from "../../src/node/start/welcome";
import { CreateOrderBody } from "../../src/worker/orders/schemas";
import { expectDefined } from "../../src/common/expect";

const REPO = path.resolve(import.meta.dirname, "../..");
const account = (email: string) => ({ id: "acct_00000000000000000000", email, password: "pw" });
const WELCOME: Welcome = {
  servers: [{ deployment: "production", baseUrl: "http://localhost:8787" }],
  releases: [
    {
      deployment: "production",
      release_id: `sha256:${"a".repeat(64)}`,
      profile_count: 26,
      published_at: "2026-11-23T00:00:00.000Z",
      sample: true,
      publishedNow: true,
    },
  ],
  demo: {
    customer: account("demo@example.com"),
    operator: account("operator@example.com"),
    keys: [{ deployment: "production", baseUrl: "http://localhost:8787", secret: "sk_live_x" }],
    revoked: [],
  },
  exampleProfile: "northwind-payments-api/checkout",
};

/** Whether git ignores `file` (a path relative to the repository), tracked or not. */
const ignored = (file: string) =>
  spawnSync("git", ["check-ignore", "--no-index", "-q", file], { cwd: REPO }).status === 0;

describe("the printed catalog:pull command", () => {
  it("writes its document to a path git ignores", () => {
    const out = /npm run catalog:pull -- .*--out=(\S+)/.exec(welcomeText(WELCOME))?.[1];
    expect(out).toBe("dist/catalog.json");
    expect(ignored(expectDefined(out, "the --out of catalog:pull"))).toBe(true);
    expect(ignored(`${out}.partial-1234`)).toBe(true);
  });

  it("and the README's catalog.json at the repository root is ignored too", () => {
    expect(ignored("catalog.json")).toBe(true);
    expect(ignored("catalog.json.partial-1234")).toBe(true);
    expect(ignored("data/catalog.json")).toBe(false);
  });
});

describe("the printed order", () => {
  it("is one POST /v2/orders to the sandbox with the test key, an Idempotency-Key and a valid body", () => {
    const both: Welcome = {
      ...WELCOME,
      servers: [...WELCOME.servers, { deployment: "sandbox", baseUrl: "http://localhost:8788" }],
      demo: {
        ...WELCOME.demo,
        keys: [...WELCOME.demo.keys, { deployment: "sandbox", baseUrl: "http://localhost:8788", secret: "sk_test_y" }],
      },
    };
    const orders = welcomeText(both)
      .split("\n")
      .filter((line) => line.includes("/v2/orders"));
    expect(orders).toHaveLength(1);
    const [line] = orders as [string];
    expect(line).toMatch(
      /^ {2}curl -X POST -H "Authorization: Bearer sk_test_y" -H "Idempotency-Key: demo-[0-9a-f-]{36}" /,
    );
    expect(line.endsWith(" http://localhost:8788/v2/orders")).toBe(true);
    const body = /-d '([^']+)'/.exec(line)?.[1];
    expect(CreateOrderBody.safeParse(JSON.parse(body ?? "null")).success).toBe(true);
    expect(welcomeText(WELCOME)).not.toContain("/v2/orders");
  });
});

describe("the first commands printed", () => {
  const apiLines = (welcome: Welcome) => {
    const lines = welcomeText(welcome).split("\n");
    const start = lines.findIndex((line) => line.startsWith("API, as the demo customer"));
    return {
      heading: expectDefined(lines[start], "the demo customer's heading"),
      commands: lines.slice(start + 1).filter((line) => line.startsWith("  curl")),
    };
  };

  it("read one profile of the sample, then the catalog; nothing of the old demo domain", () => {
    const { commands } = apiLines(WELCOME);
    expect(commands[0]).toBe(
      '  curl -s -H "Authorization: Bearer sk_live_x" http://localhost:8787/v1/profiles/northwind-payments-api/checkout; echo',
    );
    expect(commands[1]).toContain("http://localhost:8787/v1/catalog");
    expect(welcomeText(WELCOME)).not.toContain("/v2/cheeses");
  });

  it("without the sample served, no profile is guessed: the catalog comes first", () => {
    const own = { ...WELCOME, releases: [{ ...expectDefined(WELCOME.releases[0], "a release"), sample: false }] };
    expect(apiLines(own).commands[0]).toContain("/v1/catalog");
    expect(welcomeText(own)).not.toContain("/v1/profiles/");
  });

  it("says that each demo key is one of the account's 3 active keys", () => {
    expect(apiLines(WELCOME).heading).toContain("one of its 3 active keys");
  });
});

describe("the request log after the screen", () => {
  it("shows each request once: the worker's access-log line, not wrangler's own line for it", () => {
    const access =
      '{"level":"info","message":"request","request_id":"req_1","method":"GET","route":"/v1/catalog","status":200}';
    const chunk = `${access}\n[wrangler:info] GET /v1/catalog 200 OK (12ms)\n[wrangler:info] GET /operator/v1/accounts 200 OK (3ms)\n`;
    expect(requestLogLines(chunk, "[production] ")).toBe(`[production] ${access}\n`);
  });

  // What wrangler dev printed after a local publish (its queue batch) and on a reload (its bindings).
  it("leaves out wrangler's table of bindings and its queue batch lines", () => {
    const access = '{"level":"info","message":"request","request_id":"req_2","route":"/v1/releases","status":200}';
    const chunk = [
      "⎔ Reloading local server...",
      "Your Worker has access to the following bindings:",
      "Binding                                                 Resource                  Mode",
      "env.ACCOUNTS (AccountObject)                            Durable Object            local",
      'env.RATE_LIMITS ({"live":{"rate":100,"burst":100},"tes...)                Environment Variable      local',
      'env.OPERATOR_SECRET ("(hidden)")                        Environment Variable      local',
      "[wrangler:info] QUEUE readiness-catalog-webhooks 0/2 (206ms)",
      access,
      "",
    ].join("\n");
    expect(requestLogLines(chunk, "[production] ")).toBe(
      `[production] ⎔ Reloading local server...\n[production] ${access}\n`,
    );
  });
});

describe("the printed catalog explorer", () => {
  it("is production's /explore, beside the demo customer who signs in to it", () => {
    expect(welcomeText(WELCOME)).toMatch(
      /^ {2}customer {2}demo@example\.com .*the catalog explorer: http:\/\/localhost:8787\/explore$/m,
    );
  });
});
