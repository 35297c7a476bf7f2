// Shared by the content API tests: workers for the generation job, and short calls to each route.
import { after, before } from "node:test";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { call, type CallResult } from "@/tests/support/http.ts";
import { generateVariantJob } from "@/lib/posts/generation/generation-job.ts";
import { startJobWorkers, type JobWorkers } from "@/lib/jobs/workers.ts";
import { closeJobQueue } from "@/lib/jobs/queue.ts";
import { GET as listItems, POST as postItem } from "@/app/api/v1/content/items/route.ts";
import { GET as getItemRoute, PATCH as patchItem } from "@/app/api/v1/content/items/[id]/route.ts";
import { GET as familyRoute } from "@/app/api/v1/content/items/[id]/family/route.ts";
import { POST as variantsRoute } from "@/app/api/v1/content/items/[id]/variants/route.ts";
import { POST as regenerateRoute } from "@/app/api/v1/content/items/[id]/regenerate/route.ts";
import { POST as approveRoute } from "@/app/api/v1/content/items/[id]/approve/route.ts";
import { POST as deliveriesRoute } from "@/app/api/v1/content/items/[id]/deliveries/route.ts";
import { POST as manualRoute } from "@/app/api/v1/content/items/[id]/deliveries/manual/route.ts";
import { POST as postChannel } from "@/app/api/v1/channels/route.ts";

/** A fresh database, and (with workers) the generation job running in this process. */
export function setUpContentTests({ workers = true } = {}) {
  process.env.JOBS_POLL_SECONDS ??= "0.5";
  let running: JobWorkers | undefined;
  // Registered before the database's own hooks so the queue stops before the database is dropped.
  after(async () => {
    await running?.stop();
    await closeJobQueue();
  });
  const database = setUpTestDatabase();
  if (workers) {
    before(async () => {
      await database.ready;
      running = await startJobWorkers([generateVariantJob], []);
    });
  }
  return database;
}

const item = (id: string, suffix = "") => ({ path: `/api/v1/content/items/${id}${suffix}`, params: { id } });

export const content = {
  list: (key: string, query = "") => call(listItems, { path: `/api/v1/content/items${query}`, key }),
  create: (key: string, json: unknown) => call(postItem, { method: "POST", path: "/api/v1/content/items", key, json }),
  get: (key: string, id: string) => call(getItemRoute, { ...item(id), key }),
  edit: (key: string, id: string, json: unknown) => call(patchItem, { method: "PATCH", ...item(id), key, json }),
  family: (key: string, id: string) => call(familyRoute, { ...item(id, "/family"), key }),
  variants: (key: string, id: string, json: unknown) => call(variantsRoute, { method: "POST", ...item(id, "/variants"), key, json }),
  regenerate: (key: string, id: string, json: unknown = {}) =>
    call(regenerateRoute, { method: "POST", ...item(id, "/regenerate"), key, json }),
  approve: (key: string, id: string, json: unknown) => call(approveRoute, { method: "POST", ...item(id, "/approve"), key, json }),
  deliver: (key: string, id: string, json: unknown) => call(deliveriesRoute, { method: "POST", ...item(id, "/deliveries"), key, json }),
  manual: (key: string, id: string, json: unknown) =>
    call(manualRoute, { method: "POST", ...item(id, "/deliveries/manual"), key, json }),
};

export async function createChannel(key: string, platform = "linkedin", active = true): Promise<string> {
  const res = await call(postChannel, { method: "POST", path: "/api/v1/channels", key, json: { platform, name: `my ${platform}`, active } });
  if (res.status !== 201) throw new Error(`channel: ${res.status} ${res.text}`);
  return res.body.channel.id;
}

export async function createMaster(key: string, body: string, title = "A note"): Promise<CallResult["body"]> {
  const res = await content.create(key, { title, body });
  if (res.status !== 201) throw new Error(`master: ${res.status} ${res.text}`);
  return res.body.item;
}

/** Polls the family until no variant's generation is queued or running. */
export async function waitForGeneration(key: string, id: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await content.family(key, id);
    const busy = res.body.variants.some((v: { generation: { state: string } | null }) =>
      ["queued", "running"].includes(v.generation?.state ?? ""),
    );
    if (!busy) return res.body;
    if (Date.now() > deadline) throw new Error(`generation did not finish in ${timeoutMs} ms: ${res.text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const LONG_NOTE = [
  "We moved our main database from MySQL to Postgres last quarter. It took eleven weeks, two rehearsals and one very long night.",
  "The biggest surprise was not the data but the queries. Forty of them relied on MySQL's loose GROUP BY, and each needed a human to decide what it really meant.",
  "What helped most: a shadow-read setup that ran every production query against both databases and diffed the answers for a month before the switch.",
  "Would we do it again? Yes. The planner is smarter, the extensions are wonderful, and our p99 latency dropped by a third.",
].join("\n\n");
