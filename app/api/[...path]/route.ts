import { withRequest } from "@/lib/api/with-request.ts";
import { notFound } from "@/lib/http/errors.ts";

// Any /api path no route serves: the API's own 404 shape instead of Next's HTML page.
const noSuchEndpoint = withRequest(async ({ req }) => {
  throw notFound(`The endpoint ${req.method} ${new URL(req.url).pathname}`);
});

export const GET = noSuchEndpoint;
export const POST = noSuchEndpoint;
export const PUT = noSuchEndpoint;
export const PATCH = noSuchEndpoint;
export const DELETE = noSuchEndpoint;
