/**
 * A worker upload to the fake Cloudflare API (see fake-cloudflare.ts): the multipart body of
 * `PUT /workers/scripts/:name` and `POST /workers/scripts/:name/versions` (a `metadata` part in the
 * documented script-upload format, then one part per module) made into a version of the script.
 */
import { expectDefined } from "../../../src/common/expect";
import type { FakeAssets } from "./fake-assets";
import type { UploadedVersion } from "./fake-edge";

export interface Binding {
  type: string;
  name: string;
  text?: string;
  [field: string]: unknown;
}

export interface Version extends UploadedVersion {
  number: number;
  annotations: Record<string, string>;
  created_on: string;
  migrationTag?: string;
  observability?: unknown;
}

interface UploadMetadata {
  main_module: string;
  bindings: Binding[];
  compatibility_date?: string;
  compatibility_flags?: string[];
  keep_secrets?: boolean;
  annotations?: Record<string, string>;
  observability?: unknown;
  /** Static assets: the completion token of their upload session (fake-assets.ts). */
  assets?: { jwt: string; config?: unknown };
  keep_assets?: boolean;
  migrations?: {
    old_tag?: string;
    new_tag: string;
    steps?: MigrationStep[];
  } & MigrationStep;
}

/** One Durable Object migration step, as far as the fake follows it: which classes keep SQLite storage. */
interface MigrationStep {
  new_sqlite_classes?: string[];
  renamed_classes?: { from: string; to: string }[];
}

/** The SQLite-backed classes after `steps`, in order: a renamed class keeps its storage under the new name. */
function sqliteClassesAfter(before: string[], steps: MigrationStep[]): string[] {
  const classes = new Set(before);
  for (const step of steps) {
    for (const name of step.new_sqlite_classes ?? []) classes.add(name);
    for (const { from, to } of step.renamed_classes ?? []) if (classes.delete(from)) classes.add(to);
  }
  return [...classes];
}

/** What an upload is checked against: the script's version now deployed, if any. */
export interface Previous {
  secrets: Map<string, string>;
  bindings: Binding[];
  migrationTag?: string;
  sqliteClasses: string[];
  number: number;
  assets?: UploadedVersion["assets"];
}

export class UploadRefused extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export async function versionOf(
  request: Request,
  previous: Previous | undefined,
  uploadedAssets: FakeAssets,
): Promise<Version> {
  const form = await request.formData();
  const part = form.get("metadata");
  const metadata = JSON.parse(
    typeof part === "string" ? part : await expectDefined(part, "the metadata part").text(),
  ) as UploadMetadata;
  const { migrations } = metadata;
  if (migrations && migrations.old_tag !== previous?.migrationTag) {
    throw new UploadRefused(
      10079,
      `migration old_tag ${migrations.old_tag} does not match the script's current tag ${previous?.migrationTag}`,
    );
  }
  const assets = metadata.assets
    ? uploadedAssets.resolve(metadata.assets.jwt)
    : metadata.keep_assets
      ? previous?.assets
      : undefined;
  if (metadata.assets && !assets)
    throw new UploadRefused(10201, "assets.jwt is not a completion token of an assets upload session");
  const secrets = new Map(metadata.keep_secrets && previous ? previous.secrets : []);
  const bindings: Binding[] = [];
  for (const binding of metadata.bindings) {
    if (binding.type === "secret_text")
      secrets.set(binding.name, expectDefined(binding.text, `the text of ${binding.name}`));
    else if (binding.type !== "inherit") bindings.push(binding);
    else {
      // wrangler's version uploads inherit secrets and bindings it cannot name itself (a queue producer).
      const inherited = previous?.bindings.find((candidate) => candidate.name === binding.name);
      if (inherited) bindings.push(inherited);
      else if (previous?.secrets.has(binding.name))
        secrets.set(binding.name, expectDefined(previous.secrets.get(binding.name), binding.name));
      else
        throw new UploadRefused(
          10057,
          `inherit binding '${binding.name}' is invalid: no such binding in the previous version`,
        );
    }
  }
  const modules = new Map<string, { type: string; content: Uint8Array }>();
  for (const [field, value] of form) {
    if (field !== "metadata" && typeof value !== "string")
      modules.set(value.name || field, { type: value.type, content: new Uint8Array(await value.arrayBuffer()) });
  }
  const steps = migrations ? [...(migrations.steps ?? []), migrations] : [];
  return {
    id: crypto.randomUUID(),
    number: (previous?.number ?? 0) + 1,
    annotations: metadata.annotations ?? {},
    created_on: new Date().toISOString(),
    main: metadata.main_module,
    modules,
    bindings,
    secrets: Object.fromEntries(secrets),
    compatibilityDate: metadata.compatibility_date,
    compatibilityFlags: metadata.compatibility_flags ?? [],
    sqliteClasses: sqliteClassesAfter(previous?.sqliteClasses ?? [], steps),
    migrationTag: migrations?.new_tag ?? previous?.migrationTag,
    observability: metadata.observability,
    assets,
  };
}
