/**
 * A deployment's storage on Cloudflare, found by name or created: each KV namespace (by title, see
 * kvTitle), each R2 bucket (by bucket name), each D1 database (by `database_name`) and each Queue (by queue name; wrangler refuses to deploy
 * a producer or consumer of a queue that does not exist). Finding first makes a rerun create nothing, and a
 * namespace made earlier by a plain `wrangler deploy` is found and reused, not duplicated.
 */
import { ApiError, type CloudflareApi } from "./cloudflare-api";
import type { Deployment } from "./deployments";

export interface Resource {
  binding: string;
  /** The KV namespace title, the R2 bucket name, the D1 database name or the queue name. */
  name: string;
  /** KV: the namespace id; R2: the bucket name; D1: the database id (uuid); Queue: the queue id. */
  id: string;
  created: boolean;
}

const KV_READ = "Workers KV Storage: Read";
const KV_EDIT = "Workers KV Storage: Edit";
const R2_READ = "Workers R2 Storage: Read";
const R2_EDIT = "Workers R2 Storage: Edit";
const D1_READ = "D1: Read";
const D1_EDIT = "D1: Edit";
const QUEUES_READ = "Queues: Read";
const QUEUES_EDIT = "Queues: Edit";
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

export async function ensureQueues(api: CloudflareApi, deployment: Deployment): Promise<Resource[]> {
  if (deployment.queues.length === 0) return [];
  const existing = await api.pages<{ queue_id: string; queue_name: string }>(api.account("/queues"), {
    permission: QUEUES_READ,
    action: `list the queues (to find ${deployment.queues.join(", ")})`,
  });
  const resources: Resource[] = [];
  for (const name of deployment.queues) {
    const found = existing.find((queue) => queue.queue_name === name);
    if (found) {
      resources.push({ binding: name, name, id: found.queue_id, created: false });
      continue;
    }
    const created = await api.call<{ queue_id: string }>(api.account("/queues"), {
      method: "POST",
      body: { queue_name: name },
      permission: QUEUES_EDIT,
      action: `create the queue ${name}`,
    });
    resources.push({ binding: name, name, id: created.queue_id, created: true });
  }
  return resources;
}

export async function ensureD1Databases(api: CloudflareApi, deployment: Deployment): Promise<Resource[]> {
  const wanted = deployment.d1Databases;
  if (wanted.length === 0) return [];
  const existing = await api.pages<{ uuid: string; name: string }>(api.account("/d1/database"), {
    permission: D1_READ,
    action: `list the D1 databases (to find ${wanted.map((db) => db.databaseName).join(", ")})`,
  });
  const resources: Resource[] = [];
  for (const { binding, databaseName } of wanted) {
    const found = existing.find((database) => database.name === databaseName);
    if (found) {
      resources.push({ binding, name: databaseName, id: found.uuid, created: false });
      continue;
    }
    const created = await api.call<{ uuid: string }>(api.account("/d1/database"), {
      method: "POST",
      body: { name: databaseName },
      permission: D1_EDIT,
      action: `create the D1 database ${databaseName}`,
    });
    resources.push({ binding, name: databaseName, id: created.uuid, created: true });
  }
  return resources;
}
