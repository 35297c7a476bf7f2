import { randomUUID } from "node:crypto";

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/** The caller's X-Request-Id when it is well-formed (so their logs and ours agree), else a new one. */
export function requestIdFrom(header: string | null): string {
  return header && REQUEST_ID.test(header) ? header : randomUUID();
}
