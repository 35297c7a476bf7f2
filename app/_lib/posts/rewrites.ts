import { client, ok, type Schemas } from "@/app/_lib/api-client.ts";

// "Rewrite as…" as the browser uses it, through the generated client; wire types are the document's.

export type Rewrite = Schemas["Rewrite"];
export type RewriteStyle = Schemas["RewriteStyle"];

const byId = (id: string) => ({ params: { path: { id } } });

export const listRewriteStyles = () => ok(client.GET("/api/v1/rewrite-styles"));
export const createRewriteStyle = (body: Schemas["RewriteStyleInput"]) => ok(client.POST("/api/v1/rewrite-styles", { body })).then((r) => r.style);
export const updateRewriteStyle = (id: string, body: Schemas["RewriteStyleUpdate"]) =>
  ok(client.PATCH("/api/v1/rewrite-styles/{id}", { ...byId(id), body })).then((r) => r.style);
export const deleteRewriteStyle = (id: string) => ok(client.DELETE("/api/v1/rewrite-styles/{id}", byId(id)));

export const createRewrite = (noteId: string, style: string) =>
  ok(client.POST("/api/v1/transcriptions/{id}/rewrites", { ...byId(noteId), body: { style } })).then((r) => r.rewrite);
export const listRewrites = (noteId: string) => ok(client.GET("/api/v1/transcriptions/{id}/rewrites", byId(noteId))).then((r) => r.rewrites);
export const getRewrite = (id: string) => ok(client.GET("/api/v1/rewrites/{id}", byId(id))).then((r) => r.rewrite);
export const editRewrite = (id: string, body: Schemas["EditRewriteInput"]) => ok(client.PATCH("/api/v1/rewrites/{id}", { ...byId(id), body })).then((r) => r.rewrite);
export const deleteRewrite = (id: string) => ok(client.DELETE("/api/v1/rewrites/{id}", byId(id)));

/** The text to copy or share: the title, then the rewrite. */
export const rewriteText = (rewrite: Pick<Rewrite, "title" | "text">) => (rewrite.title ? `${rewrite.title}\n\n${rewrite.text}` : rewrite.text);

/** Copies or shares a rewrite (nothing is recorded: a rewrite is not a post with delivery evidence). */
export async function shareRewrite(rewrite: Rewrite): Promise<"presented" | "cancelled" | "failed" | "unsupported"> {
  if (typeof navigator === "undefined" || typeof navigator.share !== "function") return "unsupported";
  try {
    // The text alone, its title its first line: some share targets paste a `title` beside the text (issue 69).
    await navigator.share({ text: rewriteText(rewrite) });
    return "presented";
  } catch (err) {
    return (err as DOMException)?.name === "AbortError" ? "cancelled" : "failed";
  }
}

export async function copyRewrite(rewrite: Rewrite): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(rewriteText(rewrite));
    return true;
  } catch {
    return false;
  }
}
