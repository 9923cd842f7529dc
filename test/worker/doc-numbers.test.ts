/**
 * Numbers once: every limit, default, count kept and schedule that the docs state in prose is
 * checked here against the constant the code runs on, so that changing one without the other
 * fails. Each entry is the sentence as the doc words it, built from the constants.
 */
import { describe, expect, it } from "vitest";
import CONTRACT from "../../docs/contract.md?raw";
import MCP from "../../docs/mcp.md?raw";
import ORDERS from "../../docs/orders.md?raw";
import STORAGE from "../../docs/storage.md?raw";
import WEBHOOKS from "../../docs/webhooks.md?raw";
import AUTHENTICATION from "../../docs/authentication.md?raw";
import USAGE from "../../docs/usage.md?raw";
import { KEPT_PREVIOUS_RELEASES } from "../../src/common/catalog/manifest";
import { DEFAULT_LIMIT, MAX_LIMIT } from "../../src/worker/catalog/query-params";
import { CHANGES_PAGE_LIMIT } from "../../src/worker/catalog/service/changes";
import { LISTING_LIMIT } from "../../src/worker/catalog/product-listing";
import { DEFAULT_HISTORY_PAGE, HISTORY_PAGE_LIMIT } from "../../src/worker/catalog/release-history";
import { MAX_PAGE_LIMIT } from "../../src/worker/keys/schemas";
import { DEFAULT_ORDER_PAGE, MAX_ORDER_PAGE } from "../../src/worker/orders/schemas";
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS, RETRY_SPAN_SECONDS } from "../../src/worker/webhooks/schedule";
import { DEFAULT_DELIVERY_PAGE, MAX_DELIVERY_PAGE } from "../../src/worker/webhooks/schemas";
import { DELIVERIES_KEPT } from "../../src/worker/webhooks/webhook-tables";
import { MAX_ENDPOINTS_PER_ACCOUNT } from "../../src/worker/webhooks/webhook-store";
import { ERRORS_KEPT } from "../../src/worker/usage/usage-tally";
import { MAX_POINTS } from "../../src/worker/usage/usage-window";

const CARDINALS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const ORDINALS = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"];
const word = (words: string[], n: number) => words[n] ?? String(n);

/** 5 → "5 s", 300 → "5 min", 7200 → "2 h": how the docs write a delay. */
function delay(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

const list = (items: string[]) => `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;

const STATED: [doc: string, text: string, sentence: string][] = [
  // The webhook retry schedule (src/worker/webhooks/schedule.ts).
  [
    "webhooks.md",
    WEBHOOKS,
    `after ${list(RETRY_DELAYS_SECONDS.map(delay))},\n  ${word(CARDINALS, MAX_ATTEMPTS)} attempts over about **${(RETRY_SPAN_SECONDS / 3600).toFixed(1)} hours**`,
  ],
  ["webhooks.md", WEBHOOKS, `When the ${word(ORDINALS, MAX_ATTEMPTS)} attempt fails`],
  ["webhooks.md", WEBHOOKS, `At most **${MAX_ENDPOINTS_PER_ACCOUNT} endpoints per account**`],
  ["webhooks.md", WEBHOOKS, `The account has ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints.`],
  ["webhooks.md", WEBHOOKS, `deliveries[?limit=1…${MAX_DELIVERY_PAGE}&cursor=…]`],
  ["webhooks.md", WEBHOOKS, `webhook_endpoints[?limit=1…${MAX_ENDPOINTS_PER_ACCOUNT}&cursor=…]`],
  ["webhooks.md", WEBHOOKS, `(default: all ${MAX_ENDPOINTS_PER_ACCOUNT})`],
  ["webhooks.md", WEBHOOKS, `(default ${DEFAULT_DELIVERY_PAGE}; the last ${DELIVERIES_KEPT} are kept,`],
  [
    "storage.md",
    STORAGE,
    `at most ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints and ${DELIVERIES_KEPT} deliveries each per account`,
  ],
  // Paging defaults and limits.
  ["contract.md", CONTRACT, `\`limit\` 1–${MAX_LIMIT} (default ${DEFAULT_LIMIT})`],
  ["contract.md", CONTRACT, `\`GET /v1/releases[?limit=1–${HISTORY_PAGE_LIMIT} (default ${DEFAULT_HISTORY_PAGE})`],
  ["contract.md", CONTRACT, `[&limit=1–${CHANGES_PAGE_LIMIT} (default ${CHANGES_PAGE_LIMIT})`],
  ["contract.md", CONTRACT, `profiles[?limit=1–${LISTING_LIMIT} (default ${LISTING_LIMIT})&cursor=…]`],
  ["mcp.md", MCP, `\`limit\` (1–${MAX_LIMIT}, default ${DEFAULT_LIMIT})`],
  ["mcp.md", MCP, `\`limit\` (1–${CHANGES_PAGE_LIMIT}, default ${CHANGES_PAGE_LIMIT})`],
  [
    "orders.md",
    ORDERS,
    `| \`limit\` | 1–${MAX_ORDER_PAGE} in decimal digits ([Lists](contract.md#lists)), default ${DEFAULT_ORDER_PAGE} |`,
  ],
  [
    "authentication.md",
    AUTHENTICATION,
    `\`GET /v1/keys\`, a [list](contract.md#lists), takes \`limit\` (1–${MAX_PAGE_LIMIT} in decimal digits;`,
  ],
  // Usage: the recent-errors ring and the longest ranges (src/worker/usage/).
  ["usage.md", USAGE, `the last ${ERRORS_KEPT} per key`],
  ["usage.md", USAGE, `At most ${MAX_POINTS.hour} hours (31 days) or ${MAX_POINTS.day} days`],
  ["storage.md", STORAGE, `The last ${ERRORS_KEPT} per key or grant`],
];

describe("numbers the docs state", () => {
  it.each(STATED)("%s says what the constant is", (_doc, text, sentence) => {
    expect(text).toContain(sentence);
  });

  // src/common/catalog/manifest.ts: each mention of the releases kept.
  it(`the releases kept: the current one and the ${KEPT_PREVIOUS_RELEASES} before it`, () => {
    const mentions = CONTRACT.match(/the current one and the \d+ before it/g) ?? [];
    expect(mentions.length).toBeGreaterThan(1);
    for (const mention of mentions) expect(mention).toBe(`the current one and the ${KEPT_PREVIOUS_RELEASES} before it`);
  });
});
