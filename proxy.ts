import { NextResponse, type NextRequest } from "next/server";
import { requestIdFrom } from "@/lib/http/request-id.ts";

// Gives every response an X-Request-Id, also those no route handler makes (pages, Next's own
// 404/405). Route handlers reuse the id passed on here, so logs and responses agree.
export function proxy(request: NextRequest) {
  const requestId = requestIdFrom(request.headers.get("x-request-id"));
  const headers = new Headers(request.headers);
  headers.set("x-request-id", requestId);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("X-Request-Id", requestId);
  return response;
}

export const config = {
  // Next buffers (and beyond 10 MB truncates) the body of every request the proxy sees, so the
  // upload endpoints stay out of it; their handlers set X-Request-Id themselves.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|transcribe|v1/audio/).*)"],
};
