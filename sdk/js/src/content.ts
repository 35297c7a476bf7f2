import { GenerationTimeoutError } from "./errors.js";
import type { RegenerateResult } from "./generated/schemas.js";
import { OPERATIONS, type JsonBody, type OperationName } from "./operations.js";
import { newClientId, sleep, type Call, type CallOptions } from "./transport.js";
import type { Channel, ContentFamily, ContentItem, DeliveryResult, Preset, VariantsResult } from "./types.js";

type ClientIdKey<Id extends OperationName> = Extract<keyof JsonBody<Id>, "client_request_id" | "client_event_id">;
/** An operation's body whose client id may be left out: it defaults to a new id, reused by the call's retries. */
type WithClientId<Id extends OperationName> = Omit<JsonBody<Id>, ClientIdKey<Id>> & { [Key in ClientIdKey<Id>]?: string };

/**
 * The content workflow: channels and presets, masters and their platform variants, approval and
 * delivery evidence. Voicedraft never publishes for you: manual confirmation records what you did.
 */
export class ContentApi {
  constructor(private readonly call: Call) {}

  /** Your channels (where you publish). */
  listChannels(options?: CallOptions): Promise<Channel[]> {
    return this.call(OPERATIONS.listChannels, options).then((r) => r.channels);
  }
  /** Adds a channel. Not retried automatically. */
  createChannel(input: JsonBody<"createChannel">, options?: CallOptions): Promise<Channel> {
    return this.call(OPERATIONS.createChannel, { json: input, ...options }).then((r) => r.channel);
  }
  /** Built-in presets and yours. */
  listPresets(options?: CallOptions): Promise<Preset[]> {
    return this.call(OPERATIONS.listPresets, options).then((r) => r.presets);
  }
  /** A master from a body, one of your transcriptions, or both. Not retried automatically. */
  createMaster(input: JsonBody<"createContentMaster">, options?: CallOptions): Promise<ContentItem> {
    return this.call(OPERATIONS.createContentMaster, { json: input, ...options }).then((r) => r.item);
  }
  /** A master or a variant. */
  getItem(id: string, options?: CallOptions): Promise<ContentItem> {
    return this.call(OPERATIONS.getContentItem, { pathParams: { id }, ...options }).then((r) => r.item);
  }
  /** Edits title and/or body; ConflictError (edit_conflict) when the item changed since expected_content_hash. */
  editItem(id: string, input: JsonBody<"editContentItem">, options?: CallOptions): Promise<ContentItem> {
    return this.call(OPERATIONS.editContentItem, { pathParams: { id }, json: input, ...options }).then((r) => r.item);
  }
  /** A master (or a variant's master) with its variants, their generation, approval and freshness, and deliveries. */
  getFamily(id: string, options?: CallOptions): Promise<ContentFamily> {
    return this.call(OPERATIONS.getContentFamily, { pathParams: { id }, ...options });
  }
  /**
   * Creates (or reuses) variants of a master for up to 10 channel/preset targets. client_request_id defaults to a new id,
   * reused by retries; reusing one for a different request is IdempotencyConflictError.
   */
  createVariants(masterId: string, input: WithClientId<"createContentVariants">, options?: CallOptions): Promise<VariantsResult> {
    const json = { client_request_id: input.client_request_id ?? newClientId(), targets: input.targets };
    return this.call(OPERATIONS.createContentVariants, { pathParams: { id: masterId }, json, ...options });
  }
  /** Queues a new generation of a variant (source "master" refreshes a stale one). Not retried automatically. */
  regenerate(variantId: string, input: JsonBody<"regenerateContentVariant"> = {}, options?: CallOptions): Promise<RegenerateResult> {
    return this.call(OPERATIONS.regenerateContentVariant, { pathParams: { id: variantId }, json: input, ...options });
  }
  /** Approves exactly the title and body whose content_hash is given; a later edit invalidates it. */
  approve(variantId: string, contentHash: string, options?: CallOptions): Promise<ContentItem> {
    const json = { content_hash: contentHash };
    return this.call(OPERATIONS.approveContentVariant, { pathParams: { id: variantId }, json, ...options }).then((r) => r.item);
  }
  /** Records evidence of a share, copy or export (initiated, presented, cancelled, failed); it never confirms a publication. */
  recordDelivery(itemId: string, input: WithClientId<"recordContentDelivery">, options?: CallOptions): Promise<DeliveryResult> {
    const json = { ...input, client_event_id: input.client_event_id ?? newClientId() };
    return this.call(OPERATIONS.recordContentDelivery, { pathParams: { id: itemId }, json, ...options });
  }
  /** Confirms that you published an approved, fresh variant yourself. No third-party platform is called. */
  confirmManualDelivery(
    variantId: string,
    input: WithClientId<"confirmManualDelivery">,
    options?: CallOptions,
  ): Promise<DeliveryResult> {
    const json = { ...input, client_event_id: input.client_event_id ?? newClientId() };
    return this.call(OPERATIONS.confirmManualDelivery, { pathParams: { id: variantId }, json, ...options });
  }
  /** Polls the family until no variant is queued or running, and returns it. */
  async waitForVariants(id: string, options: CallOptions & { interval?: number } = {}): Promise<ContentFamily> {
    const { timeout = 120_000, interval = 500 } = options;
    const deadline = Date.now() + timeout;
    let finishedBefore = false;
    for (;;) {
      const family = await this.getFamily(id, { signal: options.signal });
      const busy = family.variants.filter((v) => v.generation?.state === "queued" || v.generation?.state === "running");
      // The service reads items and their tasks in separate statements, so the read that first
      // shows a task finished may still carry the text from before it; the next read cannot.
      if (!busy.length && finishedBefore) return family;
      finishedBefore = !busy.length;
      if (finishedBefore) continue;
      if (Date.now() > deadline) {
        throw new GenerationTimeoutError(`${busy.length} variant(s) of ${id} are still being generated after ${timeout} ms.`);
      }
      await sleep(interval);
    }
  }
}
