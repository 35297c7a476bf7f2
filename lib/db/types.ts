import type { Database } from "@/lib/db/client.ts";

type Transaction = Parameters<Parameters<Database["$transaction"]>[0]>[0];

/** The client or an open transaction: helpers that take a Db work inside and outside one. */
export type Db = Database | Transaction;
