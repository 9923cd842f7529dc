// Preloaded (`node --import`) into a measured CLI such as catalog:pull: when the process exits it
// prints, as its last stdout line, its whole lifetime (startup included) and its peak RSS, the
// JSON that bench/measure.ts's runMeasured reads.
import { writeSync } from "node:fs";
import { peakRssBytes } from "./vm-hwm.mjs";

process.on("exit", () => {
  writeSync(1, `${JSON.stringify({ seconds: performance.now() / 1000, max_rss_bytes: peakRssBytes() })}\n`);
});
