/**
 * The MCP App shell's one script (src/worker/mcp/app-shell-script.ts) in a real browser, inside
 * an iframe of a page that plays the host's side of SEP-1865 over postMessage: the shell sends
 * `ui/initialize` with ext-apps' protocol version, then `ui/notifications/initialized`; given the
 * tool's result, it asks the host to read the view the result names (and only one of ours), and
 * shows that view's body; it answers the host's requests. No server: the shell is rendered here.
 */
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/ext-apps";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHELL_SCRIPT } from "../../src/worker/mcp/app-shell-script";
import { APP_SHELL_URI } from "../../src/worker/mcp/app-uris";
import { appDocument, ShellView } from "../../src/worker/mcp/app-views";
import { launchChromium } from "./support/chromium";

const VIEW_URI = `${APP_SHELL_URI.profile}/current/acme-payments-api/checkout`;

interface Message {
  id?: number;
  method?: string;
  params?: { uri?: string; protocolVersion?: string };
  result?: unknown;
}

/** The host page: the shell in a frame, every message from it recorded, and `post` to send it one. */
const hostPage = (shell: string) => `<!doctype html><html><body>
<iframe id="view" srcdoc="${shell.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"></iframe>
<script>
  window.received = [];
  const frame = document.getElementById("view");
  window.post = (message) => frame.contentWindow.postMessage({ jsonrpc: "2.0", ...message }, "*");
  window.addEventListener("message", (event) => {
    if (event.source === frame.contentWindow) window.received.push(event.data);
  });
</script></body></html>`;

const received = (page: Page) => page.evaluate(() => (window as unknown as { received: Message[] }).received);
const post = (page: Page, message: object) =>
  page.evaluate((m) => (window as unknown as { post: (m: object) => void }).post(m), message);

async function waitFor(page: Page, found: (messages: Message[]) => Message | undefined): Promise<Message> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const message = found(await received(page));
    if (message) return message;
    await page.waitForTimeout(50);
  }
  throw new Error(`not received; got ${JSON.stringify(await received(page))}`);
}
const byMethod = (method: string) => (messages: Message[]) => messages.find((m) => m.method === method);

describe("the MCP App shell's script, with a host in a browser", () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    await page.setContent(
      hostPage(await appDocument("Readiness profile view", ShellView({ tool: "get_profile" }), SHELL_SCRIPT)),
    );
  }, 60_000);
  afterAll(() => browser?.close());

  it("initializes with ext-apps' protocol version, then says it is initialized", async () => {
    const initialize = await waitFor(page, byMethod("ui/initialize"));
    expect(initialize.params?.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    await post(page, {
      id: initialize.id,
      result: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        hostInfo: { name: "h", version: "1" },
        hostCapabilities: {},
        hostContext: {},
      },
    });
    await waitFor(page, byMethod("ui/notifications/initialized"));
  });

  it("reads no view the result does not name as one of ours", async () => {
    await post(page, {
      method: "ui/notifications/tool-result",
      params: { content: [], _meta: { ui: { resourceUri: "ui://elsewhere/x" } } },
    });
    await post(page, { id: 40, method: "ui/resource-teardown", params: {} });
    await waitFor(page, (messages) => messages.find((m) => m.id === 40 && m.result !== undefined));
    expect((await received(page)).filter((m) => m.method === "resources/read")).toEqual([]);
  });

  it("reads the view the tool's result names and shows its body", async () => {
    await post(page, {
      method: "ui/notifications/tool-result",
      params: { content: [], _meta: { ui: { resourceUri: VIEW_URI } } },
    });
    const read = await waitFor(page, byMethod("resources/read"));
    expect(read.params?.uri).toBe(VIEW_URI);
    const view = await appDocument("A view", "Grade B+ from the rendered view");
    await post(page, {
      id: read.id,
      result: { contents: [{ uri: VIEW_URI, mimeType: "text/html;profile=mcp-app", text: view }] },
    });
    const frame = page.frameLocator("#view");
    await expect.poll(() => frame.locator("main").textContent()).toBe("Grade B+ from the rendered view");
    expect(await frame.locator("script").count()).toBe(0);
  });
});
