/**
 * The client package refuses what does not verify, against a stand-in server that gets exactly
 * one thing wrong (pull-fixture-server.ts): profiles() yields nothing from a part before it
 * matched the manifest, and says when the release as a whole did not verify; profile() checks the
 * body against its Content-Digest and that it is the profile asked for. The same client against
 * the real worker: test/worker/catalog-client-profiles.test.ts and test/e2e/catalog.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CatalogApiError,
  CatalogVerificationError,
  createCatalogClient,
  type CatalogClient,
  type Profile,
} from "../../packages/client/src/index.js";
import { buildCatalog, type BuildResult } from "../../src/node/catalog/build/build";
import { fixtureServer, type Fault } from "./pull-fixture-server";
import { expectDefined } from "../../src/common/expect";

let dir: string;
let built: BuildResult;
let data: Profile[];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "catalog-client-"));
  built = await buildCatalog({ input: path.resolve("data/profiles"), outDir: path.join(dir, "dist"), partBytes: 7919 });
  const document = Buffer.concat(
    built.manifest.parts.map((part) => readFileSync(path.join(built.releaseDir, "parts", String(part.index)))),
  );
  data = (JSON.parse(document.toString("utf8")) as { data: Profile[] }).data;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function against<T>(fault: Fault, run: (client: CatalogClient) => Promise<T>) {
  const server = await fixtureServer(built.releaseDir, fault);
  try {
    const result = await run(createCatalogClient({ baseUrl: server.url, apiKey: "sk_test_fixture" }));
    return { result, requests: server.requests };
  } finally {
    await server.close();
  }
}

async function streamed(fault: Fault) {
  const seen: Profile[] = [];
  const { result: error, requests } = await against(fault, async (client) => {
    try {
      for await (const profile of client.profiles()) seen.push(profile);
    } catch (caught) {
      return caught;
    }
  });
  return { seen, error, requests };
}

describe("profiles() against a server that gets one thing wrong", () => {
  it("nothing wrong: every profile, in order", async () => {
    const { seen, error } = await streamed("none");
    expect(error).toBeUndefined();
    expect(seen).toEqual(data);
  });

  it.each<[Fault, string, number]>([
    ["flipped-byte", "part 2 does not match: computed sha256:", 2],
    ["wrong-content-digest", "Content-Digest is", 1],
    ["wrong-link", "part 0: Link rel=next is", 0],
  ])("%s → CatalogVerificationError before any profile that ends in the bad part", async (fault, message, badPart) => {
    const { seen, error } = await streamed(fault);
    expect(error).toBeInstanceOf(CatalogVerificationError);
    expect(String(error)).toContain(message);
    const documentPrefixEnd = expectDefined(built.manifest.parts[badPart], `part ${badPart}`).offset;
    expect(seen.length).toBeLessThan(data.length);
    expect(seen).toEqual(data.slice(0, seen.length));
    // Each yielded profile ended before the bad part began (the data starts after a ~250-byte prefix).
    const ends = data.map((_, i) => JSON.stringify(data.slice(0, i + 1)).length);
    expect(seen.every((_, i) => Number(ends[i]) < documentPrefixEnd)).toBe(true);
  });

  it.each<[Fault, string]>([
    ["wrong-document-sha256", "the whole document (sha256) does not match"],
    ["wrong-profile-count", `the data holds ${26} profiles, the manifest says 27`],
    ["no-closing-brace", `the document's last byte is not the envelope's closing "}"`],
  ])(
    "%s: the parts verify, so their profiles are yielded; the release as a whole does not → error at the end",
    async (fault, message) => {
      const { seen, error } = await streamed(fault);
      expect(error).toBeInstanceOf(CatalogVerificationError);
      expect(String(error)).toContain(message);
      if (fault !== "no-closing-brace") expect(seen).toEqual(data);
    },
  );

  it.each<[Fault, string]>([
    ["forged-artifact", "release_id does not match"],
    ["gap-in-layout", "not a valid manifest: parts[1].offset: expected 7919, found 7920"],
  ])("%s: the manifest itself is refused, no part is fetched", async (fault, message) => {
    const { error, requests } = await streamed(fault);
    expect(error).toBeInstanceOf(CatalogVerificationError);
    expect(String(error)).toContain(message);
    expect(requests).toEqual(["/v1/releases/current"]);
  });

  it("401 → CatalogApiError with code, detail and request id, asked once", async () => {
    const { error, requests } = await streamed("unauthorized");
    expect(error).toBeInstanceOf(CatalogApiError);
    expect(error).toMatchObject({
      status: 401,
      code: "invalid_api_key",
      detail: "The API key is not valid.",
      requestId: "req_fixture",
    });
    expect(requests).toHaveLength(1);
  });
});

describe("profile() against a server that gets one thing wrong", () => {
  const sample = () => expectDefined(data[3], "profile 3 of the build");

  it("nothing wrong: by scope and by id, with the release and where the bytes are in its document", async () => {
    const { result } = await against("none", async (client) => [
      await client.profile(sample().scope.product.key, sample().scope.funnel.key),
      await client.profile(sample().agent_readiness_profile_id, { release: built.manifest.release_id }),
    ]);
    for (const found of result) {
      expect(found.profile).toEqual(sample());
      expect(found.releaseId).toBe(built.manifest.release_id);
      expect(found.documentRange).toMatchObject({ size: built.manifest.bytes });
    }
  });

  it.each<[Fault, string]>([
    ["wrong-profile-digest", "the body does not match its Content-Digest"],
    ["other-profile", "answered with the profile of"],
    ["wrong-profile-release", "answered from release sha256:2222"],
  ])("%s → CatalogVerificationError", async (fault, message) => {
    const { result: error } = await against(fault, (client) =>
      client
        .profile(sample().agent_readiness_profile_id, { release: built.manifest.release_id })
        .catch((caught: unknown) => caught),
    );
    expect(error).toBeInstanceOf(CatalogVerificationError);
    expect(String(error)).toContain(message);
  });

  it("an unknown profile → CatalogApiError 404 profile_not_found", async () => {
    const { result: error } = await against("none", (client) =>
      client.profile("no-such-product", "checkout").catch((caught: unknown) => caught),
    );
    expect(error).toBeInstanceOf(CatalogApiError);
    expect(error).toMatchObject({ status: 404, code: "profile_not_found" });
  });

  it('"", "." and ".." are refused before any request: they would address another path', async () => {
    const { result, requests } = await against("none", async (client) =>
      Promise.all(
        [client.profile("..", "x"), client.profile("."), client.profile("p", ""), client.profile(".", "x")].map(
          (call) => call.catch((caught: unknown) => caught),
        ),
      ),
    );
    for (const error of result) expect(error).toBeInstanceOf(TypeError);
    expect(requests).toEqual([]);
  });
});
