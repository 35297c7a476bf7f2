import { z } from "zod";
import { ERROR_STATUS, type ErrorCode, type ErrorDetail } from "@/lib/http/errors.ts";
import type { Health } from "@/lib/health/check-health.ts";

// Schemas of responses that are built outside zod (the error body, the health report), written
// down here for the OpenAPI document. The type checks below keep them in step with the code.

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).meta({ description: "Stable, machine-readable; branch on this, not on the message." }),
      message: z.string().meta({ description: "For people: what went wrong and what to do next." }),
      request_id: z.string().meta({ description: "The same value as the X-Request-Id header; quote it in support requests." }),
      details: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .optional()
        .meta({ description: "validation_failed only: one item per invalid field (dotted path)." }),
    }),
  })
  .meta({ id: "Error", description: "The one shape of every error response." });

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
      model_download: z
        .object({
          model: z.string(),
          state: z.enum(["downloading", "waiting"]).meta({ description: "waiting: the last attempt failed; retried at retry_at." }),
          received_bytes: z.number(),
          total_bytes: z.number().nullable(),
          percent: z.number().nullable(),
          retry_at: z.string().nullable(),
        })
        .nullable()
        .meta({ description: "The background download of the accurate recognizer (npm start), when under way." }),
    }),
  })
  .meta({ id: "Health" });

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Check<T extends true> = T;
/** Fails to compile when HealthReport and checkHealth's Health type drift apart. */
export type HealthReportMatchesHealth = Check<Same<z.output<typeof HealthReport>, Health>>;
/** Fails to compile when ErrorBody's details drift from the ApiError details type. */
export type ErrorDetailsMatch = Check<Same<NonNullable<z.output<typeof ErrorBody>["error"]["details"]>, ErrorDetail[]>>;
