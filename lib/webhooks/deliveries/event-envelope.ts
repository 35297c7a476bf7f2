// An event as every receiver gets it (Standard Webhooks): its id, sent as webhook-id and the same on
// every attempt and redelivery, and its body, kept byte for byte with the delivery.

export type EventEnvelope = { eventId: string; type: string; payload: string };

/** The envelope of one event; `id` (a UUID: the event job's id, or a new one) names it. */
export function eventEnvelope({ id, type, occurredAt, data }: { id: string; type: string; occurredAt: string; data: unknown }): EventEnvelope {
  return { eventId: `msg_${id.replaceAll("-", "")}`, type, payload: JSON.stringify({ type, timestamp: occurredAt, data }) };
}
