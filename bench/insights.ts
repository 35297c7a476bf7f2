// Offline insights on a long note: how long an upload's answer waits for them (the writer is
// synchronous). Prints CPU milliseconds (best of 10) per size; no assertions.
import { readFileSync } from "node:fs";
import { writeOfflineInsights } from "@/lib/insights/offline-insights.ts";

const prose = ["docs/architecture.md", "docs/api-guide.md", "docs/web-app.md", "README.md"]
  .map((file) => readFileSync(file, "utf8"))
  .join("\n\n")
  .replace(/[`#*|>[\]()_]/g, " ")
  .split(/[ \t]+/);
const unpunctuated = prose.map((w) => w.toLowerCase().replace(/[.,;:!?]/g, ""));

for (const [name, source] of [["punctuated", prose], ["unpunctuated (no clean-up yet)", unpunctuated]] as const) {
  for (const size of [500, 2000, 5000]) {
    const text = Array.from({ length: Math.ceil(size / source.length) + 1 }, () => source.join(" ")).join(" ").split(" ").slice(0, size).join(" ");
    let best = Infinity;
    for (let run = 0; run < 10; run++) {
      const before = process.cpuUsage();
      writeOfflineInsights({ text, language: "en" });
      const used = process.cpuUsage(before);
      best = Math.min(best, (used.user + used.system) / 1000);
    }
    console.log(`${name.padEnd(32)} ${String(size).padStart(5)} words  ${best.toFixed(1)} ms`);
  }
}
