/**
 * The dashboard's Watches page: create from a query string (prefilled by `?query=`, so a link from
 * the explorer is one click) or from profiles, the API's refusals in words, delete; CSRF on every
 * post; another account's watch is not found.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { watchesOf } from "../../src/worker/watches/watch-store";
import { newAccount } from "./auth-fixtures";
import { csrfOf, signIn, visibleText } from "./dashboard-support";

describe("/dashboard/watches", () => {
  it("creates a watch from a prefilled query and from profiles, lists it, deletes it", async () => {
    const account = await newAccount();
    const client = await signIn(account);
    const page = await (await client.get("/dashboard/watches?query=grade%3DA%2CB%26stage.pay%3Dready")).text();
    expect(page).toContain('value="grade=A,B&amp;stage.pay=ready"');
    const created = await client.post("/dashboard/watches", {
      csrf_token: csrfOf(page),
      name: "Ready to pay",
      query: "grade=A,B&stage.pay=ready",
      profiles: "",
    });
    expect(created.status).toBe(200);
    expect(visibleText(await created.text())).toContain('Watch "Ready to pay" created.');
    const byProfiles = await client.post("/dashboard/watches", {
      csrf_token: csrfOf(page),
      name: "Ours",
      query: "",
      profiles: "northwind-payments-api/checkout\narp_kfa3bdccf91c711393576bf510",
    });
    expect(byProfiles.status).toBe(200);
    const watches = await watchesOf(env.CATALOG_DB, account.accountId, 10);
    expect(watches.map((watch) => [watch.name, watch.query, watch.profiles])).toEqual([
      ["Ready to pay", "grade=A,B&stage.pay=ready", null],
      [
        "Ours",
        null,
        JSON.stringify([{ product: "northwind-payments-api", funnel: "checkout" }, "arp_kfa3bdccf91c711393576bf510"]),
      ],
    ]);
    const list = await (await client.get("/dashboard/watches")).text();
    expect(visibleText(list)).toContain("none yet");
    const [first] = watches;
    const deleted = await client.post(`/dashboard/watches/${first?.id}/delete`, { csrf_token: csrfOf(list) });
    expect(deleted.status).toBe(303);
    expect((await watchesOf(env.CATALOG_DB, account.accountId, 10)).map((watch) => watch.name)).toEqual(["Ours"]);
  });

  it("refuses a bad query in words, a post without the CSRF token, another account's watch", async () => {
    const account = await newAccount();
    const client = await signIn(account);
    const page = await (await client.get("/dashboard/watches")).text();
    const bad = await client.post("/dashboard/watches", {
      csrf_token: csrfOf(page),
      name: "x",
      query: "grade=Z",
      profiles: "",
    });
    expect(bad.status).toBe(400);
    expect(visibleText(await bad.text())).toContain('query.grade: "Z" is not an allowed value');
    const forged = await client.post("/dashboard/watches", {
      csrf_token: "nope",
      name: "x",
      query: "grade=A",
      profiles: "",
    });
    expect(forged.status).toBe(403);
    expect(await watchesOf(env.CATALOG_DB, account.accountId, 10)).toEqual([]);
    const otherAccount = await newAccount();
    const other = await signIn(otherAccount);
    const otherPage = await (await other.get("/dashboard/watches")).text();
    await other.post("/dashboard/watches", {
      csrf_token: csrfOf(otherPage),
      name: "theirs",
      query: "grade=A",
      profiles: "",
    });
    const [theirs] = await watchesOf(env.CATALOG_DB, otherAccount.accountId, 1);
    const refused = await client.post(`/dashboard/watches/${theirs?.id}/delete`, { csrf_token: csrfOf(page) });
    expect(refused.status).toBe(404);
    expect(await watchesOf(env.CATALOG_DB, otherAccount.accountId, 1)).toHaveLength(1);
  });
});
