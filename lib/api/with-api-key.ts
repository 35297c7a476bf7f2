import { resolvePrincipal, type Principal } from "@/lib/auth/resolve-principal.ts";
import type { Scope } from "@/lib/api-keys/scopes.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { limitApiRequest, limitUnknownKeys } from "@/lib/rate-limit/api-limits.ts";
import { withRequest, type RequestContext, type RouteParams } from "@/lib/api/with-request.ts";
import { asPerson } from "@/lib/turns/person-context.ts";

export type ApiKeyContext<P extends RouteParams> = RequestContext<P> & { user: { id: string }; key: Principal };

/** A public endpoint: Bearer API key (or the browser session) with the given scope, then the handler. */
export function withApiKey<P extends RouteParams = RouteParams>(
  options: { scope: Scope },
  handler: (ctx: ApiKeyContext<P>) => Promise<Response>,
) {
  return withRequest<P>(async (ctx) => {
    const key = await limitUnknownKeys(ctx.req, () => resolvePrincipal(ctx.req));
    if (!key.scopes.includes(options.scope)) {
      throw new ApiError("insufficient_scope", `This API key lacks the scope "${options.scope}".`, {
        headers: { "WWW-Authenticate": `Bearer realm="voicedraft", error="insufficient_scope", scope="${options.scope}"` },
      });
    }
    const limitHeaders = await limitApiRequest(key, ctx.req);
    const response = await asPerson(key.userId, () => handler({ ...ctx, user: { id: key.userId }, key }));
    for (const [name, value] of Object.entries(limitHeaders)) response.headers.set(name, value);
    return response;
  });
}
