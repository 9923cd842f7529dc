/**
 * Every binding the code can use is declared, with the same kind, in every deployment.
 *
 * The code type-checks against the `Env` interface that `wrangler types` writes into
 * worker-configuration.d.ts; wrangler makes it the union of all deployments, and marks a binding
 * that only some deployments declare optional. Bindings are not inherited by `[env.*]`, so a binding
 * added at the top level alone type-checks and then is `undefined` on the sandbox: this check
 * compares the Env type with each deployment's own declarations.
 */
import { expectDefined } from "../../common/expect";
import type { Deployment, WorkerConfig } from "./deployments";

export type BindingKind =
  | "KV namespace"
  | "R2 bucket"
  | "D1 database"
  | "Durable Object"
  | "rate limit"
  | "queue"
  | "service"
  | "variable"
  | "secret";

/** `NAME: Type;` lines of the generated Env interface, by name. */
export function envTypeBindings(declarations: string): Map<string, BindingKind> {
  const block = /^interface (?:__BaseEnv_Env|Env) \{\n([\s\S]*?)^\}/m.exec(declarations)?.[1];
  if (block === undefined) throw new Error("worker-configuration.d.ts has no Env interface: run `npm run types`");
  const bindings = new Map<string, BindingKind>();
  for (const [, name, type] of block.matchAll(/^\s+(\w+)\??: (.+);$/gm))
    bindings.set(expectDefined(name, "a binding name"), kindOfType(expectDefined(type, "a binding type")));
  return bindings;
}

function kindOfType(type: string): BindingKind {
  if (type.startsWith("KVNamespace")) return "KV namespace";
  if (type.startsWith("R2Bucket")) return "R2 bucket";
  if (type.startsWith("D1Database")) return "D1 database";
  if (type.startsWith("DurableObjectNamespace")) return "Durable Object";
  if (type === "RateLimit") return "rate limit";
  if (type.startsWith("Queue")) return "queue";
  if (type.startsWith("Fetcher") || type.startsWith("Service")) return "service";
  // `wrangler types` gives a var its literal value's type; a plain `string` is a secret.
  return type === "string" ? "secret" : "variable";
}

export function declaredBindings(config: WorkerConfig): Map<string, BindingKind> {
  const declared = new Map<string, BindingKind>();
  for (const { binding } of config.kv_namespaces) declared.set(binding, "KV namespace");
  for (const { binding } of config.r2_buckets) declared.set(binding, "R2 bucket");
  for (const { binding } of config.d1_databases ?? []) declared.set(binding, "D1 database");
  for (const { name } of config.durable_objects.bindings) declared.set(name, "Durable Object");
  for (const { name } of config.ratelimits) declared.set(name, "rate limit");
  for (const { binding } of config.queues?.producers ?? []) declared.set(binding, "queue");
  for (const { binding } of config.services ?? []) declared.set(binding, "service");
  // Workers Static Assets: its binding is a Fetcher, like a service binding.
  if (config.assets?.binding) declared.set(config.assets.binding, "service");
  for (const name of Object.keys(config.vars)) declared.set(name, "variable");
  for (const name of config.secrets?.required ?? []) declared.set(name, "secret");
  return declared;
}

/** One sentence per binding that some deployment lacks or declares as another kind. */
export function checkBindings(envType: Map<string, BindingKind>, deployments: Deployment[]): string[] {
  const problems: string[] = [];
  for (const deployment of deployments) {
    const declared = declaredBindings(deployment.config);
    for (const [name, kind] of envType) {
      const actual = declared.get(name);
      if (actual === undefined) {
        problems.push(
          `${name} (${kind}) is in the Env type but ${where(deployment)} does not declare it (bindings are not inherited: declare it there too)`,
        );
      } else if (actual !== kind) {
        problems.push(`${name} is a ${kind} in the Env type but a ${actual} in ${where(deployment)}`);
      }
    }
    for (const [name, kind] of declared) {
      if (!envType.has(name))
        problems.push(
          `${name} (${kind}) is declared in ${where(deployment)} but missing from the Env type: run \`npm run types\``,
        );
    }
  }
  return problems;
}

const where = (deployment: Deployment) =>
  deployment.wranglerEnv ? `[env.${deployment.wranglerEnv}]` : "the top level (production)";
