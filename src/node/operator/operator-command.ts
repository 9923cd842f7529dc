/**
 * `npm run operator -- <command>` (formerly `npm run keys`): operator management of accounts, API
 * keys, admin clearance and admin requests, through the worker's operator API (local by default;
 * `--deployed <url>` for a deployed worker). See HELP.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { SCOPES } from "../../common/auth/scopes";
import { type CliIo, cliCommand, EXIT, httpUrlOption, PROCESS_IO, UsageError } from "../cli/cli-run";
import { accountPassword } from "./account-password";
import * as adminCommands from "./admin-commands";
import * as commands from "./commands";
import { connect } from "./connect";
import { DEFAULT_PERSIST_TO } from "../local/deployment-storage";
import { localStateDir, runningInstance, type RunningInstance } from "../start/running-instance";
import { OperatorRefusal, type Deployment } from "./operator-client";
import { showUsage } from "./usage-command";

const HELP = `Usage: npm run operator -- <command> [options]

Accounts (an account exists under one id on production and on the sandbox):
  accounts create --email <e> [--password-file <path|->] [--name <n>] [--operator]
                         Create an account. Its password: from the file (- reads standard
                         input), else $ACCOUNT_PASSWORD; never on the command line.
  accounts list          Every account, with the deployments it is on.

Admin clearance and admin requests (the admin scope is never granted without an operator):
  admin-requests [--account <id>]
                         OAuth apps waiting for admin: account, email, app name, client id.
  approve-admin --account <id> [--client=<client_id>]
                         Without --client: admin clearance (the account may create API keys with
                         admin), and every
                         OAuth app waiting for admin on it is approved (later requests wait again).
                         With --client: only that app's request. Its next token carries admin.
  reject-admin --account <id> [--client=<client_id>]
                         Refuse the waiting OAuth request(s) of the account (all, or that app's);
                         tokens keep leaving admin out. The admin clearance is not changed.
  withdraw-admin --account <id> [--client=<client_id>]
                         Without --client: withdraw the account's admin clearance (its
                         active keys that carry admin are revoked at once) and every approved
                         OAuth app's admin. With --client: only that app's approval. The app's
                         grants that hold admin end: their tokens stop at the next request, and
                         the customer must authorize it again (a new admin request).

Keys (live keys are on production, test keys on the sandbox):
  create --account <id> --mode live|test [--scopes a,b] [--name <n>] [--json]
                         Create a key; prints its secret once. Default scopes: all but admin.
                         Scopes: ${SCOPES.join(", ")}
  list --account <id>    The account's keys: id, mode, status, last 4, scopes, created, last used.
  revoke <key_id>        Revoke a key; refused from its very next request on.
  limits --key <key_id> [--rate <n> --burst <m> | --reset] [--strict | --no-strict]
                         Override the key's rate limit (requests/s, burst); --reset removes it.
                         --strict: every request asks the key's SubjectGuard (no admission leases), so
                         a revocation holds from the very next request; each request is slower.
                         --no-strict: back to leases (a revocation holds everywhere within 1 s).

Usage (each deployment in reach, or --env's):
  usage [--account <id>] [--from <ISO>] [--to <ISO>] [--granularity hour|day] [--json]
                         Requests, errors, 429s, bytes and codes per deployment (with the requests
                         refused before authentication), and the top 20 accounts and keys by
                         requests and by errors. Default: the last 24 hours, per hour.

Where (default: local):
  local                  The servers of a running \`npm start\` (its ports and state, whatever
                         --port/--persist-to it was given; said on stderr) if they answer, else a
                         wrangler dev this command starts over .wrangler/state.
  --port <n>, --sandbox-port <n>
                         The ports of the servers to use. Default: the running npm start's, else 8787, 8788.
  --persist-to <dir>     Local state directory (as wrangler dev --persist-to); starts its own server
                         (unless it is the state the running npm start serves: then its servers).
  --env production|sandbox
                         Only this deployment (account commands act on both by default).
  --deployed <url>       A deployed worker, e.g. https://readiness-catalog.<you>.workers.dev, with
                         its operator secret in $OPERATOR_SECRET (npx wrangler secret put OPERATOR_SECRET).
                         (\`--remote --url <url>\`, its old spelling, still works until the next release.)
  --url <url>            A specific local server instead of the default ports.
  --json                 Machine-readable output.
  -h, --help             This help.

Options take --name value or --name=value; a value starting with "-" (a client id may) needs
--name=value.

Exit codes: 0 done; 1 refused or failed (the problem code and detail are printed); 2 usage error.`;

const DEFAULT_PORTS = { production: 8787, sandbox: 8788 };

/**
 * Without --persist-to, or with the very state a running `npm start` serves: its servers (ports).
 * With another --persist-to: that state, through a server of our own; a running npm start is named.
 */
