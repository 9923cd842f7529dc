/**
 * What a request that no route answered gets. A path some route serves, asked with a method none
 * serves, is not "not found": it is a 405 whose Allow lists the methods that are served (RFC 9110
 * §15.5.6: a 405 MUST carry Allow), and OPTIONS answers that list (§9.3.7). The list is derived
 * from the app's own registered routes, so a new route is covered without a list to keep.
 */
import type { Context, Hono } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import type { AppEnv } from "./context";
import { Problem, renderProblem } from "./problem";

/** Hono's method for `app.use` middleware and `app.all` routes: those answer any method themselves. */
const ANY_METHOD = "ALL";
/** Every route is indexed under this one key, so one match returns the methods of all of them. */
const INDEX_KEY = "ROUTE";

export function routeNotFound(app: Hono<AppEnv>): (c: Context<AppEnv>) => Response {
  let index: TrieRouter<string> | undefined;
  return (c) => {
    index ??= indexRoutes(app); // built on first use: every route is registered by then
    const allow = allowHeader(index, c.req.path);
    const id = c.get("requestId");
    if (!allow)
      return renderProblem(
        new Problem("not_found", `No route for ${c.req.method} ${c.req.path}.`),
        id,
        c.var.publicOrigin,
      );
    if (c.req.method === "OPTIONS") return new Response(null, { status: 204, headers: { Allow: allow } });
    const detail = `${c.req.method} is not allowed on ${c.req.path}; it answers ${allow}.`;
    return renderProblem(
      new Problem("method_not_allowed", detail, { headers: { Allow: allow } }),
      id,
      c.var.publicOrigin,
    );
  };
}

function indexRoutes(app: Hono<AppEnv>): TrieRouter<string> {
  const index = new TrieRouter<string>();
  for (const route of app.routes) if (route.method !== ANY_METHOD) index.add(INDEX_KEY, route.path, route.method);
  return index;
}

/** `GET, HEAD, OPTIONS`-style list of what `path` answers, or null when no route serves it. */
function allowHeader(index: TrieRouter<string>, path: string): string | null {
  const methods = new Set(index.match(INDEX_KEY, path)[0].map(([method]) => method));
  if (methods.size === 0) return null;
  if (methods.has("GET")) methods.add("HEAD"); // Hono answers HEAD with the GET route
  methods.add("OPTIONS");
  return [...methods].sort().join(", ");
}
