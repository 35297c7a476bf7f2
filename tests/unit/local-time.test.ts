import assert from "node:assert/strict";
import test from "node:test";
import { utcText } from "@/app/_ui/local-time.tsx";

// The server's (and hydration's) form of a date is written by hand; it reads as Intl's en-US in UTC.
test("utcText reads as en-US's medium date and short time in UTC", () => {
  const intl = (date: Date, time: boolean) =>
    date.toLocaleString("en-US", { dateStyle: "medium", ...(time ? { timeStyle: "short" } : {}), timeZone: "UTC" }).replace(/\u202f/g, " ");
  for (const iso of ["2026-11-27T01:05:00Z", "2026-01-01T00:00:59Z", "2025-06-30T12:00:00Z", "2024-02-29T23:59:00Z", "2026-12-31T13:30:00.123Z"]) {
    const date = new Date(iso);
    assert.equal(utcText(date), intl(date, true), iso);
    assert.equal(utcText(date, false), intl(date, false), iso);
  }
});
