/**
 * A deployment's storage on Cloudflare, found by name or created: each KV namespace (by title, see
 * kvTitle), each R2 bucket (by bucket name), each D1 database (by `database_name`) and each Queue (by queue name; wrangler refuses to deploy
 * a producer or consumer of a queue that does not exist). Finding first makes a rerun create nothing, and a
 * namespace made earlier by a plain `wrangler deploy` is found and reused, not duplicated.
 */
import { expectDefined } from "../../common/expect";
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

const R2_READ = "Workers R2 Storage: Read";
const R2_EDIT = "Workers R2 Storage: Edit";
/** GET /r2/buckets/:name for a bucket that does not exist. */
const NO_SUCH_BUCKET = 10006;

export const ensureKvNamespaces = (api: CloudflareApi, deployment: Deployment): Promise<Resource[]> =>
  findOrCreate(
    api,
    KV_NAMESPACES,
    deployment.kvNamespaces.map(({ binding, title }) => ({ binding, name: title })),
  );

export const ensureD1Databases = (api: CloudflareApi, deployment: Deployment): Promise<Resource[]> =>
  findOrCreate(
    api,
    D1_DATABASES,
    deployment.d1Databases.map(({ binding, databaseName: name }) => ({ binding, name })),
  );

/** A queue's binding is its name: a deployment may produce to and consume from it. */
export const ensureQueues = (api: CloudflareApi, deployment: Deployment): Promise<Resource[]> =>
  findOrCreate(
    api,
    QUEUES,
    deployment.queues.map((name) => ({ binding: name, name })),
  );

/**
 * A kind of storage the API lists (paged) and creates by name: `nameKey` holds the name in a listed
 * item and in the creation's body, `idKey` the id in a listed item and in the creation's answer.
 */
interface Listed {
  path: string;
  /** "KV namespace", as messages name one. */
  noun: string;
  /** The token permissions' area: "<area>: Read" lists, "<area>: Edit" creates. */
  area: string;
  nameKey: string;
  idKey: string;
}

const KV_NAMESPACES: Listed = {
  path: "/storage/kv/namespaces",
  noun: "KV namespace",
  area: "Workers KV Storage",
  nameKey: "title",
  idKey: "id",
};
const D1_DATABASES: Listed = { path: "/d1/database", noun: "D1 database", area: "D1", nameKey: "name", idKey: "uuid" };
const QUEUES: Listed = { path: "/queues", noun: "queue", area: "Queues", nameKey: "queue_name", idKey: "queue_id" };

/** Lists what exists once, then creates each wanted name that is not there. */
async function findOrCreate(
  api: CloudflareApi,
  kind: Listed,
  wanted: { binding: string; name: string }[],
): Promise<Resource[]> {
  if (wanted.length === 0) return [];
  const existing = await api.pages<Record<string, string>>(api.account(kind.path), {
    permission: `${kind.area}: Read`,
    action: `list the ${kind.noun}s (to find ${wanted.map(({ name }) => name).join(", ")})`,
  });
  const resources: Resource[] = [];
  for (const { binding, name } of wanted) {
    const found = existing.find((item) => item[kind.nameKey] === name);
    if (found) {
      resources.push({ binding, name, id: idOf(kind, found), created: false });
      continue;
    }
    const created = await api.call<Record<string, string>>(api.account(kind.path), {
      method: "POST",
      body: { [kind.nameKey]: name },
      permission: `${kind.area}: Edit`,
      action: `create the ${kind.noun} ${name}`,
    });
    resources.push({ binding, name, id: idOf(kind, created), created: true });
  }
  return resources;
}

const idOf = (kind: Listed, item: Record<string, string>) =>
  expectDefined(item[kind.idKey], `the ${kind.idKey} of a ${kind.noun}`);

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
