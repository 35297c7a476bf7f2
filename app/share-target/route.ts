import { NextResponse } from "next/server";

// POST /share-target – a file shared into the app before its service worker was installed (the
// service worker answers this itself): back to Record, which says to open the app once and share again.
export function POST(req: Request) {
  return NextResponse.redirect(new URL("/record#shared=retry", req.url), 303);
}
