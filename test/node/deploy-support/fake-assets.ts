/**
 * Workers Static Assets in the fake Cloudflare API (see fake-cloudflare.ts), as wrangler uploads
 * them: `POST /workers/scripts/:name/assets-upload-session` with the manifest (path → hash, size)
 * answers the hashes the account lacks, in buckets, and an upload token; `POST /workers/assets/upload`
 * (authorized by that token, not the API token) takes base64 files per hash; once the session's
 * files are all stored it answers a completion token, which the script upload names in
 * `metadata.assets.jwt`. Files are kept by hash for the whole account, so a second deploy uploads nothing.
 */
import { expectDefined } from "../../../src/common/expect";
import { fail, ok, type Reply } from "./fake-reply";

export type AssetManifest = Record<string, { hash: string; size: number }>;
export interface AssetFile {
  content: Uint8Array;
  type: string;
}

export class FakeAssets {
  /** Every file uploaded to the account, by hash. */
  readonly files = new Map<string, AssetFile>();
  private readonly sessions = new Map<string, AssetManifest>();
  private readonly completions = new Map<string, AssetManifest>();

  routes(account: string) {
    const edit = "Workers Scripts: Edit";
    return [
      {
        method: "POST",
        pattern: new RegExp(`${account}/workers/scripts/([\\w-]+)/assets-upload-session$`),
        permission: edit,
        handle: (_m: string[], _u: URL, request: Request) => this.startSession(request),
      },
      {
        method: "POST",
        pattern: new RegExp(`${account}/workers/assets/upload$`),
        handle: (_m: string[], url: URL, request: Request) => this.upload(url, request),
      },
    ];
  }

  /** True for the upload route called with a session's token: that route does not take the API token. */
  acceptsUpload(path: string, authorization: string | undefined): boolean {
    return path.endsWith("/workers/assets/upload") && this.sessions.has(authorization?.replace(/^Bearer /, "") ?? "");
  }

  /** The files (path → content) a completion token stands for; undefined for a token this account never issued. */
  resolve(completion: string): Map<string, AssetFile> | undefined {
    const manifest = this.completions.get(completion);
    return (
      manifest &&
      new Map(
        Object.entries(manifest).map(([path, { hash }]) => [
          path,
          expectDefined(this.files.get(hash), `the uploaded asset ${hash}`),
        ]),
      )
    );
  }

  private async startSession(request: Request): Promise<Reply> {
    const { manifest } = (await request.json()) as { manifest?: AssetManifest };
    if (!manifest || typeof manifest !== "object") return fail(400, 10021, "manifest is required");
    const missing = [...new Set(Object.values(manifest).map(({ hash }) => hash))].filter(
      (hash) => !this.files.has(hash),
    );
    if (missing.length === 0) return ok({ jwt: this.complete(manifest), buckets: [] });
    const session = token({ kind: "upload" });
    this.sessions.set(session, manifest);
    return ok({ jwt: session, buckets: [missing] });
  }

  private async upload(url: URL, request: Request): Promise<Reply> {
    const session = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    const manifest = this.sessions.get(session);
    if (!manifest) return fail(401, 10001, "Unauthorized: not an assets upload session token");
    if (url.searchParams.get("base64") !== "true") return fail(400, 10021, "the fake takes base64 uploads only");
    const wanted = new Set(Object.values(manifest).map(({ hash }) => hash));
    for (const [hash, value] of await request.formData()) {
      if (!wanted.has(hash) || typeof value === "string")
        return fail(400, 10021, `${hash} is not a file of this session`);
      this.files.set(hash, { content: Buffer.from(await value.text(), "base64"), type: value.type });
    }
    if ([...wanted].some((hash) => !this.files.has(hash))) return { status: 202, result: {} };
    this.sessions.delete(session);
    return { status: 201, result: { jwt: this.complete(manifest) } };
  }

  private complete(manifest: AssetManifest): string {
    const completion = token({ kind: "completion" });
    this.completions.set(completion, manifest);
    return completion;
  }
}

/** A JWT-shaped token: wrangler reads its payload (`exp`, upload mode) before using it. */
function token(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none" })}.${part({ ...claims, jti: crypto.randomUUID(), exp: Math.floor(Date.now() / 1000) + 3600 })}.fake`;
}
