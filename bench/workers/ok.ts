/**
 * The serve benchmark's floor: a bare Hono worker that answers "ok", run by the same `wrangler dev`
 * harness as the real worker, so the ratios measure what our routes add to the runtime's own cost.
 */
import { Hono } from "hono";

const app = new Hono();
app.get("/", (c) => c.text("ok"));

export default app;
