/**
 * The sandbox's explorer shows the sandbox's catalog: the release published into its own bindings,
 * with that release's profiles and counts, for an account of the sandbox.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount } from "./auth-fixtures";
import { signIn } from "./dashboard-support";
import { explorerView } from "./explore-support";
import { oracleProfiles } from "./support/query-oracle";
import { publish, testRelease } from "./support/releases";

const smallest = testRelease("smallest");

beforeAll(async () => {
  await publish(smallest);
}, 60_000);

describe("sandbox /explore", () => {
  it("shows the release published to the sandbox, and its profiles", async () => {
    const client = await signIn(await newAccount());
    const view = await explorerView(client, "/explore?limit=100");
    expect(view.html).toContain(smallest.manifest.release_id);
    const ids = oracleProfiles(smallest).map((p) => p.profile.agent_readiness_profile_id);
    expect(view.count).toBe(ids.length);
    expect([...view.ids].sort()).toEqual([...ids].sort());
  });
});