function localServers(
  persistTo: string | undefined,
  log: (line: string) => void,
): { persistTo: string | undefined; ports: RunningInstance["ports"] } {
  const running = runningInstance();
  if (running && (persistTo === undefined || path.resolve(persistTo) === running.persistTo)) {
    log(`npm start (pid ${running.pid}) is running over ${running.persistTo}: using its servers`);
    return { persistTo: undefined, ports: running.ports };
  }
  return {
    persistTo: persistTo === undefined ? undefined : localStateDir(persistTo, DEFAULT_PERSIST_TO, log),
    ports: {},
  };
}

const OPTIONS = {
  email: { type: "string" },
  "password-file": { type: "string" },
  /** Deprecated (but for "-", standard input): on the command line, npm echoes it and ps shows it. */
  password: { type: "string" },
  name: { type: "string" },
  operator: { type: "boolean", default: false },
  account: { type: "string" },
  client: { type: "string" },
  mode: { type: "string" },
  scopes: { type: "string" },
  key: { type: "string" },
  from: { type: "string" },
  to: { type: "string" },
  granularity: { type: "string" },
  rate: { type: "string" },
  burst: { type: "string" },
  reset: { type: "boolean", default: false },
  strict: { type: "boolean" },
  json: { type: "boolean", default: false },
  env: { type: "string" },
  deployed: { type: "string" },
  /** Deprecated: `--remote --url <url>` is `--deployed <url>` (the other CLIs' --remote means Cloudflare's storage). */
  remote: { type: "boolean", default: false },
  url: { type: "string" },
  "persist-to": { type: "string" },
  port: { type: "string" },
  "sandbox-port": { type: "string" },
} as const;

/** The deployed worker's URL, from `--deployed <url>` or the deprecated `--remote --url <url>`. */
function deployedUrlOf(values: { deployed?: string; remote: boolean; url?: string; "persist-to"?: string }, io: CliIo) {
  if (values.deployed !== undefined && (values.remote || values.url || values["persist-to"]))
    throw new UsageError("--deployed <url> names the server: leave out --remote, --url and --persist-to");
  if (!values.remote) return values.deployed;
  if (!values.url) throw new UsageError("--remote needs --url <the deployed worker's URL>");
  io.err("operator: --remote --url <url> is deprecated and goes in the next release: use --deployed <url>");
  return values.url;
}

/** `npm run operator`: `operator.run(argv, io)` in process, `operator.door()` in scripts/operator.ts. */
export const operator = cliCommand("operator", HELP, operatorMain);

