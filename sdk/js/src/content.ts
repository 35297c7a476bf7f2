import { GenerationTimeoutError } from "./errors.js";
import type { DocumentOperationId } from "./generated/operations.js";
import { OPERATIONS, type JsonAnswer, type JsonBody, type Operation } from "./operations.js";
import type { RequestOptions } from "./transport.js";
import type { Channel, ContentFamily, ContentItem, DeliveryResult, Preset, VariantsResult, VariantTarget } from "./types.js";

export type Call = <Id extends DocumentOperationId>(op: Operation<Id>, options?: RequestOptions<Id>) => Promise<JsonAnswer<Id>>;
type CallOptions = { timeout?: number; signal?: AbortSignal };

/** A new id for client_request_id / client_event_id; one per logical request, reused by its retries. */
export function newClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const ACTIVE_GENERATION = new Set(["queued", "running"]);

/**
 * The content workflow: channels and presets, masters and their platform variants, approval and
 * delivery evidence. Voicedraft never publishes for you: manual confirmation records what you did.
 */
export class ContentApi {
  constructor(private readonly call: Call) {}

  listChannels(options: CallOptions = {}): Promise<Channel[]> {
    return this.call(OPERATIONS.listChannels, options).then((r) => r.channels);
  }

  createChannel(input: JsonBody<"createChannel">, options: CallOptions = {}): Promise<Channel> {
    return this.call(OPERATIONS.createChannel, { json: input, ...options }).then((r) => r.channel);
  }

  /** Built-in presets and yours. */
  listPresets(options: CallOptions = {}): Promise<Preset[]> {
    return this.call(OPERATIONS.listPresets, options).then((r) => r.presets);
  }

  /** A master from a body, one of your transcriptions, or both. */
  createMaster(input: JsonBody<"createContentMaster">, options: CallOptions = {}): Promise<ContentItem> {
    return this.call(OPERATIONS.createContentMaster, { json: input, ...options }).then((r) => r.item);
  }

  getItem(id: string, options: CallOptions = {}): Promise<ContentItem> {
    return this.call(OPERATIONS.getContentItem, { pathParams: { id }, ...options }).then((r) => r.item);
  }

  /** Edits title and/or body; ConflictError (edit_conflict) when the item changed since expected_content_hash. */
  editItem(id: string, input: JsonBody<"editContentItem">, options: CallOptions = {}): Promise<ContentItem> {
    return this.call(OPERATIONS.editContentItem, { pathParams: { id }, json: input, ...options }).then((r) => r.item);
  }

  /** A master (or a variant's master) with its variants, their generation, approval and freshness, and deliveries. */
  getFamily(id: string, options: CallOptions = {}): Promise<ContentFamily> {
    return this.call(OPERATIONS.getContentFamily, { pathParams: { id }, ...options });
  }

  /**
   * Creates (or reuses) variants of a master for up to 10 channel/preset targets. client_request_id
   * defaults to a new id; a retry reuses it, so the service replays the first answer. Reusing an id
   * for a different request is IdempotencyConflictError.
   */
  createVariants(
    masterId: string,
    input: { targets: VariantTarget[]; client_request_id?: string },
    options: CallOptions = {},
  ): Promise<VariantsResult> {
    const json = { client_request_id: input.client_request_id ?? newClientId(), targets: input.targets };
    return this.call(OPERATIONS.createContentVariants, { pathParams: { id: masterId }, json, ...options });
  }

  /** Queues a new generation of a variant (source "master" refreshes a stale one). Not retried automatically. */
  regenerate(variantId: string, input: JsonBody<"regenerateContentVariant"> = {}, options: CallOptions = {}): Promise<{ item: ContentItem; task_id: string }> {
    return this.call(OPERATIONS.regenerateContentVariant, { pathParams: { id: variantId }, json: input, ...options });
  }

  /** Approves exactly the title and body whose content_hash is given; a later edit invalidates it. */
  approve(variantId: string, contentHash: string, options: CallOptions = {}): Promise<ContentItem> {
    return this.call(OPERATIONS.approveContentVariant, {
      pathParams: { id: variantId },
      json: { content_hash: contentHash },
      ...options,
    }).then((r) => r.item);
  }

  /**
   * Records evidence of a share, copy or export (initiated, presented, cancelled, failed). It never
   * confirms a publication. client_event_id defaults to a new id, reused by retries.
   */
  recordDelivery(
    itemId: string,
    input: Omit<JsonBody<"recordContentDelivery">, "client_event_id"> & { client_event_id?: string },
    options: CallOptions = {},
  ): Promise<DeliveryResult> {
    const json = { ...input, client_event_id: input.client_event_id ?? newClientId() };
    return this.call(OPERATIONS.recordContentDelivery, { pathParams: { id: itemId }, json, ...options });
  }

  /** Confirms that you published an approved, fresh variant yourself. No third-party platform is called. */
  confirmManualDelivery(
    variantId: string,
    input: Omit<JsonBody<"confirmManualDelivery">, "client_event_id"> & { client_event_id?: string },
    options: CallOptions = {},
  ): Promise<DeliveryResult> {
    const json = { ...input, client_event_id: input.client_event_id ?? newClientId() };
    return this.call(OPERATIONS.confirmManualDelivery, { pathParams: { id: variantId }, json, ...options });
  }

  /** Polls the family until no variant is queued or running, and returns it. */
  async waitForVariants(id: string, options: CallOptions & { interval?: number } = {}): Promise<ContentFamily> {
    const timeout = options.timeout ?? 120_000;
    const deadline = Date.now() + timeout;
    let finishedBefore = false;
    for (;;) {
      const family = await this.getFamily(id, { signal: options.signal });
      const busy = family.variants.filter((v) => v.generation && ACTIVE_GENERATION.has(v.generation.state));
      // The service reads items and their tasks in separate statements, so the read that first
      // shows a task finished may still carry the text from before it; the next read cannot.
      if (!busy.length && finishedBefore) return family;
      finishedBefore = !busy.length;
      if (finishedBefore) continue;
      if (Date.now() > deadline) {
        throw new GenerationTimeoutError(`${busy.length} variant(s) of ${id} are still being generated after ${timeout} ms.`);
      }
      await new Promise((r) => setTimeout(r, options.interval ?? 500));
    }
  }
}
