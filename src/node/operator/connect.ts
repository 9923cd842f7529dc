/**
 * Where `npm run operator` sends its operator API calls, per deployment:
 * - `--url <base>` (or `--deployed <base>`, a deployed worker): that one server, with the local
 *   operator secret (or $OPERATOR_SECRET when deployed);
 * - local (default): the servers of a running `npm start` (localhost:8787 production, :8788
 *   sandbox) when they answer with the local operator secret; otherwise a `wrangler dev` this
 *   command starts itself over the same persisted state (`.wrangler/state`, or --persist-to) and
 *   stops when done. Why a worker at all: accounts and keys live in Durable Objects, which only a
 *   running worker can reach (wrangler's getPlatformProxy cannot host this worker's own Durable
 *   Object classes), and going through the one running instance keeps their in-memory state
 *   (e.g. a SubjectGuard's revoked flag) authoritative.
 */
import { startWranglerDev, type DevServer } from "../local/wrangler-dev";
import { UsageError } from "../cli/cli-run";
import { localOperator } from "./local-operator";
import { OperatorClient, OperatorRefusal, type Deployment } from "./operator-client";

export interface ConnectOptions {
  /** A deployed worker (`--deployed <url>`): its secret comes from $OPERATOR_SECRET. */
  deployed: boolean;
  /** The deployed worker's operator secret ($OPERATOR_SECRET), for `deployed`. */
  deployedSecret?: string;
  url?: string;
  persistTo?: string;
  ports: Record<Deployment, number>;
  log: (line: string) => void;
}

export interface Connections {
  /** The client of one deployment. */
  client(deployment: Deployment): Promise<OperatorClient>;
  /** Each requested deployment with its client, in the same order. */
  reach(deployments: readonly Deployment[]): Promise<{ deployment: Deployment; client: OperatorClient }[]>;
  /** What account-wide commands act on: both deployments locally, the one server of --url. */
  allDeployments(): Promise<Deployment[]>;
  close(): Promise<void>;
}

export function connect(options: ConnectOptions): Connections {
  const started: DevServer[] = [];
  const cache = new Map<Deployment, Promise<OperatorClient>>();
  // Asked for on first use: a command refused before it needs a server (a usage error) starts none.
  let asked: ReturnType<typeof singleServer> | undefined;
  const url = options.url;
  const single = url ? () => (asked ??= singleServer(url, options)) : undefined;

  const clientFor = (deployment: Deployment) => {
    let client = cache.get(deployment);
    if (!client) {
      client = single ? single().then((s) => s.for(deployment)) : localClient(deployment, options, started);
      cache.set(deployment, client);
    }
    return client;
  };
  return {
    client: clientFor,
    reach: (deployments) =>
      Promise.all(deployments.map(async (deployment) => ({ deployment, client: await clientFor(deployment) }))),
    allDeployments: async () => (single ? [(await single()).deployment] : ["production", "sandbox"]),
    close: async () => {
      await Promise.all(started.map((server) => server.stop()));
    },
  };
}

async function singleServer(url: string, options: ConnectOptions) {
  const secret = options.deployed ? options.deployedSecret : localOperator().operatorSecret;
  if (!secret)
    throw new UsageError(
      "--deployed needs the deployment's operator secret in $OPERATOR_SECRET (set with `npx wrangler secret put OPERATOR_SECRET`)",
    );
  const client = new OperatorClient(url, secret);
  const { deployment } = await client.deployment().catch((error: unknown) => {
    throw explainProbeFailure(url, error);
  });
  return {
    deployment,
    for(wanted: Deployment): OperatorClient {
      if (wanted !== deployment)
        throw new UsageError(
          `this needs the ${wanted} deployment, but ${url} is ${deployment}: pass its URL with --url`,
        );
      return client;
    },
  };
}

async function localClient(
  deployment: Deployment,
  options: ConnectOptions,
  started: DevServer[],
): Promise<OperatorClient> {
  const { envFile, operatorSecret } = localOperator();
  if (!options.persistTo) {
    const url = `http://127.0.0.1:${options.ports[deployment]}`;
    const running = new OperatorClient(url, operatorSecret);
    try {
      const answer = await running.deployment();
      if (answer.deployment !== deployment)
        throw new Error(`${url} is the ${answer.deployment} deployment, not ${deployment}`);
      return running;
    } catch (error) {
      if (!isConnectionRefused(error)) throw explainProbeFailure(url, error);
    }
  }
  const where = options.persistTo ?? ".wrangler/state";
  options.log(`no ${deployment} server running: starting wrangler dev over ${where} (a few seconds)…`);
  const server = await startWranglerDev({
    persistTo: options.persistTo,
    environment: deployment === "sandbox" ? "sandbox" : undefined,
    envFile,
  });
  started.push(server);
  return new OperatorClient(server.url, operatorSecret);
}

function explainProbeFailure(url: string, error: unknown): Error {
  if (error instanceof OperatorRefusal && (error.status === 401 || error.status === 404)) {
    return new Error(
      `${url} answers but does not accept this operator secret (${error.code}). Locally, start the servers with ` +
        "`npm start` (or `npx wrangler dev --env-file .wrangler/operator.env`); for a deployed worker, set $OPERATOR_SECRET to the deployment's secret.",
    );
  }
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (error instanceof TypeError && cause)
    return new Error(`${url} did not answer (${cause.code ?? cause.message}): is the server running at that address?`);
  return error instanceof Error ? error : new Error(String(error));
}

function isConnectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } })?.cause;
  return cause?.code === "ECONNREFUSED";
}
