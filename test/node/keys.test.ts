/**
 * `npm run operator` as an operator runs it: against running servers (like `npm start`'s, on the ports
 * given), and starting its own server over a state directory. Every key it prints is then used
 * against the real worker.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localOperator } from "../../src/node/operator/local-operator";
import { freePort, startWranglerDev, type DevServer } from "../../src/node/local/wrangler-dev";
import { runScript } from "../e2e/support/scripts";

/** `npm run operator -- …` as a real process. */
const keys = (args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) =>
  runScript("operator.ts", args, options);

// Each a CLI process of its own that reads no state: they run at once.
describe("usage", { concurrent: true }, () => {
  it.each([
    [[], /no command given/],
    [["frobnicate"], /unknown command: frobnicate/],
    [["create", "--account", "acct_x", "--mode", "prod"], /--mode must be live or test/],
    [
      ["create", "--account", "acct_x", "--mode", "test", "--scopes", "read:catalog,read:everything"],
      /unknown scope read:everything/,
    ],
    [["create", "--mode", "test"], /--account is required/],
    [["limits", "--key", "key_test_AAAAAAAAAAAAAAAAAAAA", "--rate", "0", "--burst", "1"], /--rate/],
    [["limits", "--key", "key_test_AAAAAAAAAAAAAAAAAAAA"], /--rate .* --burst .*, --reset, or --strict/],
    [["revoke", "sk_live_oops"], /is not a key id/],
    [["accounts", "list", "--remote"], /--remote needs --url/],
    [
      ["accounts", "list", "--deployed", "https://x.test", "--url", "https://y.test"],
      /--deployed <url> names the server/,
    ],
    [["accounts", "list", "--env", "staging"], /--env must be production or sandbox/],
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
  });

  it("--help prints every command and exits 0", async () => {
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
    expect(run.stderr).not.toContain("deprecated");
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
  const servers: Partial<Record<"production" | "sandbox", DevServer>> = {};
  let where: string[];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "keys-cli-"));
    const { envFile } = localOperator();
    const [production, sandbox] = await Promise.all([
      freePort().then((port) => startWranglerDev({ port, persistTo: dir, envFile })),
      freePort().then((port) => startWranglerDev({ port, persistTo: dir, envFile, environment: "sandbox" })),
    ]);
    Object.assign(servers, { production, sandbox });
    where = ["--port", new URL(production.url).port, "--sandbox-port", new URL(sandbox.url).port];
  }, 180_000);

  afterAll(async () => {
    await Promise.all(Object.values(servers).map((server) => server?.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  const cheeses = (deployment: "production" | "sandbox", secret: string) =>
    fetch(new URL("/v2/cheeses", servers[deployment]!.url), { headers: { Authorization: `Bearer ${secret}` } });

  it("runs the whole key lifecycle", { timeout: 180_000 }, async () => {
    const created = await keys(
      ["accounts", "create", "--email", "ops@example.test", "--password", "-", "--name", "Ops", ...where],
      { stdin: "long enough password\n" },
    );
    expect(created.code, created.stderr).toBe(0);
    const accountId = /created account (acct_\w+) \(ops@example\.test, customer\) on production and sandbox/.exec(
      created.stdout,
    )?.[1];
    expect(accountId).toBeDefined();

    const listed = await keys(["accounts", "list", ...where]);
    expect(listed.stdout).toMatch(
      new RegExp(`${accountId}\\s+ops@example\\.test\\s+Ops\\s+customer\\s+-\\s+production,sandbox`),
    );

    // A test key: printed once, works on the sandbox, is refused by production.
    const test = await keys(["create", "--account", accountId!, "--mode", "test", "--name", "CI", ...where]);
    expect(test.code, test.stderr).toBe(0);
    const testSecret = /secret: (sk_test_\w{36})/.exec(test.stdout)![1]!;
    expect(test.stdout).toContain("only time the secret is shown");
    expect((await cheeses("sandbox", testSecret)).status).toBe(200);
    const wrong = await cheeses("production", testSecret);
    expect([wrong.status, ((await wrong.json()) as { code: string }).code]).toEqual([401, "wrong_deployment"]);

    // Live keys with --json, up to the limit of 3 active.
    const live = [];
    for (let i = 0; i < 3; i++) {
      const run = await keys([
        "create",
        "--account",
        accountId!,
        "--mode",
        "live",
        "--scopes",
        "read:cheeses",
        "--json",
        ...where,
      ]);
      expect(run.code, run.stderr).toBe(0);
      live.push(JSON.parse(run.stdout) as { id: string; secret: string; scopes: string[] });
    }
    expect(live[0]!.scopes).toEqual(["read:cheeses"]);
    expect((await cheeses("production", live[0]!.secret)).status).toBe(200);
    const fourth = await keys(["create", "--account", accountId!, "--mode", "live", ...where]);
    expect(fourth.code).toBe(1);
    expect(fourth.stderr).toMatch(/refused \(409 key_limit_reached\)/);

    // list shows both deployments' keys, never a secret.
    const list = await keys(["list", "--account", accountId!, ...where]);
    expect(list.code).toBe(0);
    expect(list.stdout.trim().split("\n")).toHaveLength(5);
    for (const secret of [testSecret, ...live.map((k) => k.secret)]) expect(list.stdout).not.toContain(secret.slice(8));
    expect(list.stdout).toContain(`…${testSecret.slice(-4)}`);

    // revoke: refused from the very next request on.
    const revoked = await keys(["revoke", live[0]!.id, ...where]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await cheeses("production", live[0]!.secret)).status).toBe(401);

    // limits override, then reset.
    expect((await keys(["limits", "--key", live[1]!.id, "--rate", "2", "--burst", "4", ...where])).code).toBe(0);
    expect((await cheeses("production", live[1]!.secret)).headers.get("ratelimit-policy")).toBe('"default";q=4;w=2');
    expect((await keys(["limits", "--key", live[1]!.id, "--reset", ...where])).code).toBe(0);
    expect((await cheeses("production", live[1]!.secret)).headers.get("ratelimit-policy")).toBe('"default";q=100;w=1');
    // Strict: every request asks the key's SubjectGuard (no leases); then back to leases.
    const strict = await keys(["limits", "--key", live[1]!.id, "--strict", ...where]);
    expect([strict.code, strict.stdout]).toEqual([
      0,
      expect.stringMatching(/strict: every request asks its SubjectGuard/),
    ]);
    expect((await keys(["limits", "--key", live[1]!.id, "--no-strict", "--json", ...where])).stdout).toContain(
      '"strict":false',
    );

    // admin needs approval first.
    const refused = await keys(["create", "--account", accountId!, "--mode", "test", "--scopes", "admin", ...where]);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringMatching(/admin_not_approved/)]);
    expect((await keys(["approve-admin", "--account", accountId!, ...where])).stdout).toMatch(
      /admin approved .* on production and sandbox/,
    );
    const adminKey = await keys([
      "create",
      "--account",
      accountId!,
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
    const withdrawn = await keys(["withdraw-admin", "--account", accountId!, ...where]);
    expect(withdrawn.code, withdrawn.stderr).toBe(0);
    expect(withdrawn.stdout).toContain(`admin withdrawn for ${accountId} on production and sandbox`);
    expect(withdrawn.stdout).toContain(
      `API keys:   the account may no longer create keys with the admin scope; revoked its admin key ${adminKeyId}`,
    );
    expect(withdrawn.stdout).toContain("OAuth apps: none was approved");
    expect((await cheeses("sandbox", adminSecret)).status).toBe(401);
    expect(
      (await keys(["create", "--account", accountId!, "--mode", "test", "--scopes", "admin", ...where])).stderr,
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
    const base = servers.sandbox!.url;
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

  it("--deployed with a secret the server does not accept: exit 1, saying what to do", {
    timeout: 60_000,
  }, async () => {
    const run = await keys(["accounts", "list", "--deployed", servers.production!.url], {
      env: { OPERATOR_SECRET: "not-the-secret-not-the-secret-123456" },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/does not accept this operator secret/);
    expect(run.stderr).not.toMatch(/deprecated/);
  });

  it("--remote --url, the old spelling of --deployed, still works and says it is deprecated", {
    timeout: 60_000,
  }, async () => {
    const run = await keys(["accounts", "list", "--remote", "--url", servers.production!.url], {
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
