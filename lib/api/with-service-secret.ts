import { isServiceSecret } from "@/lib/internal/service-secret.ts";
import { unauthorized } from "@/lib/http/errors.ts";
import { withRequest, type RequestContext, type RouteParams } from "@/lib/api/with-request.ts";

/** An internal endpoint: `Authorization: Bearer <SERVICE_SECRET>`, then the handler. */
export function withServiceSecret<P extends RouteParams = RouteParams>(handler: (ctx: RequestContext<P>) => Promise<Response>) {
  return withRequest<P>(async (ctx) => {
    const header = ctx.req.headers.get("authorization") ?? "";
    const presented = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (!(await isServiceSecret(presented))) throw unauthorized("This internal endpoint needs the service secret.");
    return handler(ctx);
  });
}
