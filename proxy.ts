import { NextResponse, type NextRequest } from "next/server";

// Gives every response an X-Request-Id, also those no route handler makes (pages, Next's own
// 404/405). Route handlers reuse the id passed on here, so logs and responses agree.
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

export function proxy(request: NextRequest) {
  const incoming = request.headers.get("x-request-id");
  const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  const headers = new Headers(request.headers);
  headers.set("x-request-id", requestId);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("X-Request-Id", requestId);
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
