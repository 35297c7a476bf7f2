// Next bundles lib/ more than once into one server process (the routes, and instrumentation's job
// workers), and what the process keeps on globalThis (the recognizer and its queues, the job
// workers) is made by whichever copy came first. An error thrown by one copy's class is then not
// `instanceof` another copy's: a piece's job took the busy recognizer's answer for a failure, and
// after three of them failed a live recording's pieces for good (bench:live-load, 2026-11-29).
// A class branded here is recognized in every copy, by a symbol shared across the process.

/** The process-wide brand of the class named `name`. */
export const brandOf = (name: string): symbol => Symbol.for(`voicedraft.${name}`);

/** Whether `value` carries `brand` (made by the branded class, in any copy of it). */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
