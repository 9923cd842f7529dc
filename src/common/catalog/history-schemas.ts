/**
 * The JSON shapes of a profile's history entry and of a release comparison, as every door shows
 * them (REST's OpenAPI, MCP's output schemas): documentation, never validation.
 */
import { z } from "@hono/zod-openapi";
import { TRANSITION_FIELDS } from "./history-fields";
import { Sha256Digest, STAGES } from "./schema";

const RELEASE_EXAMPLE = "sha256:4f0c4e3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d";

export const ProfileHistoryEntry = z
  .strictObject({
    event_at: z.iso.datetime().openapi({ description: "When the event made `release_id` current." }),
    release_id: Sha256Digest.openapi({ example: RELEASE_EXAMPLE }),
    previous_release_id: Sha256Digest.nullable().openapi({ description: "The release current before the event." }),
    event: z.enum(["publish", "rollback"]),
    change: z.enum(["added", "changed", "removed"]).openapi({
      description: "Against `previous_release_id`: the profile's bytes appeared, differ, or are gone.",
    }),
    agent_readiness_profile_id: z.string(),
    product_key: z.string(),
    funnel_key: z.string(),
    sha256: Sha256Digest.nullable().openapi({
      description: "Of the profile's bytes in `release_id` (null when removed).",
    }),
    previous_sha256: Sha256Digest.nullable().openapi({ description: "Of its bytes before (null when added)." }),
    grade: z.string(),
    overall_outcome: z.string(),
    public_state: z.string(),
    primary_stage: z.string(),
    stages: z.strictObject(Object.fromEntries(STAGES.map((stage) => [stage, z.string()]))).openapi({
      description: "Each stage's `public_state`.",
    }),
    last_tested_at: z.string(),
    fields_changed: z.array(z.string()).openapi({
      description:
        "For `changed`: which of `grade`, `overall_outcome`, `public_state`, `primary_stage`, `stage.<name>`, `last_tested_at` differ (empty when only other bytes changed).",
      example: ["stage.pay", "public_state"],
    }),
  })
  .openapi("ProfileHistoryEntry");

const Counts = z.record(z.string(), z.int().min(1));

export const ChangesSummary = z
  .strictObject({
    release_id: Sha256Digest,
    since: Sha256Digest,
    added: z.int().min(0),
    removed: z.int().min(0),
    changed: z.int().min(0),
    transitions: z.strictObject(Object.fromEntries(TRANSITION_FIELDS.map((field) => [field.name, Counts]))).openapi({
      description:
        "Per field, `old→new` (U+2192, the values exactly as in the profiles) → how many profiles present in both releases went that way; largest first.",
      example: {
        ...Object.fromEntries(TRANSITION_FIELDS.map((field) => [field.name, {}])),
        grade: { "B→A": 3 },
        "stage.pay": { "ready→limited": 1 },
      },
    }),
  })
  .openapi("ReleaseChangesSummary");
