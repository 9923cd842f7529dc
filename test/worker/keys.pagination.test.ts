/**
 * GET /v1/keys answers the one list shape (`{object: "list", data, has_more, next}`, `url` beside)
 * and pages by the `cursor` of `next` or the way Stripe's lists do (`limit`, `starting_after`,
 * `ending_before`), and refuses what it would otherwise ignore: an unknown
 * query parameter, a malformed limit or a cursor that is not one of the account's keys.
 */
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { accountWithKey, bearer, call, newKey, type TestKey } from "./auth-fixtures";

interface KeyPage {
  object: string;
  data: { id: string }[];
  has_more: boolean;
  next: string | null;
  url: string;
}
type Problem = { code: string; detail: string; errors: { path: string; message: string; code: string }[] };

const list = (secret: string, query = "") => call(`/v1/keys${query}`, { headers: bearer(secret) });
const ids = async (response: Response) => (await response.json<KeyPage>()).data.map((key) => key.id);

/** An account with 5 keys (2 of them revoked, so the limit of 3 active keys allows it), oldest first. */
async function accountWithFiveKeys(): Promise<{ caller: TestKey; order: string[] }> {
  const caller = await accountWithKey();
  const made = [caller.key.id];
  for (let i = 0; i < 4; i++) {
    const key = await newKey(caller.accountId, { name: `k${i}` });
    made.push(key.key.id);
    if (i < 2)
      expect((await call(`/v1/keys/${key.key.id}`, { method: "DELETE", headers: bearer(caller.secret) })).status).toBe(
        200,
      );
  }
  const all = await list(caller.secret);
  return { caller, order: await ids(all) };
}

