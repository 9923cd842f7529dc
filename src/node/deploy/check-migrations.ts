/**
 * Durable Object migrations are consistent: within a deployment, every bound class is created by a
 * migration and not deleted or renamed away since, tags are unique, and no class is created twice;
 * across deployments, the same code runs everywhere, so each one declares the same migrations.
 * Cloudflare applies a deployment's migrations after its last applied tag, in order, and refuses a
 * binding to a class no migration created.
 */
import type { Deployment, Migration } from "./deployments";

export function checkMigrations(deployments: Deployment[]): string[] {
  const problems = deployments.flatMap(checkOne);
  const [first, ...others] = deployments;
  if (first === undefined) return problems;
  for (const other of others) {
    if (JSON.stringify(first.config.migrations) !== JSON.stringify(other.config.migrations)) {
      problems.push(
        `${other.name} declares other Durable Object migrations than ${first.name} (${summary(other.config.migrations)}; ${first.name}: ${summary(first.config.migrations)}), but both run the same code`,
      );
    }
  }
  return problems;
}

function checkOne(deployment: Deployment): string[] {
  const problems: string[] = [];
  const live = new Set<string>();
  const seenTags = new Set<string>();
  for (const migration of deployment.config.migrations) {
    if (seenTags.has(migration.tag)) problems.push(`${deployment.name}: migration tag ${migration.tag} appears twice`);
    seenTags.add(migration.tag);
    for (const name of [...(migration.new_classes ?? []), ...(migration.new_sqlite_classes ?? [])]) {
      if (live.has(name))
        problems.push(`${deployment.name}: migration ${migration.tag} creates ${name}, which already exists`);
      live.add(name);
    }
    for (const { from, to } of migration.renamed_classes ?? []) {
      if (!live.delete(from))
        problems.push(
          `${deployment.name}: migration ${migration.tag} renames ${from}, which no earlier migration created`,
        );
      live.add(to);
    }
    for (const name of migration.deleted_classes ?? []) {
      if (!live.delete(name))
        problems.push(
          `${deployment.name}: migration ${migration.tag} deletes ${name}, which no earlier migration created`,
        );
    }
  }
  for (const { name, class_name, script_name } of deployment.config.durable_objects.bindings) {
    if (script_name) continue; // a class of another worker: its own migrations create it
    if (!live.has(class_name))
      problems.push(
        `${deployment.name}: ${name} binds ${class_name}, which no migration creates (add it to a new migration's new_sqlite_classes)`,
      );
  }
  return problems;
}

/** "v1: AccountObject, KeyGuard; v3: KeyGuard → SubjectGuard": each tag with what it changes. */
function summary(migrations: Migration[]): string {
  if (migrations.length === 0) return "none";
  return migrations
    .map(({ tag, new_classes = [], new_sqlite_classes = [], renamed_classes = [], deleted_classes = [] }) => {
      const changes = [
        ...new_classes,
        ...new_sqlite_classes,
        ...renamed_classes.map(({ from, to }) => `${from} → ${to}`),
        ...deleted_classes.map((name) => `${name} deleted`),
      ];
      return `${tag}: ${changes.join(", ") || "no change"}`;
    })
    .join("; ");
}
