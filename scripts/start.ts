/**
 * `npm start`: the whole local setup in one command. Builds the sample catalog, publishes it to the
 * local state of both deployments (production and sandbox), serves them with `wrangler dev` on
 * http://localhost:8787 and http://localhost:8788, and prints commands that work as pasted.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { publishRelease } from "../src/catalog/publish";
import { buildCatalog } from "./catalog/build";
import { EXIT, runCli } from "./cli-run";
import { openDeploymentStorage } from "./deployment-storage";
import { demoKeysText, seedDemoKeys } from "./keys/demo";
import { localOperator } from "./keys/local-operator";
import { DEMO_CUSTOMER, seedDemoClient, seedDemoCustomer, startOAuthDemo, type OAuthDemo } from "./oauth/demo";
import { openReleaseDir } from "./release-dir";
import { startWranglerDev, type DevServer } from "./wrangler-dev";

const HELP = `Usage: npm start [-- --port 8787] [--sandbox-port 8788] [--no-sandbox]

1. builds data/profiles into dist/ (as npm run catalog:build -- --in data/profiles --out dist)
2. publishes it to the local state of production and of the sandbox (.wrangler/state)
3. serves production on http://localhost:<port> and the sandbox on http://localhost:<sandbox-port>
   with wrangler dev, until Ctrl-C
4. seeds the demo account (demo@example.com) on both, with a new live key (production) and test
   key (sandbox) at every start, and prints a curl for each
`;

const DEPLOYMENTS = [
  { name: "production", environment: undefined },
  { name: "sandbox", environment: "sandbox" },
] as const;

runCli("start", HELP, async (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: { port: { type: "string", default: "8787" }, "sandbox-port": { type: "string", default: "8788" }, "no-sandbox": { type: "boolean", default: false } },
  });
  const deployments = values["no-sandbox"] ? DEPLOYMENTS.slice(0, 1) : DEPLOYMENTS;
  const ports = { production: Number(values.port), sandbox: Number(values["sandbox-port"]) };

  // 1. Build the sample catalog.
  // The default part size, like catalog:build: a release's layout is immutable once published, so
  // a demo-only size would collide with a later `catalog:build` + `catalog:publish` of the same data.
  const built = await buildCatalog({ input: "data/profiles", outDir: "dist" });
  console.log(`built ${built.manifest.release_id}: ${built.manifest.profile_count} profiles, ${built.manifest.parts.length} parts (${path.relative(".", built.releaseDir)})`);

  // 2. Publish it where `wrangler dev` reads (the default local state), for each deployment.
  let demoClientId = "";
  for (const deployment of deployments) {
    const opened = await openDeploymentStorage({ environment: deployment.environment });
    try {
      const result = await publishRelease(opened.storage, openReleaseDir(built.releaseDir));
      console.log(`${result.pointer_flipped ? "published" : "already current"}: ${result.release_id} on ${opened.where}`);
      if (deployment.name === "production") demoClientId = await seedDemoClient(opened.env); // OAuth demo app
    } finally {
      await opened.dispose();
    }
  }

  // 3. Serve, both with the local OPERATOR_SECRET (.wrangler/operator.env), which `npm run keys` also uses.
  const operator = localOperator();
  const servers: DevServer[] = [];
  let oauthDemo: OAuthDemo | undefined;
  const stopAll = () => Promise.all([...servers.map((server) => server.stop()), oauthDemo?.stop()]);
  process.once("SIGINT", () => void stopAll());
  process.once("SIGTERM", () => void stopAll());
  try {
    for (const deployment of deployments) {
      const prefix = `[${deployment.name}] `;
      const server = await startWranglerDev({
        port: ports[deployment.name],
        environment: deployment.environment,
        envFile: operator.envFile,
        onOutput: (text) => process.stdout.write(text.replace(/^(?=.)/gm, prefix)),
      });
      servers.push(server);
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  // 4. Demo credentials: the demo customer on both deployments, with a fresh live and test key.
  const local = (server: DevServer) => server.url.replace("127.0.0.1", "localhost");
  const demoKeys = await seedDemoKeys(
    deployments.map((deployment, i) => ({ deployment: deployment.name, baseUrl: local(servers[i]!) })),
    operator.operatorSecret,
    DEMO_CUSTOMER,
  );
  printWelcome(servers, built.manifest.release_id, demoKeys.keys[0]!.secret);
  console.log(`\n${demoKeysText(demoKeys)}`);
  const production = servers[0]!.url.replace("127.0.0.1", "localhost");
  try {
    await seedDemoCustomer(production, operator.operatorSecret);
    oauthDemo = await startOAuthDemo({ baseUrl: production, clientId: demoClientId, log: (text) => console.log(text) });
    console.log(`\n${oauthDemo.instructions}`);
  } catch (error) {
    console.error(`\nThe OAuth demo did not start (the API is up): ${error instanceof Error ? error.message : String(error)}`);
  }
  const code = await Promise.race(servers.map((server) => server.exited));
  await stopAll();
  return code ?? EXIT.ok;
});

function printWelcome(servers: DevServer[], releaseId: string, liveKey: string) {
  const auth = `-H "Authorization: Bearer ${liveKey}"`;
  const [production, sandbox] = servers.map((server) => server.url.replace("127.0.0.1", "localhost"));
  console.log(`
Readiness Catalog API is running.
  production: ${production}${sandbox ? `\n  sandbox:    ${sandbox}` : ""}
  release:    ${releaseId}

Try:
  curl -i ${auth} ${production}/v1/releases/current
  curl -s ${auth} ${production}/v1/catalog | head -c 300; echo
  curl -i ${auth} -H 'Range: bytes=0-99' ${production}/v1/catalog
  npm run catalog:pull -- --base-url ${production} --key ${liveKey} --out catalog.json

Ctrl-C stops the servers.`);
}
