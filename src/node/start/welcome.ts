/**
 * What `npm start` prints once everything answers: where each server is, and commands and URLs
 * that work as pasted (test/e2e/start.test.ts runs every one of them). Short on purpose: one
 * screen, one block per thing to try.
 */
import { randomUUID } from "node:crypto";
import { expectDefined } from "../../common/expect";
import { count } from "../cli/cli-run";
import type { DemoAccounts } from "../operator/demo";
import { MODE_OF, type Deployment } from "../operator/operator-client";
import type { ServedRelease } from "./release";

export interface Welcome {
  servers: { deployment: Deployment; baseUrl: string }[];
  /** What each deployment serves, in the order of `servers`. */
  releases: (ServedRelease & { deployment: Deployment })[];
  demo: DemoAccounts;
  /** Absent when the OAuth demo could not start (the reason is printed instead). */
  oauth?: { authorizeUrl: string; clientName: string; redirectUri: string };
  oauthProblem?: string;
  /** `product_key/funnel_key` of a profile of the sample catalog, read when production serves the sample. */
  exampleProfile?: string;
}

const DEFAULT_PORTS: Record<Deployment, string> = { production: "8787", sandbox: "8788" };
const PORT_FLAGS: Record<Deployment, string> = { production: "--port", sandbox: "--sandbox-port" };

/**
 * `npm run operator` finds npm start's servers on 8787/8788; other ports must be named. Every printed
 * option is `--name=value`: node's parseArgs takes `--name value` for an option only when the value
 * does not start with "-", and client ids can (they are base64url).
 */
export function keysCliFlags(servers: Welcome["servers"]): string {
  return servers
    .filter(({ deployment, baseUrl }) => new URL(baseUrl).port !== DEFAULT_PORTS[deployment])
    .map(({ deployment, baseUrl }) => ` ${PORT_FLAGS[deployment]}=${new URL(baseUrl).port}`)
    .join("");
}

export function welcomeText(welcome: Welcome): string {
  const { servers, demo } = welcome;
  const production = expectDefined(servers[0], "the production server, started first").baseUrl;
  const liveKey = expectDefined(demo.keys[0], "the demo customer's production key").secret;
  const live = `-H "Authorization: Bearer ${liveKey}"`;
  const keyKind: Record<Deployment, string> = { production: "live keys", sandbox: "test keys" };
  const dashboards = servers.map(({ baseUrl }) => `${baseUrl}/dashboard`);
  const credentials = (account: { email: string; password: string }) => `${account.email} / ${account.password}`;
  const column = Math.max(credentials(demo.customer).length, credentials(demo.operator).length) + 3;
  const login = (account: { email: string; password: string }) => credentials(account).padEnd(column);
  return [
    "",
    "Readiness Catalog API is running. Ctrl-C stops it.",
    ...servers.map(({ deployment, baseUrl }) => `  ${deployment.padEnd(10)}  ${baseUrl}  (${keyKind[deployment]})`),
    ...releaseLines(welcome.releases),
    "",
    `API, as the demo customer ${demo.customer.email} (${demo.customer.id}), with a new demo key per deployment (one of its 3 active keys; each start revokes the previous start's):`,
    ...revokedLines(demo.revoked),
    ...(welcome.exampleProfile && welcome.releases[0]?.sample
      ? [`  curl -s ${live} ${production}/v1/profiles/${welcome.exampleProfile}; echo`]
      : []),
    `  curl -s ${live} ${production}/v1/catalog | head -c 300; echo`,
    `  curl -i ${live} ${production}/v1/releases/current`,
    `  curl -i ${live} -H 'Range: bytes=0-99' ${production}/v1/catalog`,
    ...demo.keys
      .slice(1)
      .map(({ baseUrl, secret }) => `  curl -i -H "Authorization: Bearer ${secret}" ${baseUrl}/v1/releases/current`),
    ...testOrderLines(demo.keys),
    `  CATALOG_API_KEY=${liveKey} npm run catalog:pull -- --base-url=${production} --out=dist/catalog.json`,
    "",
    `Dashboard: ${dashboards.join("  (sandbox: ")}${dashboards.length > 1 ? ")" : ""}`,
    `  customer  ${login(demo.customer)}keys, authorized apps, webhooks; the catalog explorer: ${production}/explore`,
    `  operator  ${login(demo.operator)}admin requests, accounts (${production}/dashboard/operator)`,
    "",
    "Webhooks: start a receiver that prints each delivery, register http://127.0.0.1:8790/ as the customer",
    "(dashboard, Webhooks; export WEBHOOK_SECRET=<its whsec_…> first to verify signatures), then publish or Send test event:",
    "  npm run webhooks:receive -- --port=8790",
    "",
    ...(welcome.oauth
      ? [
          `OAuth: open this in a browser, sign in as the customer, click Allow; ${welcome.oauth.clientName}`,
          `(callback ${welcome.oauth.redirectUri}) then prints API calls with its token here:`,
          `  ${welcome.oauth.authorizeUrl}`,
        ]
      : [`OAuth demo not started: ${welcome.oauthProblem}`]),
    "",
    `Operators: npm run operator -- list --account=${demo.customer.id}${keysCliFlags(servers)}   (npm run operator -- --help, npm run clients -- --help)`,
  ].join("\n");
}

/** A sandbox order with the test key: livemode false, never a real order; the key makes a retry a replay. */
function testOrderLines(keys: DemoAccounts["keys"]): string[] {
  const sandbox = keys.find((key) => key.deployment === "sandbox");
  if (!sandbox) return [];
  const body = JSON.stringify({ items: [{ cheese_id: "chs_comte", quantity: 2 }], shipping_address: DEMO_ADDRESS });
  return [
    `  curl -X POST -H "Authorization: Bearer ${sandbox.secret}" -H "Idempotency-Key: demo-${randomUUID()}" -H "Content-Type: application/json" -d '${body}' ${sandbox.baseUrl}/v2/orders`,
  ];
}

const DEMO_ADDRESS = { line1: "12 rue des Fromages", city: "Lyon", postal_code: "69002", country: "FR" };

/** One line per deployment: each has its own state, so its own release and publication time. */
function releaseLines(releases: Welcome["releases"]): string[] {
  const label = "  release     ";
  return releases.map(
    (release, i) =>
      `${i === 0 ? label : " ".repeat(label.length)}${`${release.deployment}:`.padEnd(11)} ${release.release_id}, ${releaseText(release)}`,
  );
}

function releaseText(release: ServedRelease): string {
  const which = release.sample
    ? `the sample catalog${release.publishedNow ? " (published by this start)" : ""}`
    : "not the sample (kept; npm start -- --publish-sample serves the sample instead)";
  return `${count(release.profile_count, "profile")}, published ${release.published_at}, ${which}`;
}

/** The previous start's demo keys no longer work: say so, since their secrets may have been pasted somewhere. */
function revokedLines(revoked: DemoAccounts["revoked"]): string[] {
  if (revoked.length === 0) return [];
  const keys = revoked.map(({ deployment, last4 }) => `sk_${MODE_OF[deployment]}_…${last4}`).join(" and ");
  return [`  the previous start's demo keys ${keys} are revoked: they get 401 revoked_api_key`];
}
