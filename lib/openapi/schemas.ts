import { z } from "zod";
import { ERROR_STATUS, type ErrorCode, type ErrorDetail } from "@/lib/http/errors.ts";

// The error body, built outside zod, written down here for the OpenAPI document. The type check
// below keeps it in step with the code (Same and Check serve other such schemas too).

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

export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export type Check<T extends true> = T;
/** Fails to compile when ErrorBody's details drift from the ApiError details type. */
export type ErrorDetailsMatch = Check<Same<NonNullable<z.output<typeof ErrorBody>["error"]["details"]>, ErrorDetail[]>>;
