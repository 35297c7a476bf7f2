import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Prisma } from "@/lib/db/generated/client.ts";
import { pageTake, paginate } from "@/lib/db/paginate.ts";
import { isUniqueViolation, retryOnUniqueViolation } from "@/lib/db/unique-violation.ts";

describe("paginate", () => {
  const key = (row: { id: string }) => `after:${row.id}`;
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i + 1) }));

  test("asks for one row more than the page and cuts it off, with the cursor after the page's last row", () => {
    assert.equal(pageTake(2), 3);
    assert.equal(pageTake(undefined), undefined);
    assert.deepEqual(paginate(rows(3), 2, key), { page: rows(2), nextCursor: "after:2" });
  });

  test("the last page (or no limit) has no cursor", () => {
    assert.deepEqual(paginate(rows(2), 2, key), { page: rows(2), nextCursor: null });
    assert.deepEqual(paginate(rows(5), undefined, key), { page: rows(5), nextCursor: null });
    assert.deepEqual(paginate([], 2, key), { page: [], nextCursor: null });
  });
});

describe("unique violations", () => {
  const p2002 = new Prisma.PrismaClientKnownRequestError("Unique constraint failed", { code: "P2002", clientVersion: "7" });
  const p2025 = new Prisma.PrismaClientKnownRequestError("Record not found", { code: "P2025", clientVersion: "7" });

  test("are recognised by Prisma's code, or by the driver's message", () => {
    assert.equal(isUniqueViolation(p2002), true);
    assert.equal(isUniqueViolation(p2025), false);
    assert.equal(isUniqueViolation(new Error('duplicate key value violates unique constraint "x"')), true);
    assert.equal(isUniqueViolation(new Error("connection reset")), false);
    assert.equal(isUniqueViolation(undefined), false);
  });

  test("an idempotent write is run once more after one, and only after one", async () => {
    let calls = 0;
    assert.equal(await retryOnUniqueViolation(async () => (++calls === 1 ? Promise.reject(p2002) : "replayed")), "replayed");
    assert.equal(calls, 2);
    calls = 0;
    await assert.rejects(retryOnUniqueViolation(async () => (++calls, Promise.reject(p2025))), /Record not found/);
    assert.equal(calls, 1);
  });
});
