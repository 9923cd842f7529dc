/**
 * `npm start`: the whole local setup in one command. Builds the sample catalog, publishes it to the
 * local state of each deployment (production and sandbox) where no release is current yet (a
 * restart keeps what was published since: src/node/start/release.ts), serves them with `wrangler dev`
 * on http://localhost:8787 and http://localhost:8788, seeds the demo accounts and the OAuth demo
 * app, and prints one screen of commands and URLs that work as pasted (src/node/start/welcome.ts).
 * wrangler's own start-up output is kept back (it is shown if a server fails); once everything
 * answers, its request log follows, prefixed with the deployment.
 */
import { createServer } from "node:net";
import path from "node:path";
import { parseArgs } from "node:util";
import { expectDefined } from "../../common/expect";
import { buildCatalog } from "../catalog/build/build";
import { type CliIo, cliCommand, count, EXIT, UsageError } from "../cli/cli-run";
import { schemaSummary } from "../local/d1-migrations";
import { DEFAULT_PERSIST_TO, openDeploymentStorage } from "../local/deployment-storage";
import { seedDemoAccounts } from "../operator/demo";
import { localOperator } from "../operator/local-operator";
import {
  DEMO_CALLBACK_PORT,
  DEMO_CLIENT_NAME,
  demoRedirectUri,
  seedDemoClient,
  startOAuthDemo,
  type OAuthDemo,
} from "../oauth/demo";
import { releaseToServe, sampleProfileKey } from "./release";
import { requestLogLines } from "./request-log";
import { recordRunningInstance } from "./running-instance";
import { keysCliFlags, welcomeText, type Welcome } from "./welcome";
import { startWranglerDev, type DevServer } from "../local/wrangler-dev";

const HELP = `Usage: npm start [-- --port 8787] [--sandbox-port 8788] [--no-sandbox] [--oauth-port 8789] [--persist-to <dir>] [--publish-sample]

1. builds data/profiles into dist/ (as npm run catalog:build -- --in data/profiles --out dist)
2. applies the D1 migrations (migrations/) to the local state of production and of the sandbox
   (--persist-to, default ${DEFAULT_PERSIST_TO}), and publishes the sample there where no release
   is current yet (or the sample is, to finish its query load); a release current there (published
   by an earlier start, catalog:publish or catalog:rollback) stays current, unless --publish-sample
3. serves production on http://localhost:<port> and the sandbox on http://localhost:<sandbox-port>
   with wrangler dev, until Ctrl-C
4. seeds the demo customer (demo@example.com) with a new live and test key, revoking the previous
   start's demo keys, and the demo operator (operator@example.com) on both, and the OAuth demo app,
   whose callback listens on http://127.0.0.1:<oauth-port>/callback
5. prints the release each deployment serves, the URLs, credentials and ready-to-paste commands
`;

const SAMPLE_PROFILES = "data/profiles";

const DEPLOYMENTS = [
  { name: "production", environment: undefined },
  { name: "sandbox", environment: "sandbox" },
] as const;

/** `npm start` (scripts/start.ts): its door; stopped by Ctrl-C or SIGTERM. */
export const npmStart = cliCommand("start", HELP, (argv, io) =>
  start(argv, io, {
    onStop: (stopAll) => {
      process.once("SIGINT", stopAll);
      process.once("SIGTERM", stopAll);
    },
  }),
);

export interface StartOptions {
  /**
   * Called as the servers start with the function that stops them (and the OAuth demo), after
   * which start returns 0. The door calls it on Ctrl-C or SIGTERM; before this step, those signals
   * end the process as usual.
   */
  onStop?: (stopAll: () => void) => void;
}

/**
 * The command, in process: usage errors are thrown (the door prints them with the help, exit 2);
 * returns when the servers stop: 0 when asked to, 1 when one stopped on its own.
 */
