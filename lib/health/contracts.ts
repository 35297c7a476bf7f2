import { z } from "zod";
import type { Health } from "@/lib/health/check-health.ts";
import { defineOperation, pathsOf, type ApiArea } from "@/lib/openapi/operation.ts";
import type { Check, Same } from "@/lib/openapi/schemas.ts";

// The health report is built outside zod (checkHealth); its schema is written here for the
// document, and the type check below keeps the two in step.
// A model's background download (lib/downloads/background-download.ts), as health reports it.
const DownloadProgress = z.object({
  model: z.string(),
  state: z.enum(["downloading", "waiting"]).meta({ description: "waiting: the last attempt failed; retried at retry_at." }),
  received_bytes: z.number(),
  total_bytes: z.number().nullable(),
  percent: z.number().nullable(),
  retry_at: z.string().nullable(),
});

export const HealthReport = z
  .object({
    status: z.enum(["ok", "degraded"]).meta({ description: "ok (HTTP 200) or degraded (HTTP 503)." }),
    database: z.object({
      kind: z.string().meta({ description: "postgresql, embedded, or unknown when unreachable." }),
      reachable: z.boolean(),
      latency_ms: z.number().nullable().meta({ description: "Round trip of SELECT 1; null when unreachable." }),
      pending_migrations: z
        .array(z.string())
        .nullable()
        .meta({ description: "Migrations not yet applied; null when unreachable." }),
    }),
    transcription: z.object({
      quality: z
        .enum(["accurate", "basic", "unavailable"])
        .meta({ description: "What new recordings get: accurate (whisper or a remote server), basic (PocketSphinx), or unavailable." }),
      model_download: DownloadProgress.nullable()
        .meta({ description: "The background download of the accurate recognizer by this server's own launcher (npm start) for its DATA_DIR, when under way; another server's download into a shared MODELS_DIR is not reported." }),
    }),
    writing: z.object({
      written_by: z
        .enum(["writer", "local-model", "offline"])
        .meta({ description: "Who is asked to write clean-ups, insights, posts, rewrites and answers: the writer named by WRITER_BASE_URL, the model on this server (local-model), or the offline rules. Whether its answers were used: last_tasks." }),
      says: z.string().meta({
        description:
          "The writer's state in words, as Settings → Writing says it: \"wrote your last 3 notes\", \"could not write your last 2 notes: <reason>; writing without a model meanwhile\", \"downloading, 42 %\", \"could not download: no network\" (the times are local_model.download's failed_at and retry_at).",
      }),
      last_tasks: z
        .object({
          state: z.enum(["wrote", "failed", "none"]).meta({ description: "wrote: its latest answers were used; failed: they were not (the offline rules wrote instead); none: it has written nothing since the server started." }),
          notes: z.number().int().meta({ description: "How many notes in a row, the latest first, went this way (a note's tasks count once, by the latest)." }),
          questions: z.number().int().meta({ description: "How many questions (Ask) among them." }),
          reason: z.string().nullable().meta({ description: "Why the latest answer was not used (failed), in words." }),
          at: z.string().nullable().meta({ description: "When the latest of them was (ISO 8601)." }),
        })
        .meta({ description: "What the writer's last tasks in this process did (the last 50 kept)." }),
      local_model: z.object({
        state: z
          .enum(["ready", "failing", "downloading", "waiting", "unavailable", "off"])
          .meta({ description: "ready: its file is here (loaded on first use); failing: its last answers could not be used (see reason; the rules write meanwhile); downloading: on its way (the rules write meanwhile); waiting: its download failed and is tried again at download.retry_at; unavailable: see reason; off: WRITER_LOCAL=off." }),
        model: z.string().nullable().meta({ description: "The model's file name." }),
        reason: z.string().nullable().meta({ description: "Why it does not write, or null." }),
        loaded: z.boolean().meta({ description: "In memory now (unloaded after WRITER_LOCAL_IDLE_MINUTES unused)." }),
        download: DownloadProgress.extend({
          error: z.string().nullable(),
          failed_at: z.string().nullable().meta({ description: "When its last attempt failed (waiting)." }),
        })
          .nullable()
          .meta({ description: "The background download of the model by this server's own launcher, when under way." }),
      }),
    }),
    public_address: z
      .object({
        origin: z.string().meta({ description: "This site's address as a browser sees it: NEXTAUTH_URL when set, else the address this request was sent to (with X-Forwarded-Host and -Proto only under TRUST_PROXY).", example: "https://notes.example.com" }),
        secure: z.boolean().meta({ description: "Whether a page at that address is a secure context: https, or http to this computer itself (localhost, 127.0.0.1, [::1]). Phones record, work offline and install the app only at a secure address (docs/phone.md)." }),
      })
      .meta({ description: "The public address, and whether a phone can record there." }),
  })
  .meta({ id: "Health" });

/** Fails to compile when HealthReport and checkHealth's Health type drift apart. */
export type HealthReportMatchesHealth = Check<Same<z.output<typeof HealthReport>, Health>>;

const tag = "Service";

export const getHealth = defineOperation({
  method: "get",
  path: "/api/health",
  id: "getHealth",
  tag,
  summary: "Service health",
  description:
    "Checks that the database answers and that every migration is applied. Meant for load balancers and uptime checks. " +
    "Also says whether the public address is secure (`public_address.secure`): at a plain http address that is not this computer, a phone's browser keeps the microphone, offline use and installing off.",
  scope: "public",
  responses: {
    200: { description: "Healthy: the database answers and is fully migrated.", schema: HealthReport },
    503: { description: "Degraded: the database is unreachable or migrations are pending.", schema: HealthReport },
  },
});

export const getOpenApi = defineOperation({
  method: "get",
  path: "/api/v1/openapi.json",
  id: "getOpenApi",
  tag,
  summary: "This API description",
  description: "The OpenAPI 3.1 document of the public API, for client generators and API tools.",
  scope: "public",
  responses: {
    200: {
      description: "The OpenAPI document.",
      schema: {
        type: "object",
        description: "An OpenAPI 3.1 document.",
        externalDocs: { url: "https://spec.openapis.org/oas/v3.1.1" },
      },
    },
  },
});

export const serviceArea: ApiArea = {
  tag: { name: tag, description: "About the service itself: its health and this API description." },
  schemas: [HealthReport],
  paths: pathsOf(getHealth, getOpenApi),
};
