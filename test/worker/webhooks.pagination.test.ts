/**
 * The webhook lists (endpoints, an endpoint's deliveries) answer the one list shape and page by
 * `limit` and the `cursor` of `next`, which only pages the account (and endpoint) it was made for.
 */
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { receiverUrl } from "./support/webhook-receiver";
import { webhookCaller } from "./webhooks-support";
import { sendTestEvent } from "./webhooks-store-calls";

interface Page {
  object: string;
  data: { id: string }[];
  has_more: boolean;
  next: string | null;
}
type Caller = Awaited<ReturnType<typeof webhookCaller>>;

/** The ids of every page from `first` on, following `next`; each page's has_more is whether it has a next. */
async function walk(caller: Caller, first: string): Promise<string[][]> {
  const pages: string[][] = [];
  for (let path: string | null = first; path; ) {
    const response = await caller.as(path);
    expect(response.status, path).toBe(200);
    const page: Page = await response.json<Page>();
    expect([page.object, page.has_more]).toEqual(["list", page.next !== null]);
    pages.push(page.data.map((entry) => entry.id));
    path = page.next;
  }
  return pages;
}

const cursorOf = (next: string | null) =>
  expectDefined(new URL(expectDefined(next, "a next page"), "https://api.test").searchParams.get("cursor"), "cursor");

describe("webhook lists page as every list does", () => {
  it("endpoints: oldest first, limit and next", async () => {
    const caller = await webhookCaller();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await caller.register(receiverUrl(`endpoints-${i}`))).id);
    expect(await walk(caller, "/v1/webhook_endpoints?limit=2")).toEqual([ids.slice(0, 2), ids.slice(2)]);
    expect(await walk(caller, "/v1/webhook_endpoints")).toEqual([ids]);
  });

  it("deliveries: newest first, every kept one once, through next", async () => {
    const caller = await webhookCaller();
    const endpoint = await caller.register(receiverUrl("deliveries-paged"));
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) sent.push((await sendTestEvent(caller.accountId, endpoint.id)).id);
    const pages = await walk(caller, `/v1/webhook_endpoints/${endpoint.id}/deliveries?limit=2`);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(new Set(pages.flat())).toEqual(new Set(sent));
    expect(pages.flat()).toEqual((await caller.deliveries(endpoint.id)).map((delivery) => delivery.id));
  });

  it("a cursor made by hand, or of another endpoint or account, is 400 invalid_cursor", async () => {
    const [owner, other] = [await webhookCaller(), await webhookCaller()];
    const [first, second] = [await owner.register(receiverUrl("c-1")), await owner.register(receiverUrl("c-2"))];
    await other.register(receiverUrl("c-3"));
    await other.register(receiverUrl("c-4"));
    for (let i = 0; i < 2; i++) await sendTestEvent(owner.accountId, first.id);
    await sendTestEvent(owner.accountId, second.id);
    const deliveries = `/v1/webhook_endpoints/${first.id}/deliveries?limit=1`;
    const deliveryCursor = cursorOf((await (await owner.as(deliveries)).json<Page>()).next);
    const endpointCursor = cursorOf((await (await other.as("/v1/webhook_endpoints?limit=1")).json<Page>()).next);
    for (const [caller, path] of [
      [owner, `/v1/webhook_endpoints/${second.id}/deliveries?cursor=${deliveryCursor}`],
      [owner, `${deliveries}&cursor=${deliveryCursor.slice(0, -2)}AA`],
      [owner, `/v1/webhook_endpoints?cursor=${endpointCursor}`],
      [owner, `/v1/webhook_endpoints?cursor=${deliveryCursor}`],
    ] as const) {
      const response = await caller.as(path);
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toMatchObject({
        code: "invalid_cursor",
        errors: [{ parameter: "cursor", code: "invalid_cursor" }],
      });
    }
  });

  it("limit: decimal digits within 1 and the account's endpoint limit", async () => {
    const caller = await webhookCaller();
    for (const limit of ["0", "6", "0x1", "1e0"])
      expect((await caller.as(`/v1/webhook_endpoints?limit=${limit}`)).status, limit).toBe(400);
  });
});
