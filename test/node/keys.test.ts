/**
 * `npm run operator` as an operator runs it: against running servers (like `npm start`'s, on the ports
 * given), and starting its own server over a state directory. Every key it prints is then used
 * against the real worker. The commands run in process (`operator()`, the function the door calls);
 * a few run through the doors themselves (scripts/operator.ts, scripts/keys.ts) as real processes:
 * --help and a usage error of `npm run keys`, and an account's password read from standard input.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { freePort, startWranglerDev, type DevServer } from "../../src/node/local/wrangler-dev";
import { localOperator } from "../../src/node/operator/local-operator";
import { operator } from "../../src/node/operator/operator-command";
import { runScript } from "../e2e/support/scripts";
import { runInProcess } from "./cli-in-process";

/** `npm run operator -- …`, in process. */
const keys = (args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) =>
  runInProcess(operator.run, args, options);

describe("usage", { concurrent: true }, () => {
  it.each([
    [[], /no command given/],
    [["frobnicate"], /unknown command: frobnicate/],
    [["create", "--account", "acct_x", "--mode", "prod"], /--mode must be live or test/],
    [
      ["create", "--account", "acct_x", "--mode", "test", "--scopes", "read:catalog,read:everything"],
      /unknown scope read:everything/,
    ],
    [["create", "--account", "acct_x", "--mode", "test", "--scopes", " , "], /unknown scope \(none given\)/],
    [["create", "--mode", "test"], /--account is required/],
    [["limits", "--key", "key_test_AAAAAAAAAAAAAAAAAAAA", "--rate", "0", "--burst", "1"], /--rate/],
    [["limits", "--key", "key_test_AAAAAAAAAAAAAAAAAAAA"], /--rate .* --burst .*, --reset, or --strict/],
    [["limits", "--key", "key_test_AAAAAAAAAAAAAAAAAAAA", "--reset", "--rate", "2"], /--reset takes no --rate/],
    [["revoke", "sk_live_oops"], /is not a key id/],
    [["accounts", "list", "--remote"], /--remote needs --url/],
    [
      ["accounts", "list", "--deployed", "https://x.test", "--url", "https://y.test"],
      /--deployed <url> names the server/,
    ],
    [["accounts", "list", "--url", "https://y.test", "--persist-to", "/tmp/x"], /--url and --persist-to exclude/],
    [["accounts", "list", "--url", "localhost:8787"], /--url "localhost:8787" is not an http:\/\/ or https:\/\/ URL/],
    [["accounts", "list", "--deployed", "not a url"], /--deployed "not a url" is not a URL/],
    // A server named, but no command: refused before any server is asked (none answers at either).
    [["--url", "http://127.0.0.1:9"], /no command given/],
    [["--deployed", "http://127.0.0.1:9"], /no command given/],
    [["accounts", "list", "--env", "staging"], /--env must be production or sandbox/],
    [["accounts", "list", "--port", "70000"], /--port must be a port number/],
    [["accounts", "list", "--sandbox-port", "x"], /--sandbox-port must be a port number/],
    [["reject-admin", "--client", "abc"], /--account is required/],
    // --name=value, also for a value that starts with "-" (a client id may).
    [["create", "--account=acct_x", "--mode=prod"], /--mode must be live or test/],
    [["reject-admin", "--client=-Xy0123456789abc"], /--account is required/],
    [["reject-admin", "--client", "-Xy0123456789abc"], /argument is ambiguous[\s\S]*--client=-XYZ/],
  ])("operator %j exits 2 with the reason and the help", async (args, reason) => {
    const run = await keys(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(reason);
    expect(run.stderr).toContain("Usage: npm run operator");
    expect(run.stdout).toBe("");
  });

  it("a --url where nothing answers: exit 1 naming the URL and why", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const run = await keys(["accounts", "list", "--url", url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`operator: ${url} did not answer (ECONNREFUSED): is the server running at that address?\n`);
  });

  it("--help prints every command on stdout and exits 0", async () => {
    const run = await keys(["--help"]);
    expect(run.code).toBe(0);
    for (const command of [
      "accounts create",
      "accounts list",
      "admin-requests",
      "approve-admin",
      "reject-admin",
      "withdraw-admin",
      "--client",
      "create --account",
      "list --account",
      "revoke <key_id>",
      "limits --key",
    ]) {
      expect(run.stdout).toContain(command);
    }
    expect(run.stderr).toBe("");
  });

  it("--deployed without $OPERATOR_SECRET exits 2 before any request, naming --deployed", async () => {
    const run = await keys(["accounts", "list", "--deployed", "https://x.test"], { env: { OPERATOR_SECRET: "" } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^operator: --deployed needs the deployment's operator secret in \$OPERATOR_SECRET/);
  });

  it("npm run keys, its former name, still runs it for one release and says so on stderr", async () => {
    const [help, usage] = await Promise.all([runScript("keys.ts", ["--help"]), runScript("keys.ts", ["frobnicate"])]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: npm run operator");
    expect(help.stderr).toBe(
      "keys: `npm run keys` is deprecated and goes in the next release: use `npm run operator`\n",
    );
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^keys: `npm run keys` is deprecated[^\n]*\noperator: unknown command: frobnicate\n/);
  });
});

describe("against running servers (as started by npm start)", () => {
  let dir: string;
  let servers: Record<"production" | "sandbox", DevServer>;
  let where: string[];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "keys-cli-"));
    const { envFile } = localOperator();
    const [production, sandbox] = await Promise.all([
      startWranglerDev({ persistTo: dir, envFile }),
      startWranglerDev({ persistTo: dir, envFile, environment: "sandbox" }),
    ]);
    servers = { production, sandbox };
    where = ["--port", new URL(production.url).port, "--sandbox-port", new URL(sandbox.url).port];
  }, 180_000);

  afterAll(async () => {
    await Promise.all(Object.values(servers ?? {}).map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  const cheeses = (deployment: "production" | "sandbox", secret: string) =>
    fetch(new URL("/v2/cheeses", servers[deployment].url), { headers: { Authorization: `Bearer ${secret}` } });

  it("runs the whole key lifecycle", { timeout: 180_000 }, async () => {
    // Through the door, as a real process: the password from its standard input.
    const created = await runScript(
      "operator.ts",
      ["accounts", "create", "--email", "ops@example.test", "--password", "-", "--name", "Ops", ...where],
      { stdin: "long enough password\n" },
    );
    expect(created.code, created.stderr).toBe(0);
    const accountId = expectDefined(
      /created account (acct_\w+) \(ops@example\.test, customer\) on production and sandbox/.exec(created.stdout)?.[1],
      `the new account's id in ${JSON.stringify(created.stdout)}`,
    );

    const listed = await keys(["accounts", "list", ...where]);
    expect(listed.stdout).toMatch(
      new RegExp(`${accountId}\\s+ops@example\\.test\\s+Ops\\s+customer\\s+-\\s+production,sandbox`),
    );

    // A test key: printed once, works on the sandbox, is refused by production.
    const test = await keys(["create", "--account", accountId, "--mode", "test", "--name", "CI", ...where]);
    expect(test.code, test.stderr).toBe(0);
    const testSecret = expectDefined(/secret: (sk_test_\w{36})/.exec(test.stdout)?.[1], "the test key's secret");
    expect(test.stdout).toContain("only time the secret is shown");
    expect((await cheeses("sandbox", testSecret)).status).toBe(200);
    const wrong = await cheeses("production", testSecret);
    expect([wrong.status, ((await wrong.json()) as { code: string }).code]).toEqual([401, "wrong_deployment"]);

    // Live keys with --json, up to the limit of 3 active.
    const createLive = async () => {
      const run = await keys([
        "create",
        "--account",
        accountId,
        "--mode",
        "live",
        "--scopes",
        "read:cheeses",
        "--json",
        ...where,
      ]);
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { id: string; secret: string; scopes: string[] };
    };
    const first = await createLive();
    const second = await createLive();
    const third = await createLive();
    expect(first.scopes).toEqual(["read:cheeses"]);
    expect((await cheeses("production", first.secret)).status).toBe(200);
    const fourth = await keys(["create", "--account", accountId, "--mode", "live", ...where]);
    expect(fourth.code).toBe(1);
    expect(fourth.stderr).toMatch(/refused \(409 key_limit_reached\)/);

    // list shows both deployments' keys, never a secret.
    const list = await keys(["list", "--account", accountId, ...where]);
    expect(list.code).toBe(0);
    expect(list.stdout.trim().split("\n")).toHaveLength(5);
    for (const secret of [testSecret, first.secret, second.secret, third.secret])
      expect(list.stdout).not.toContain(secret.slice(8));
    expect(list.stdout).toContain(`…${testSecret.slice(-4)}`);

    // revoke: refused from the very next request on.
    const revoked = await keys(["revoke", first.id, ...where]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await cheeses("production", first.secret)).status).toBe(401);

    // limits override, then reset.
    expect((await keys(["limits", "--key", second.id, "--rate", "2", "--burst", "4", ...where])).code).toBe(0);
    expect((await cheeses("production", second.secret)).headers.get("ratelimit-policy")).toBe('"default";q=4;w=2');
    expect((await keys(["limits", "--key", second.id, "--reset", ...where])).code).toBe(0);
    expect((await cheeses("production", second.secret)).headers.get("ratelimit-policy")).toBe('"default";q=100;w=1');
    // Strict: every request asks the key's SubjectGuard (no leases); then back to leases.
    const strict = await keys(["limits", "--key", second.id, "--strict", ...where]);
    expect([strict.code, strict.stdout]).toEqual([
      0,
      expect.stringMatching(/strict: every request asks its SubjectGuard/),
    ]);
    expect((await keys(["limits", "--key", second.id, "--no-strict", "--json", ...where])).stdout).toContain(
      '"strict":false',
    );

    // admin needs approval first.
    const refused = await keys(["create", "--account", accountId, "--mode", "test", "--scopes", "admin", ...where]);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringMatching(/admin_not_approved/)]);
    expect((await keys(["approve-admin", "--account", accountId, ...where])).stdout).toMatch(
      /admin approved .* on production and sandbox/,
    );
    const adminKey = await keys([
      "create",
      "--account",
      accountId,
      "--mode",
      "test",
      "--scopes",
      "read:cheeses,admin",
      "--json",
      ...where,
    ]);
    expect(adminKey.code, adminKey.stderr).toBe(0);
    const { id: adminKeyId, secret: adminSecret } = JSON.parse(adminKey.stdout) as { id: string; secret: string };
    expect((await cheeses("sandbox", adminSecret)).status).toBe(200);
    // withdraw-admin: no new admin key, and the admin key stops working at once.
    const withdrawn = await keys(["withdraw-admin", "--account", accountId, ...where]);
    expect(withdrawn.code, withdrawn.stderr).toBe(0);
    expect(withdrawn.stdout).toContain(`admin withdrawn for ${accountId} on production and sandbox`);
    expect(withdrawn.stdout).toContain(
      `API keys:   the account may no longer create keys with the admin scope; revoked its admin key ${adminKeyId}`,
    );
    expect(withdrawn.stdout).toContain("OAuth apps: none was approved");
    expect((await cheeses("sandbox", adminSecret)).status).toBe(401);
    expect(
      (await keys(["create", "--account", accountId, "--mode", "test", "--scopes", "admin", ...where])).stderr,
    ).toMatch(/admin_not_approved/);

    const unknown = await keys(["revoke", "key_live_AAAAAAAAAAAAAAAAAAAA", ...where]);
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/404 key_not_found/)]);
  });

  /** A new account on the sandbox, made through the CLI: its id. */
  async function sandboxAccount(email: string): Promise<string> {
    const run = await keys([
      "accounts",
      "create",
      "--email",
      email,
      "--password",
      "long enough password",
      "--env",
      "sandbox",
      "--json",
      ...where,
    ]);
    expect(run.code, run.stderr).toBe(0);
    return (JSON.parse(run.stdout) as { id: string }).id;
  }

  it("rotation over real HTTP: create a key with the old one, both work, revoke the old with the new", {
    timeout: 60_000,
  }, async () => {
    const id = await sandboxAccount("rotate@example.test");
    const old = JSON.parse((await keys(["create", "--account", id, "--mode", "test", "--json", ...where])).stdout) as {
      id: string;
      secret: string;
    };
    const base = servers.sandbox.url;
    const created = await fetch(new URL("/v1/keys", base), {
      method: "POST",
      headers: { Authorization: `Bearer ${old.secret}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "rotated" }),
    });
    expect(created.status).toBe(201);
    const fresh = (await created.json()) as { secret: string };
    expect([(await cheeses("sandbox", old.secret)).status, (await cheeses("sandbox", fresh.secret)).status]).toEqual([
      200, 200,
    ]);
    const revoked = await fetch(new URL(`/v1/keys/${old.id}`, base), {
      method: "DELETE",
      headers: { Authorization: `Bearer ${fresh.secret}` },
    });
    expect(revoked.status).toBe(200);
    expect([(await cheeses("sandbox", old.secret)).status, (await cheeses("sandbox", fresh.secret)).status]).toEqual([
      401, 200,
    ]);
  });

  it("--env sandbox acts on the sandbox only", { timeout: 60_000 }, async () => {
    const id = await sandboxAccount("sandbox-only@example.test");
    const production = await keys(["accounts", "list", "--env", "production", "--json", ...where]);
    expect((JSON.parse(production.stdout) as { id: string }[]).map((a) => a.id)).not.toContain(id);
  });

  it("--url reaches that one server: what needs the other deployment is refused, naming it", {
    timeout: 60_000,
  }, async () => {
    const id = await sandboxAccount("one-server@example.test");
    const url = servers.sandbox.url;
    const listed = await keys(["accounts", "list", "--url", url, "--json"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toContainEqual(expect.objectContaining({ id, deployments: ["sandbox"] }));
    const live = await keys(["create", "--account", id, "--mode", "live", "--url", url]);
    expect([live.code, live.stderr]).toEqual([
      2,
      expect.stringContaining(`this needs the production deployment, but ${url} is sandbox: pass its URL with --url`),
    ]);
    const production = await keys(["accounts", "list", "--env", "production", "--url", url]);
    expect([production.code, production.stderr]).toEqual([
      2,
      expect.stringContaining("--env production is not reachable here (this command reaches sandbox)"),
    ]);
    const elsewhere = await keys(["create", "--account", id, "--mode", "live", "--env", "sandbox", ...where]);
    expect([elsewhere.code, elsewhere.stderr]).toEqual([
      2,
      expect.stringContaining("live keys live on production, not on sandbox"),
    ]);
  });

  it("servers on each other's ports: exit 1, saying which deployment answered", { timeout: 60_000 }, async () => {
    const [production, sandbox] = [servers.production, servers.sandbox].map((server) => new URL(server.url).port);
    const run = await keys(["accounts", "list", "--port", String(sandbox), "--sandbox-port", String(production)]);
    expect(run.code).toBe(1);
    // Both deployments are reached at once: whichever answers first is named.
    expect(run.stderr).toMatch(
      /^operator: http:\/\/127\.0\.0\.1:\d+ is the (sandbox deployment, not production|production deployment, not sandbox)$/m,
    );
  });

  it("--deployed with a secret the server does not accept: exit 1, saying what to do", {
    timeout: 60_000,
  }, async () => {
    const run = await keys(["accounts", "list", "--deployed", servers.production.url], {
      env: { OPERATOR_SECRET: "not-the-secret-not-the-secret-123456" },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/does not accept this operator secret/);
    expect(run.stderr).not.toMatch(/deprecated/);
  });

  it("--remote --url, the old spelling of --deployed, still works and says it is deprecated", {
    timeout: 60_000,
  }, async () => {
    const run = await keys(["accounts", "list", "--remote", "--url", servers.production.url], {
      env: { OPERATOR_SECRET: "not-the-secret-not-the-secret-123456" },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/does not accept this operator secret/);
    expect(run.stderr).toMatch(/--remote --url <url> is deprecated .* use --deployed <url>/);
  });
});

describe("with no server running", () => {
  it("starts its own wrangler dev over --persist-to and stops it", { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "keys-cli-own-"));
    try {
      const run = await keys(["accounts", "list", "--env", "sandbox", "--persist-to", dir]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`no sandbox server running: starting wrangler dev over ${dir}`);
      expect(run.stdout.trim()).toBe("no accounts");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
