/** What the consent page's server action answers: where the browser goes next, or why not. */
export type ConsentAnswer = { ok: true; next: string } | { ok: false; message: string };
