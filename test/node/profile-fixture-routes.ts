/**
 * The profile lookup routes of the stand-in server (pull-fixture-server.ts), for the client's
 * failure paths: each profile's bytes exactly as in the document, with the headers the lookup
 * routes send (Catalog-Release, Content-Digest, Catalog-Document-Range), or with the one thing a
 * test asks to get wrong.
 */
import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import { canonicalJson } from "../../src/node/catalog/canonical";
import { contentDigestOf } from "../../src/common/catalog/digest";
import type { Manifest } from "../../src/common/catalog/manifest";
import type { Profile } from "../../src/common/catalog/schema";
import { expectDefined } from "../../src/common/expect";

export type ProfileFault = "wrong-profile-digest" | "other-profile" | "wrong-profile-release";

interface Located {
  bytes: Buffer;
  first: number;
}

/** Each profile's bytes and where they start in the document, by id and by `<product>/<funnel>`. */
function locate(document: Buffer): { byKey: Map<string, Located>; located: Located[] } {
  const byKey = new Map<string, Located>();
  const located: Located[] = [];
  let at = document.indexOf('"data":[') + '"data":['.length;
  for (const profile of (JSON.parse(document.toString("utf8")) as { data: Profile[] }).data) {
    const bytes = Buffer.from(canonicalJson(profile));
    const entry = { bytes, first: at };
    located.push(entry);
    byKey.set(profile.agent_readiness_profile_id, entry);
    byKey.set(`${profile.scope.product.key}/${profile.scope.funnel.key}`, entry);
    at += bytes.length + 1;
  }
  return { byKey, located };
}

export function profileFixture(manifest: Manifest, parts: Buffer[], fault: string) {
  let index: ReturnType<typeof locate> | undefined;
  const prefix = new RegExp(`^/v1(?:/releases/(?:${manifest.release_id}|${manifest.release_id.slice(7)}))?/profiles/`);

  /** Answers a profile lookup; false when `url` is none. */
  function serve(url: string, res: ServerResponse): boolean {
    if (!prefix.test(url)) return false;
    index ??= locate(Buffer.concat(parts));
    const { byKey, located } = index;
    const found = byKey.get(decodeURIComponent(url.replace(prefix, "")));
    if (!found) {
      res.writeHead(404, { "Content-Type": "application/problem+json", "Catalog-Release": manifest.release_id });
      res.end(
        JSON.stringify({
          code: "profile_not_found",
          detail: `Release ${manifest.release_id} has no such profile.`,
          release_id: manifest.release_id,
        }),
      );
      return true;
    }
    const entry =
      fault === "other-profile"
        ? expectDefined(
            located.find((other) => other !== found),
            "another profile",
          )
        : found;
    const digest = `sha256:${createHash("sha256")
      .update(fault === "wrong-profile-digest" ? Buffer.from("other") : entry.bytes)
      .digest("hex")}`;
    res.writeHead(200, {
      "Content-Type": "application/json",
      "Content-Length": String(entry.bytes.length),
      "Catalog-Release": fault === "wrong-profile-release" ? `sha256:${"2".repeat(64)}` : manifest.release_id,
      "Content-Digest": contentDigestOf(digest),
      "Catalog-Document-Range": `bytes ${entry.first}-${entry.first + entry.bytes.length - 1}/${manifest.bytes}`,
      ETag: `"${digest}"`,
    });
    res.end(entry.bytes);
    return true;
  }

  return { serve };
}
