/**
 * The query schema of a route that takes no query parameters: any parameter is a 400 naming it
 * (the app's validation problem), never silently ignored. Routes with parameters use
 * `z.strictObject({...})` for the same effect.
 */
import { z } from "@hono/zod-openapi";

export const NO_QUERY = z.strictObject({});
