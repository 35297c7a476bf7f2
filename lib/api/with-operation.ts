import { z } from "zod";
import { env } from "@/lib/env.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { parseJson, parseQuery } from "@/lib/http/parse.ts";
import { withApiKey, type ApiKeyContext } from "@/lib/api/with-api-key.ts";
import { withRequest, type RequestContext, type RouteHandler } from "@/lib/api/with-request.ts";
import type { OperationSpec } from "@/lib/openapi/operation.ts";

/** `/items/{id}/parts/{n}` → `{ id: string; n: string }`. */
export type PathParams<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name]: string } & PathParams<Rest>
  : Record<never, string>;

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export type OperationContext<C extends OperationSpec> = (C["scope"] extends "public"
  ? RequestContext<PathParams<C["path"]>>
  : ApiKeyContext<PathParams<C["path"]>>) & { query: Parsed<C["query"]>; body: Parsed<C["body"]> };

// An operation that declares no query takes none: `?x=1` is refused as on any other operation.
const NO_QUERY = z.strictObject({});

/** A route handler that carries the contract it serves (the route test reads it). */
export type OperationHandler = RouteHandler & { operation: OperationSpec };

// A status the contract does not declare is a bug in the handler or the contract; outside
// production it fails loudly (500) instead of drifting from the documentation.
function assertDeclared(contract: OperationSpec, status: number): void {
  if (process.env.NODE_ENV === "production" || status >= 400 || status in contract.responses) return;
  throw new Error(`${contract.method.toUpperCase()} ${contract.path} answered ${status}, which its contract does not declare.`);
}

/**
 * The route handler of one declared operation: the key and scope (withApiKey, unless public),
 * the feature flag, the query (none, unless declared) and JSON body (within the operation's size
 * limit) parsed with the contract's schemas, then the handler.
 */
export function withOperation<const C extends OperationSpec>(
  contract: C,
  handler: (ctx: OperationContext<C>) => Promise<Response>,
): OperationHandler {
  const run = async (ctx: RequestContext<PathParams<C["path"]>>) => {
    if (contract.feature && !contract.feature.isEnabled()) throw new ApiError("feature_disabled", contract.feature.message);
    const query = contract.query ? parseQuery(ctx.req, contract.query) : void parseQuery(ctx.req, NO_QUERY);
    const body = contract.body ? await parseJson(ctx.req, contract.body, contract.maxBodyBytes ?? env().MAX_JSON_BODY_BYTES) : undefined;
    const response = await handler({ ...ctx, query, body } as unknown as OperationContext<C>);
    assertDeclared(contract, response.status);
    return response;
  };
  const route =
    contract.scope === "public" ? withRequest(run) : withApiKey<PathParams<C["path"]>>({ scope: contract.scope }, run);
  return Object.assign(route, { operation: contract });
}