export async function start(argv: string[], io: CliIo, { onStop }: StartOptions = {}): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string", default: "8787" },
      "sandbox-port": { type: "string", default: "8788" },
      "no-sandbox": { type: "boolean", default: false },
      "oauth-port": { type: "string", default: String(DEMO_CALLBACK_PORT) },
      "persist-to": { type: "string", default: DEFAULT_PERSIST_TO },
      "publish-sample": { type: "boolean", default: false },
    },
  });
  const deployments = values["no-sandbox"] ? DEPLOYMENTS.slice(0, 1) : DEPLOYMENTS;
  const ports = {
    production: portFrom("port", values.port),
    sandbox: portFrom("sandbox-port", values["sandbox-port"]),
  };
  const oauthPort = portFrom("oauth-port", values["oauth-port"]);
  const persistTo = values["persist-to"];
  // The OAuth demo's port is not checked: without it the API still starts (and says why).
  await ensurePortsFree(
    deployments.map((deployment) => [
      deployment.name === "production" ? "--port" : "--sandbox-port",
      ports[deployment.name],
    ]),
  );

  // 1. Build the sample catalog. The default part size, like catalog:build: a release's layout is
  // immutable once published, so a demo-only size would collide with a later catalog:publish.
  const built = await buildCatalog({ input: SAMPLE_PROFILES, outDir: "dist" });
  const { manifest } = built;
  io.out(
    `built ${manifest.release_id}: ${count(manifest.profile_count, "profile")}, ${count(manifest.parts.length, "part")} (${path.relative(".", built.releaseDir)})`,
  );

  // 2. Publish it where `wrangler dev` reads, unless another release is current; register the OAuth demo app.
  let demoClientId = "";
  const releases: Welcome["releases"] = [];
  for (const deployment of deployments) {
    // Opening the local state applies the D1 migrations it lacks, in process (no wrangler CLI run).
    const opened = await openDeploymentStorage({ environment: deployment.environment, persistTo });
    try {
      io.out(`${deployment.name}: ${schemaSummary(opened.migrationsApplied)}`);
      const served = await releaseToServe(opened.storage, built, { publishSample: values["publish-sample"] });
      releases.push({ ...served, deployment: deployment.name });
      io.out(
        `${deployment.name}: ${served.publishedNow ? "published" : "keeps"} ${served.release_id}${served.sample ? " (the sample)" : ""}`,
      );
      if (deployment.name === "production") demoClientId = await seedDemoClient(opened.env, demoRedirectUri(oauthPort));
    } finally {
      await opened.dispose();
    }
  }
  io.out(`local state in ${persistTo}`);

  // 3. Serve, both with the local secrets (.wrangler/operator.env: OPERATOR_SECRET, which `npm run operator`
  // also uses, and OAUTH_TOKEN_KEY).
  const operator = localOperator();
  const servers: { name: (typeof DEPLOYMENTS)[number]["name"]; server: DevServer }[] = [];
  let oauthDemo: OAuthDemo | undefined;
  let showRequestLog = false;
  let stopping = false;
  let forgetInstance = () => {};
  const stopAll = () => {
    stopping = true;
    forgetInstance();
    return Promise.all([...servers.map(({ server }) => server.stop()), oauthDemo?.stop()]);
  };
  onStop?.(() => void stopAll());
  try {
    for (const deployment of deployments) {
      io.out(`starting ${deployment.name} (wrangler dev on port ${ports[deployment.name]})…`);
      const prefix = `[${deployment.name}] `;
      const server = await startWranglerDev({
        port: ports[deployment.name],
        persistTo,
        environment: deployment.environment,
        envFile: operator.envFile,
        onOutput: (text) => showRequestLog && process.stdout.write(requestLogLines(text, prefix)),
      });
      servers.push({ name: deployment.name, server });
    }
  } catch (error) {
    await stopAll();
    throw error;
  }

  // The other CLIs (keys, clients, catalog:publish/rollback) now act on this state and these servers.
  forgetInstance = recordRunningInstance({
    persistTo,
    ports: Object.fromEntries(servers.map(({ name, server }) => [name, Number(new URL(server.url).port)])),
  });

  // 4. The demo accounts, the OAuth demo app's callback, then the one screen to try it all.
  const reached = servers.map(({ name, server }) => ({
    deployment: name,
    baseUrl: server.url.replace("127.0.0.1", "localhost"),
  }));
  const demo = await seedDemoAccounts(reached, operator.operatorSecret).catch(async (error: unknown) => {
    await stopAll();
    throw error;
  });
  const welcome: Welcome = { servers: reached, releases, demo, exampleProfile: sampleProfileKey(SAMPLE_PROFILES) };
  try {
    oauthDemo = await startOAuthDemo({
      baseUrl: expectDefined(reached[0], "the production server, started first").baseUrl,
      clientId: demoClientId,
      port: oauthPort,
      accountId: demo.customer.id,
      keysCliFlags: keysCliFlags(reached),
      log: (text) => io.out(text),
    });
    welcome.oauth = {
      authorizeUrl: oauthDemo.authorizeUrl,
      clientName: DEMO_CLIENT_NAME,
      redirectUri: oauthDemo.redirectUri,
    };
  } catch (error) {
    welcome.oauthProblem = `${error instanceof Error ? error.message : String(error)} (the API is up; try --oauth-port <another port>)`;
  }
  io.out(welcomeText(welcome));
  io.out("\nRequest log:");
  showRequestLog = true;

  const ended = await Promise.race(
    servers.map(({ name, server }) => server.exited.then((exit) => ({ exit, server, name }))),
  );
  if (stopping) return EXIT.ok;
  io.err(
    `\n${ended.name} stopped on its own (exit ${ended.exit}); its last output:\n${ended.server.log().slice(-2000)}`,
  );
  await stopAll();
  return EXIT.failed;
}

function portFrom(name: string, value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`--${name} must be a port number`);
  return port;
}

/**
 * wrangler dev's readiness check would take another server on the port for ours (e.g. an
 * `npm start` still running): refuse before doing anything instead.
 */
async function ensurePortsFree(ports: [flag: string, port: number][]): Promise<void> {
  for (const [flag, port] of ports) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (!free)
      throw new Error(
        `port ${port} is in use (another npm start?): stop that server, or choose another port with ${flag} <n>`,
      );
  }
}