describe("GET /v1/keys pagination", () => {
  it("without parameters lists every key, as it always did, in a Stripe-style list", async () => {
    const { caller, order } = await accountWithFiveKeys();
    expect(order).toHaveLength(5);
    const body = await (await list(caller.secret)).json<KeyPage>();
    expect(body).toMatchObject({ object: "list", has_more: false, next: null, url: "/v1/keys" });
  });

  it("pages forward with limit and starting_after, and back with ending_before", async () => {
    const { caller, order } = await accountWithFiveKeys();
    const first = await (await list(caller.secret, "?limit=2")).json<KeyPage>();
    expect(first.data.map((key) => key.id)).toEqual(order.slice(0, 2));
    expect(first.has_more).toBe(true);
    const second = await (await list(caller.secret, `?limit=2&starting_after=${order[1]}`)).json<KeyPage>();
    expect(second.data.map((key) => key.id)).toEqual(order.slice(2, 4));
    expect(second.has_more).toBe(true);
    const last = await (await list(caller.secret, `?limit=2&starting_after=${order[3]}`)).json<KeyPage>();
    expect(last.data.map((key) => key.id)).toEqual(order.slice(4));
    expect(last.has_more).toBe(false);

    const back = await (await list(caller.secret, `?limit=2&ending_before=${order[4]}`)).json<KeyPage>();
    expect(back.data.map((key) => key.id)).toEqual(order.slice(2, 4));
    expect(back.has_more).toBe(true);
    const front = await (await list(caller.secret, `?limit=2&ending_before=${order[1]}`)).json<KeyPage>();
    expect(front.data.map((key) => key.id)).toEqual(order.slice(0, 1));
    expect(front.has_more).toBe(false);
  });

  it.each([
    ["?limit=0", "limit", "invalid_parameter"],
    ["?limit=101", "limit", "invalid_parameter"],
    ["?limit=ten", "limit", "invalid_parameter"],
    ["?limit=0x10", "limit", "invalid_parameter"],
    ["?limit=1e1", "limit", "invalid_parameter"],
    ["?limit=%205", "limit", "invalid_parameter"],
    ["?starting_after=sk_live_notakeyid", "starting_after", "invalid_cursor"],
  ])("400 for %s, naming the parameter", async (query, path, code) => {
    const { secret } = await accountWithKey();
    const res = await list(secret, query);
    expect(res.status).toBe(400);
    const problem = await res.json<Problem>();
    expect(problem.code).toBe(code);
    expect(problem.errors).toEqual([expect.objectContaining({ path, code })]);
    expect(problem.detail).toContain(`${path}: `);
  });

  it("400 for a cursor that is not one of the account's keys, and for both cursors at once", async () => {
    const { caller, order } = await accountWithFiveKeys();
    const stranger = await accountWithKey();
    const foreign = await list(caller.secret, `?starting_after=${stranger.key.id}`);
    expect(foreign.status).toBe(400);
    expect((await foreign.json<Problem>()).errors).toEqual([
      expect.objectContaining({ path: "starting_after", code: "invalid_cursor" }),
    ]);

    const both = await list(caller.secret, `?starting_after=${order[0]}&ending_before=${order[2]}`);
    expect(both.status).toBe(400);
    expect((await both.json<Problem>()).detail).toContain("give one of cursor, starting_after and ending_before");
  });

  it("next goes on in the direction a page was read, until has_more is false", async () => {
    const { caller, order } = await accountWithFiveKeys();
    const walk = async (first: string) => {
      const pages: string[][] = [];
      for (let path: string | null = first; path; ) {
        const page: KeyPage = await (await call(path, { headers: bearer(caller.secret) })).json<KeyPage>();
        expect(page.has_more).toBe(page.next !== null);
        pages.push(page.data.map((key) => key.id));
        path = page.next;
      }
      return pages;
    };
    expect(await walk("/v1/keys?limit=2")).toEqual([order.slice(0, 2), order.slice(2, 4), order.slice(4)]);
    expect(await walk(`/v1/keys?limit=2&ending_before=${order[4]}`)).toEqual([order.slice(2, 4), order.slice(0, 2)]);
    expect((await (await list(caller.secret, "?limit=2")).json<KeyPage>()).next).toMatch(
      /^\/v1\/keys\?limit=2&cursor=[\w-]+\.[\w-]+$/,
    );
  });

  it("400 invalid_cursor for a cursor made by hand or taken from another account's list", async () => {
    const { caller } = await accountWithFiveKeys();
    const other = await accountWithFiveKeys();
    const theirs = expectDefined((await (await list(other.caller.secret, "?limit=1")).json<KeyPage>()).next, "next");
    const cursor = expectDefined(new URL(theirs, "https://api.test").searchParams.get("cursor"), "its cursor");
    for (const forged of [cursor, `${other.order[0]}`, `${cursor.slice(0, -2)}AA`]) {
      const res = await list(caller.secret, `?limit=1&cursor=${forged}`);
      expect(res.status, forged).toBe(400);
      expect((await res.json<Problem>()).errors).toEqual([
        expect.objectContaining({ path: "cursor", code: "invalid_cursor" }),
      ]);
    }
  });

  it("refuses an unknown query parameter with 400 unknown_parameter, naming it and the accepted ones", async () => {
    const { secret } = await accountWithKey();
    const res = await list(secret, "?colour=red&limit=2");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "unknown_parameter",
      errors: [
        {
          parameter: "colour",
          message: 'unknown query parameter "colour": this route accepts limit, cursor, starting_after, ending_before',
        },
      ],
    });
  });

  it("refuses an unknown query parameter on POST and DELETE too, changing nothing", async () => {
    const { secret, key } = await accountWithKey();
    const created = await call("/v1/keys?name=CI", { method: "POST", headers: bearer(secret) });
    expect(created.status).toBe(400);
    expect(await created.json()).toMatchObject({ code: "unknown_parameter", errors: [{ parameter: "name" }] });
    const revoked = await call(`/v1/keys/${key.id}?force=1`, { method: "DELETE", headers: bearer(secret) });
    expect(revoked.status).toBe(400);
    expect(await ids(await list(secret))).toEqual([key.id]);
    expect((await list(secret)).status).toBe(200);
  });
});
