import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { serviceSecret } from "@/lib/internal/service-secret.ts";
import { ApiError, unauthorized } from "@/lib/http/errors.ts";
import { validationError } from "@/lib/http/parse.ts";
import { canonicalBody, canonicalTitle, contentHash } from "@/lib/content/content-hash.ts";
import { afterContentChange, canMoveGeneration, generationOutcome, type GenerationState } from "@/lib/content/states.ts";
import { TRANSACTION_OPTIONS } from "@/lib/content/store.ts";
import { BODY_MAX, TITLE_MAX } from "@/lib/content/schemas.ts";

// The generation callback (POST /api/internal/generation/callback) and the built-in worker share
// this code: sign → verify → apply. A signature is HMAC-SHA256 with the service secret over
// `${timestamp}.${raw body}`, sent as `X-Voicedraft-Signature: v1=<hex>` with the Unix time in
// `X-Voicedraft-Timestamp`. Outside the replay window, or seen before: 401.

export const SIGNATURE_HEADER = "x-voicedraft-signature";
export const TIMESTAMP_HEADER = "x-voicedraft-timestamp";
export const REPLAY_WINDOW_SECONDS = 300;

export const GenerationCallbackBody = z.strictObject({
  task_id: z.string().min(1).max(100),
  status: z.enum(["succeeded", "failed"]),
  title: z.string().max(TITLE_MAX * 4).optional(),
  body: z.string().max(BODY_MAX).optional(),
  error: z.string().max(1000).optional(),
});
export type GenerationCallbackBody = z.output<typeof GenerationCallbackBody>;

const hmac = (secret: string, timestamp: string, body: string) =>
  createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");

export async function signCallback(body: string, now = Date.now()): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(now / 1000));
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: `v1=${hmac(await serviceSecret(), timestamp, body)}` };
}

/** Checks the signature and the window, and records the signature so it works only once. */
export async function verifyCallback(body: string, headers: Headers): Promise<void> {
  const timestamp = headers.get(TIMESTAMP_HEADER);
  const signature = /^v1=([0-9a-f]{64})$/.exec(headers.get(SIGNATURE_HEADER) ?? "")?.[1];
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signature) throw unauthorized("A signed request is required.");
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > REPLAY_WINDOW_SECONDS) {
    throw unauthorized("The request's timestamp is outside the replay window.");
  }
  const expected = Buffer.from(hmac(await serviceSecret(), timestamp, body), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) throw unauthorized("The signature is wrong.");
  const prisma = await db();
  const cutoff = new Date(Date.now() - 2 * REPLAY_WINDOW_SECONDS * 1000);
  await prisma.generationCallbackSignature.deleteMany({ where: { receivedAt: { lt: cutoff } } });
  const { count } = await prisma.generationCallbackSignature.createMany({ data: [{ signature }], skipDuplicates: true });
  if (count === 0) throw unauthorized("This signed request was already received.");
}

/** Applies a generator's result to its task and, unless the user edited meanwhile, to the variant. */
export async function applyGenerationResult(result: GenerationCallbackBody): Promise<{ task_id: string; state: GenerationState }> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const task = await tx.generationTask.findUnique({ where: { id: result.task_id } });
    if (!task) throw new ApiError("not_found", `The generation task ${result.task_id} was not found.`);
    const locked = await tx.$queryRaw<{ version: number }[]>`
      SELECT "version" FROM "content_items" WHERE "id" = ${task.variantId} FOR UPDATE`;
    const current = await tx.generationTask.findUniqueOrThrow({ where: { id: task.id } });
    const from = current.state as GenerationState;
    // A result for a finished task is a duplicate delivery: answer with the state it has.
    if (!canMoveGeneration(from, "succeeded")) return { task_id: task.id, state: from };
    const finishedAt = new Date();
    if (result.status === "failed") {
      const error = result.error ?? "The generator failed.";
      await tx.generationTask.update({ where: { id: task.id }, data: { state: "failed", error, finishedAt } });
      return { task_id: task.id, state: "failed" as const };
    }
    const title = canonicalTitle((result.title ?? task.sourceTitle).replace(/\p{Cc}+/gu, " ")).slice(0, TITLE_MAX);
    const body = canonicalBody(result.body ?? "");
    const newest = await tx.generationTask.findFirst({ where: { variantId: task.variantId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    const state = generationOutcome({
      taskBaseVersion: task.baseVersion,
      variantVersion: locked[0].version,
      isLatestTask: newest?.id === task.id,
    });
    await tx.generationTask.update({ where: { id: task.id }, data: { state, resultTitle: title, resultBody: body, finishedAt } });
    if (state === "succeeded") {
      const variant = await tx.contentItem.findUniqueOrThrow({ where: { id: task.variantId } });
      await tx.contentItem.update({
        where: { id: variant.id },
        data: {
          title,
          body,
          ...afterContentChange(variant, contentHash(title, body)),
          sourceTitle: task.sourceTitle,
          sourceBody: task.sourceBody,
          sourceHash: task.sourceHash,
          sourceVersion: task.sourceVersion,
        },
      });
    }
    return { task_id: task.id, state };
  }, TRANSACTION_OPTIONS);
}

/** Reads at most `limit` bytes: the callback is reachable without a key, so a huge body is refused unread. */
export async function readCallbackBody(req: Request, limit = 256 * 1024): Promise<string> {
  const tooLarge = () => new ApiError("payload_too_large", `The callback body is larger than ${limit} bytes.`);
  if (Number(req.headers.get("content-length") ?? 0) > limit) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of (req.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The whole callback: verify the raw body's signature, parse it, apply it. */
export async function receiveGenerationCallback(rawBody: string, headers: Headers) {
  await verifyCallback(rawBody, headers);
  let data: unknown;
  try {
    data = JSON.parse(rawBody);
  } catch {
    throw new ApiError("invalid_json", "The callback body is not valid JSON.");
  }
  const parsed = GenerationCallbackBody.safeParse(data);
  if (!parsed.success) throw validationError(parsed.error);
  return applyGenerationResult(parsed.data);
}
