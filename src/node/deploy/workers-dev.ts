/**
 * Where a deployment answers: its first custom domain (`routes` with `custom_domain = true`), else
 * its workers.dev URL, `https://<worker>.<account subdomain>.workers.dev`.
 */
import { ApiError, type CloudflareApi } from "./cloudflare-api";
import type { Deployment } from "./deployments";

/** GET /workers/subdomain when the account has not chosen its workers.dev subdomain yet. */
const NO_SUBDOMAIN = 10007;

export async function workersDevUrl(api: CloudflareApi, deployment: Deployment): Promise<string> {
  const customDomain = deployment.config.routes?.find((route) => typeof route === "object" && route.custom_domain);
  if (customDomain && typeof customDomain === "object") return `https://${customDomain.pattern}`;
  try {
    const { subdomain } = await api.call<{ subdomain: string }>(api.account("/workers/subdomain"), {
      permission: "Workers Scripts: Read",
      action: "read the account's workers.dev subdomain",
    });
    return `https://${deployment.config.name}.${subdomain}.workers.dev`;
  } catch (error) {
    if (error instanceof ApiError && error.code === NO_SUBDOMAIN) {
      throw new Error(
        `the account has no workers.dev subdomain yet: choose one at https://dash.cloudflare.com/${api.accountId}/workers/onboarding ` +
          '(once per account), or give the deployment a custom domain route (docs/operations.md, "Deploying to Cloudflare")',
      );
    }
    throw error;
  }
}