async function operatorMain(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    allowNegative: true,
  });
  const only = parseEnv(values.env);
  const deployed = deployedUrlOf(values, io);
  if (values.url && values["persist-to"]) throw new UsageError("--url and --persist-to exclude each other");
  if (values.url !== undefined) httpUrlOption("url", values.url);
  if (values.deployed !== undefined) httpUrlOption("deployed", values.deployed);
  const log = (line: string) => io.err(line);
  const local = deployed !== undefined || values.url ? null : localServers(values["persist-to"], log);
  const connections = connect({
    deployed: deployed !== undefined,
    deployedSecret: io.env.OPERATOR_SECRET,
    url: deployed ?? values.url,
    persistTo: local?.persistTo,
    ports: {
      production: portFrom("port", values.port ?? String(local?.ports.production ?? DEFAULT_PORTS.production)),
      sandbox: portFrom(
        "sandbox-port",
        values["sandbox-port"] ?? String(local?.ports.sandbox ?? DEFAULT_PORTS.sandbox),
      ),
    },
    log,
  });
  const ctx: commands.CommandContext = { connections, only, json: values.json, print: (text) => io.out(text) };
  const required = (name: keyof typeof values, value: string | undefined) => {
    if (!value) throw new UsageError(`--${name} is required`);
    return value;
  };
  try {
    const [command, sub, ...rest] = positionals;
    if (command === "accounts" && sub === "create") {
      await commands.createAccount(ctx, {
        email: required("email", values.email),
        password: accountPassword(values, io),
        name: values.name,
        operator: values.operator,
      });
    } else if (command === "accounts" && sub === "list") await commands.listAccounts(ctx);
    else if (command === "admin-requests") await adminCommands.listAdminRequests(ctx, values.account);
    else if (command === "approve-admin")
      await adminCommands.approveAdmin(ctx, {
        accountId: required("account", values.account),
        clientId: values.client,
      });
    else if (command === "reject-admin")
      await adminCommands.rejectAdmin(ctx, {
        accountId: required("account", values.account),
        clientId: values.client,
      });
    else if (command === "withdraw-admin")
      await adminCommands.withdrawAdmin(ctx, {
        accountId: required("account", values.account),
        clientId: values.client,
      });
    else if (command === "create") {
      await commands.createKey(ctx, {
        accountId: required("account", values.account),
        mode: commands.parseMode(values.mode),
        scopes: commands.parseScopes(values.scopes),
        name: values.name,
      });
    } else if (command === "list") await commands.listKeys(ctx, required("account", values.account));
    else if (command === "revoke" && sub) await commands.revokeKey(ctx, sub);
    else if (command === "usage")
      await showUsage(ctx, {
        account: values.account,
        from: values.from,
        to: values.to,
        granularity: values.granularity,
      });
    else if (command === "limits")
      await commands.setLimits(ctx, required("key", values.key), policyFrom(values), values.strict);
    else
      throw new UsageError(
        command ? `unknown command: ${[command, sub].filter(Boolean).join(" ")}` : "no command given",
      );
    if (rest.length) throw new UsageError(`unexpected arguments: ${rest.join(" ")}`);
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof OperatorRefusal)) throw error;
    io.err(`operator: refused (${error.status} ${error.code}): ${error.detail}`);
    return EXIT.failed;
  } finally {
    await connections.close();
  }
}

function portFrom(name: string, value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`--${name} must be a port number`);
  return port;
}

function parseEnv(value: string | undefined): Deployment | undefined {
  if (value === undefined) return undefined;
  if (value !== "production" && value !== "sandbox") throw new UsageError("--env must be production or sandbox");
  return value;
}

/** The override to set, null to remove it, undefined to leave it (only --strict/--no-strict given). */
function policyFrom(values: {
  rate?: string;
  burst?: string;
  reset: boolean;
  strict?: boolean;
}): { rate: number; burst: number } | null | undefined {
  if (values.reset) {
    if (values.rate || values.burst) throw new UsageError("--reset takes no --rate or --burst");
    return null;
  }
  if (values.rate === undefined && values.burst === undefined && values.strict !== undefined) return undefined;
  const rate = Number(values.rate);
  const burst = Number(values.burst);
  if (!(rate > 0) || !Number.isInteger(burst) || burst < 1) {
    throw new UsageError(
      "limits needs --rate <requests per second, > 0> --burst <whole number ≥ 1>, --reset, or --strict/--no-strict",
    );
  }
  return { rate, burst };
}

/**
 * `npm run keys` (scripts/keys.ts), the operator CLI's name until this release: "keys" also named
 * API keys, KV entries and signing keys. It still works, one release more, and says so on stderr.
 */
export function runDeprecatedKeys(): void {
  PROCESS_IO.err("keys: `npm run keys` is deprecated and goes in the next release: use `npm run operator`");
  operator.door();
}
