/**
 * The deployment the dashboard's browser tests run against: the sample catalog built and
 * published with the real CLIs, an OAuth client registered with `npm run clients` (redirecting to
 * the OAuth tests' loopback callback server), the real `wrangler dev` with an operator secret, and
 * two accounts made through the operator API (what `npm run operator` drives): a customer and an operator.
 */
import { expect } from "vitest";
import { registerClients, startCallbackServer, type CallbackServer } from "./oauth-fixture";
import { catalogState } from "./support/catalog-state";
import { startWranglerDev, type DevServer } from "./support/wrangler-dev";
import { withEnvironment } from "./support/environment";

export interface Credentials {
  email: string;
  password: string;
}

export interface DashboardDeployment {
  server: DevServer;
  callback: CallbackServer;
  clientId: string;
  appName: string;
  customer: Credentials;
  operator: Credentials;
  /** The deployment's OPERATOR_SECRET, for what a test provisions through the operator API (e.g. an API key). */
  operatorSecret: string;
  stop(): Promise<void>;
}

export const APP_NAME = "E2E Cheese App";

async function createAccount(
  server: DevServer,
  operatorSecret: string,
  account: Credentials & { name: string; operator: boolean },
) {
  const created = await fetch(new URL("/operator/v1/accounts", server.url), {
    method: "POST",
    headers: { Authorization: `Bearer ${operatorSecret}`, "Content-Type": "application/json" },
    body: JSON.stringify(account),
  });
  expect(created.status, await created.clone().text()).toBe(201);
}

export async function startDashboardDeployment(): Promise<DashboardDeployment> {
  const state = catalogState();
  await state.publishSamples();

  const callback = await startCallbackServer();
  const [{ clientId }] = await registerClients(state.persistTo, [
    { name: APP_NAME, redirectUri: callback.redirectUri, public: true },
  ]);

  const operatorSecret = crypto.randomUUID() + crypto.randomUUID();
  const server = await withEnvironment(
    { CLOUDFLARE_INCLUDE_PROCESS_ENV: "true", OPERATOR_SECRET: operatorSecret },
    () => startWranglerDev({ persistTo: state.persistTo }),
  );
  const stop = async () => {
    await server.stop();
    await callback.close();
    state.remove();
  };
  const stamp = Date.now();
  const customer = { email: `owner-${stamp}@example.com`, password: "e2e correct horse battery" };
  const operator = { email: `operator-${stamp}@example.com`, password: "e2e operator battery staple" };
  try {
    await createAccount(server, operatorSecret, { ...customer, name: "E2E Owner", operator: false });
    await createAccount(server, operatorSecret, { ...operator, name: "E2E Operator", operator: true });
  } catch (error) {
    await stop();
    throw error;
  }
  return { server, callback, clientId, appName: APP_NAME, customer, operator, operatorSecret, stop };
}
