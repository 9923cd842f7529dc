/** A release's `manifest.json` as the build writes it (src/common/catalog/manifest.ts is the schema). */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { z } from "@hono/zod-openapi";
import { Manifest, type PartEntry as PartEntrySchema } from "../../../common/catalog/manifest";

export type PartEntry = z.infer<typeof PartEntrySchema>;

/** Validates the manifest against the shared schema and writes it, pretty-printed, to `dir`. */
export function writeManifest(dir: string, manifest: Manifest): void {
  const checked = Manifest.parse(manifest);
  writeFileSync(path.join(dir, "manifest.json"), `${JSON.stringify(checked, null, 2)}\n`);
}
