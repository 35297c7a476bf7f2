import { signatureRefusal } from "@/lib/internal/signed-body.ts";
import { unauthorized } from "@/lib/http/errors.ts";
import { readBody } from "@/lib/http/parse.ts";
import { withRequest, type RequestContext, type RouteParams } from "@/lib/api/with-request.ts";

/**
 * An internal endpoint whose body is HMAC-signed with the service secret: reads at most `maxBytes`
 * (the endpoint needs no key, so a huge body is refused unread), checks the signature, then hands
 * the verified raw body to the handler.
 */
export function withSignature<P extends RouteParams = RouteParams>(
  { maxBytes }: { maxBytes: number },
  handler: (ctx: RequestContext<P> & { body: string }) => Promise<Response>,
) {
  return withRequest<P>(async (ctx) => {
    const body = await readBody(ctx.req, maxBytes);
    const refusal = await signatureRefusal(body, ctx.req.headers);
    if (refusal) throw unauthorized(refusal);
    return handler({ ...ctx, body });
  });
}
