/**
 * The size of the MCP App views (issue 39 §5: at most 30 KB): the rendered view that get_profile's
 * answer names, for sampled profiles of the release (the largest counts), and the view that
 * compare_profiles names for the most profiles it compares, taken from those with the largest
 * profile views. Each through `POST /mcp` as a host reads it: the tool call, then `resources/read`
 * of the URI in the answer's `_meta.ui.resourceUri`.
 */
import { expectDefined } from "../src/common/expect";

export const MAX_VIEW_BYTES = 30 * 1024;
/** compare_profiles' most profiles (src/worker/mcp/app-uris.ts COMPARED.max). */
const MOST_COMPARED = 10;
/** Profiles of the sample whose view is measured (two requests each). */
const MEASURED = 50;

const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

export interface ViewSizes {
  /** Bytes of the largest profile view among the measured. */
  profileBytes: number;
  /** Bytes of the compare view of the `compared` profiles with the largest profile views. */
  compareBytes: number;
  compared: number;
}

async function rpc(origin: string, headers: Record<string, string>, method: string, params: object) {
  const response = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers: { ...headers, ...MCP_HEADERS },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: Record<string, unknown> };
  if (response.status !== 200 || !body.result || body.result.isError)
    throw new Error(`POST /mcp ${method} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.result;
}

/** The bytes of the view a tool's answer names. */
async function viewBytes(origin: string, headers: Record<string, string>, tool: string, args: object) {
  const answer = await rpc(origin, headers, "tools/call", { name: tool, arguments: args });
  const uri = (answer._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
  if (!uri) throw new Error(`${tool} named no view`);
  const read = (await rpc(origin, headers, "resources/read", { uri })) as { contents: { text: string }[] };
  return new TextEncoder().encode(expectDefined(read.contents[0], `the content of ${uri}`).text).length;
}

export async function viewSizes(
  origin: string,
  headers: Record<string, string>,
  sample: [string, string, ...string[]][],
): Promise<ViewSizes> {
  const measured: { scope: { product: string; funnel: string }; bytes: number }[] = [];
  for (const [product, funnel] of sample.slice(0, MEASURED))
    measured.push({
      scope: { product, funnel },
      bytes: await viewBytes(origin, headers, "get_profile", { product, funnel }),
    });
  measured.sort((a, b) => b.bytes - a.bytes);
  const compared = measured.slice(0, MOST_COMPARED).map((one) => one.scope);
  return {
    profileBytes: expectDefined(measured[0], "a measured profile view").bytes,
    compareBytes: await viewBytes(origin, headers, "compare_profiles", { profiles: compared }),
    compared: compared.length,
  };
}

export const viewSummary = (profiles: string, sizes: ViewSizes) =>
  `mcp app views ${profiles} profiles: largest profile view ${sizes.profileBytes} bytes, compare of ${sizes.compared} ` +
  `${sizes.compareBytes} bytes (target ≤ ${MAX_VIEW_BYTES})`;
