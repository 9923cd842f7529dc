/**
 * Webhook signing secrets at rest after the sealing moved to src/common: the stored format is
 * unchanged (checked against an independent AES-GCM sealing of that format, as rows written before
 * the move hold), and a sealed secret and an OAuth token cannot pass for one another.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openToken, sealToken } from "../../src/worker/auth/oauth/token-format";
import { openSigningSecret, sealSigningSecret } from "../../src/worker/webhooks/secret-sealing";

/** The stored format, written out by hand: `whsealed_` + base64url(SHA-256(key)[0] ‖ IV ‖ AES-GCM(secret)), AAD the label. */
async function sealedAsBefore(secret: string): Promise<string> {
  const keyBytes = Uint8Array.fromBase64(env.OAUTH_TOKEN_KEY ?? "", { alphabet: "base64url" });
  const id = new Uint8Array(await crypto.subtle.digest("SHA-256", keyBytes))[0] ?? 0;
  const key = await crypto.subtle.importKey("raw", keyBytes, "AES-GCM", false, ["encrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const label = new TextEncoder().encode("whsealed_");
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: label }, key, new TextEncoder().encode(secret)),
  );
  return `whsealed_${new Uint8Array([id, ...iv, ...sealed]).toBase64({ alphabet: "base64url", omitPadding: true })}`;
}

describe("webhook signing secrets at rest", () => {
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

  it("opens a secret sealed in the stored format, and seals into that format", async () => {
    expect(await openSigningSecret(env, await sealedAsBefore(secret))).toBe(secret);
    const sealed = await sealSigningSecret(env, secret);
    expect(sealed).toMatch(/^whsealed_[A-Za-z0-9_-]+$/);
    expect(await openSigningSecret(env, sealed)).toBe(secret);
  });

  it("keeps sealed secrets and OAuth tokens apart", async () => {
    const token = await sealToken(env, "access", "acct:grant:secret");
    expect(await openSigningSecret(env, `whsealed_${token.slice("oat_".length)}`)).toBeNull();
    const sealed = await sealSigningSecret(env, secret);
    expect(await openToken(env, "access", `oat_${sealed.slice("whsealed_".length)}`)).toBeNull();
  });

  it("opens nothing without a configured key, and refuses to seal (503 oauth_not_configured)", async () => {
    const sealed = await sealSigningSecret(env, secret);
    const unconfigured = { ...env, OAUTH_TOKEN_KEY: undefined };
    expect(await openSigningSecret(unconfigured, sealed)).toBeNull();
    await expect(sealSigningSecret(unconfigured, secret)).rejects.toMatchObject({ code: "oauth_not_configured" });
  });
});
