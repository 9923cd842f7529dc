/**
 * A tiny cookie-keeping "browser" for the worker tests of HTML pages (OAuth, dashboard): it drives
 * the forms the way a real one does (an Origin header on every POST, no redirect followed), and
 * reads what a page or a redirect holds.
 */
import { exports } from "cloudflare:workers";
import { expectDefined } from "../../src/common/expect";

/** The deployment's configured public origin in the tests (PUBLIC_ORIGINS, vitest.config.ts). */
export const ORIGIN = "https://api.test";

/** The first group of `pattern` in a page (a field, a link, a section): throws naming `what` when the page has none. */
export function captureIn(html: string, pattern: RegExp, what: string): string {
  const value = pattern.exec(html)?.[1];
  if (value === undefined) throw new Error(`no ${what} in page:\n${html.slice(0, 2000)}`);
  return value;
}

/** The value of a hidden input in a rendered form. */
export function formField(html: string, name: string): string {
  return captureIn(html, new RegExp(`name="${name}" value="([^"]*)"`), `${name} field`).replaceAll("&amp;", "&");
}

/** Where a redirect sends the browser: its Location header, which must be there, as an absolute URL. */
export function locationOf(response: Response): URL {
  return new URL(expectDefined(response.headers.get("Location"), `a Location header on the ${response.status}`));
}

/** Form fields; a list repeats the field, as a browser does for checked checkboxes. */
export type FormFields = Record<string, string | string[]>;

function encode(fields: FormFields): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) body.append(name, item);
  return body;
}

/**
 * Keeps cookies like a browser (per name; a `Max-Age=0` or empty value deletes one), sends an
 * `Origin` with each form post like a browser does, and never follows redirects. URLs may be
 * absolute or relative to ORIGIN.
 */
export class Browser {
  readonly cookies = new Map<string, string>();
  readonly setCookieLines: string[] = [];

  async get(url: string): Promise<Response> {
    return this.#send(new Request(new URL(url, ORIGIN), { headers: this.#cookieHeader(), redirect: "manual" }));
  }

  /** `origin: null` sends none; another value pretends to be another site. */
  async post(url: string, fields: FormFields, origin: string | null = ORIGIN): Promise<Response> {
    const headers = this.#cookieHeader();
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    if (origin !== null) headers.set("Origin", origin);
    return this.#send(
      new Request(new URL(url, ORIGIN), { method: "POST", headers, body: encode(fields), redirect: "manual" }),
    );
  }

  #cookieHeader(): Headers {
    const headers = new Headers();
    if (this.cookies.size)
      headers.set("Cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    return headers;
  }

  async #send(request: Request): Promise<Response> {
    const response = await exports.default.fetch(request);
    for (const line of response.headers.getSetCookie()) {
      this.setCookieLines.push(line);
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (/max-age=0/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}
