/**
 * Deployments share nothing: each has its own worker (and so its own Durable Objects), KV
 * namespaces, R2 buckets, D1 databases, queues and rate-limit counters. A rate limit's `namespace_id` is a number we choose
 * (there is nothing to create for it), unique in the account: two deployments using the same one
 * would count each other's requests.
 */
import type { Deployment } from "./deployments";

export function checkIsolation(deployments: Deployment[]): string[] {
  const problems: string[] = [];
  const claimed = new Map<string, string>();
  const claim = (what: string, by: Deployment) => {
    const owner = claimed.get(what);
    if (owner !== undefined && owner !== by.name) problems.push(`${owner} and ${by.name} share ${what}`);
    claimed.set(what, by.name);
  };
  for (const deployment of deployments) {
    claim(`the worker name ${deployment.config.name}`, deployment);
    for (const { title } of deployment.kvNamespaces) claim(`the KV namespace ${title}`, deployment);
    for (const { bucketName } of deployment.buckets) claim(`the R2 bucket ${bucketName}`, deployment);
    for (const { databaseName } of deployment.d1Databases) claim(`the D1 database ${databaseName}`, deployment);
    for (const queue of deployment.queues) claim(`the queue ${queue}`, deployment);
    for (const { name, namespace_id } of deployment.config.ratelimits) {
      if (!/^\d+$/.test(namespace_id))
        problems.push(
          `${deployment.name}: rate limit ${name} has namespace_id "${namespace_id}"; it must be a positive integer`,
        );
      claim(`the rate-limit namespace ${namespace_id}`, deployment);
    }
  }
  return problems;
}
