/**
 * A deployment's storage on Cloudflare, found by name or created: each KV namespace (by title, see
 * kvTitle) and each R2 bucket (by bucket name). Finding first makes a rerun create nothing, and a
 * namespace made earlier by a plain `wrangler deploy` is found and reused, not duplicated.
 */
import { ApiError, type CloudflareApi } from "./cloudflare-api";
import type { Deployment } from "./deployments";

export interface Resource {
  binding: string;
  /** The KV namespace title or the R2 bucket name. */
  name: string;
  /** KV: the namespace id; R2: the bucket name. */
  id: string;
  created: boolean;
}

const KV_READ = "Workers KV Storage: Read";
const KV_EDIT = "Workers KV Storage: Edit";
const R2_READ = "Workers R2 Storage: Read";
const R2_EDIT = "Workers R2 Storage: Edit";
/** GET /r2/buckets/:name for a bucket that does not exist. */
const NO_SUCH_BUCKET = 10006;

export async function ensureKvNamespaces(api: CloudflareApi, deployment: Deployment): Promise<Resource[]> {
  const wanted = deployment.kvNamespaces;
  if (wanted.length === 0) return [];
  const existing = await api.pages<{ id: string; title: string }>(api.account("/storage/kv/namespaces"), {
    permission: KV_READ,
    action: `list the KV namespaces (to find ${wanted.map((kv) => kv.title).join(", ")})`,
  });
  const resources: Resource[] = [];
  for (const { binding, title } of wanted) {
    const found = existing.find((namespace) => namespace.title === title);
    if (found) {
      resources.push({ binding, name: title, id: found.id, created: false });
      continue;
    }
    const created = await api.call<{ id: string }>(api.account("/storage/kv/namespaces"), {
      method: "POST",
      body: { title },
      permission: KV_EDIT,
      action: `create the KV namespace ${title}`,
    });
    resources.push({ binding, name: title, id: created.id, created: true });
  }
  return resources;
}

export async function ensureBuckets(api: CloudflareApi, deployment: Deployment): Promise<Resource[]> {
  const resources: Resource[] = [];
  for (const { binding, bucketName } of deployment.buckets) {
    const exists = await bucketExists(api, bucketName);
    if (!exists) {
      await api.call(api.account("/r2/buckets"), {
        method: "POST",
        body: { name: bucketName },
        permission: R2_EDIT,
        action: `create the R2 bucket ${bucketName}`,
      });
    }
    resources.push({ binding, name: bucketName, id: bucketName, created: !exists });
  }
  return resources;
}

async function bucketExists(api: CloudflareApi, name: string): Promise<boolean> {
  try {
    await api.call(api.account(`/r2/buckets/${encodeURIComponent(name)}`), {
      permission: R2_READ,
      action: `look for the R2 bucket ${name}`,
    });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.code === NO_SUCH_BUCKET) return false;
    throw error;
  }
}
