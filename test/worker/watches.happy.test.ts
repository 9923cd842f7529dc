/** /v1/watches: create, list (paged), get, delete; per account and deployment; at most 50. */
import { describe, expect, it } from "vitest";
import { watchCaller } from "./watches-support";

describe("/v1/watches", () => {
  it("creates a query watch and a profiles watch, lists, gets and deletes them", async () => {
    const caller = await watchCaller();
    const byQuery = await caller.create({ name: "Payments ready", query: "grade=A,B&stage.pay=ready&q=pay" });
    expect(byQuery).toMatchObject({
      object: "watch",
      name: "Payments ready",
      query: "grade=A,B&stage.pay=ready&q=pay",
      profiles: null,
    });
    expect(byQuery.id).toMatch(/^wat_[0-9A-Za-z]{20}$/);
    const byProfiles = await caller.create({
      name: "Two",
      profiles: [{ product: "northwind-payments-api", funnel: "checkout" }, "arp_kfa3bdccf91c711393576bf510"],
    });
    expect(byProfiles.query).toBeNull();
    const list = await (await caller.as("/v1/watches?limit=1")).json<{ data: { id: string }[]; next: string }>();
    expect(list.data.map((watch) => watch.id)).toEqual([byQuery.id]);
    const rest = await (await caller.as(list.next)).json<{ data: { id: string }[]; has_more: boolean }>();
    expect(rest).toMatchObject({ has_more: false, data: [{ id: byProfiles.id }] });
    expect(await (await caller.as(`/v1/watches/${byQuery.id}`)).json()).toEqual(byQuery);
    expect((await caller.as(`/v1/watches/${byQuery.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await caller.as(`/v1/watches/${byQuery.id}`)).status).toBe(404);
    expect((await caller.as(`/v1/watches/${byQuery.id}/events`)).status).toBe(404);
  });

  it("answers another account's watch 404, and lists only the account's own", async () => {
    const owner = await watchCaller();
    const other = await watchCaller();
    const watch = await owner.create({ name: "Mine", query: "grade=A" });
    for (const [path, method] of [
      [`/v1/watches/${watch.id}`, "GET"],
      [`/v1/watches/${watch.id}`, "DELETE"],
      [`/v1/watches/${watch.id}/events`, "GET"],
    ] as const) {
      const res = await other.as(path, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json()).toMatchObject({ code: "watch_not_found" });
    }
    expect((await (await other.as("/v1/watches")).json<{ data: unknown[] }>()).data).toEqual([]);
    expect((await owner.as(`/v1/watches/${watch.id}`)).status).toBe(200);
  });

  it("keeps at most 50 per account, decided atomically under concurrent creates", async () => {
    const caller = await watchCaller();
    const answers = await Promise.all(
      Array.from({ length: 55 }, (_, i) => caller.post({ name: `w${i}`, query: "grade=A" })),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(50);
    expect(statuses.filter((status) => status === 409)).toHaveLength(5);
    const refused = answers.find((res) => res.status === 409);
    expect(await refused?.json()).toMatchObject({ code: "watch_limit_reached" });
    const other = await watchCaller();
    expect((await other.post({ name: "fine", query: "grade=A" })).status).toBe(201);
  });

  it("needs write:watches to create and delete, read:watches to read", async () => {
    const reader = await watchCaller({ scopes: ["read:watches"] });
    const refused = await reader.post({ name: "x", query: "grade=A" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "insufficient_scope", required_scope: "write:watches" });
    expect((await reader.as("/v1/watches")).status).toBe(200);
    const writer = await watchCaller({ scopes: ["write:watches"] });
    expect((await writer.post({ name: "x", query: "grade=A" })).status).toBe(201);
    expect(await (await writer.as("/v1/watches")).json()).toMatchObject({ required_scope: "read:watches" });
  });
});
