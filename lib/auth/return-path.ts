// Where a page that needs a session sends the person back after signing in or up: only the
// OAuth server's consent page asks for it, and nothing else is followed (no open redirect).
const RETURNABLE = /^\/oauth\/consent\/[A-Za-z0-9_-]{1,64}$/;

/** The ?next= of the sign-in and sign-up pages, when it is a path they may return to. */
export const returnPath = (asked: unknown): string | undefined => (typeof asked === "string" && RETURNABLE.test(asked) ? asked : undefined);
