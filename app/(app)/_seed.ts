// Server side of a page's first paint: the API answer its client component would fetch on mount,
// read here with the same functions the route handlers call and passed in as a prop, so the page
// arrives with its content (no "Loading…" then a request after hydration). The client component
// keeps it as its saved offline copy of that API path.

/** The value as it goes over the wire (dates as ISO strings, undefined fields left out). */
const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The answer, or undefined when it cannot be read here: the client then fetches and explains. */
export async function seed<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return wire(await read());
  } catch {
    return undefined;
  }
}
