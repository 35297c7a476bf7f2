"use client";

import { useState, useSyncExternalStore, type FormEvent, type ReactNode } from "react";
import { Check, Copy, Download, Ellipsis, ExternalLink, Pencil, RefreshCw, Send, Share2 } from "lucide-react";
import { ApiRequestError } from "@/app/_lib/api.ts";
import { THREAD_SEPARATOR } from "@/lib/posts/generators/platform-rules.ts";
import { approveItem, confirmManualDelivery, editItem, newActionId, regenerate, type Channel, type ContentItem, type Delivery } from "@/app/_lib/posts/content.ts";
import { canShare, copyVariant, downloadVariant, isThread, shareVariant, type ShareOutcome } from "@/app/_lib/posts/share.ts";
import { Badge, Button, IconButton, LocalTime, Notice, ProgressBar, Sheet } from "@/app/_ui/index.ts";
import { platformName } from "@/app/_components/posts/platforms.ts";
import { PostEditor, PostPreview, hasTitle } from "@/app/_components/posts/post-preview.tsx";
import { STATE_TONE, STATE_WORDS, confirmation, nextThreadPost, postState } from "@/app/_components/posts/post-state.ts";
import { MenuItem, PostedSheet, VariantHistory, shortUrl } from "@/app/_components/posts/variant-sheets.tsx";
import { WrittenBy } from "@/app/_components/posts/written-by.tsx";
import styles from "./posts.module.css";

const OUTCOME: Record<ShareOutcome, string> = {
  presented: "Shared. Once it is live, tell Voicedraft below.",
  cancelled: "Sharing was cancelled. Nothing was sent.",
  failed: "Sharing did not work on this device. You can copy the text instead.",
  copied: "Copied. Paste it where you post.",
  downloaded: "Saved as a text file.",
  unsupported: "This browser cannot open a share sheet. Copy the text instead.",
};

const noChange = () => () => {};

// Why the sheet offers no sharing yet, by where the post stands (issue 69: a shared post was told to approve it).
const SHARING_HINT: Partial<Record<ReturnType<typeof postState>, string>> = {
  review: "Sharing is offered once you approve the text.",
  changed: "You changed it since you approved it: approve it again to share it.",
  stale: "The note changed since this was written: rewrite it from the note, then approve it to share it.",
  sharedEarlier: "You shared an earlier text, and the note changed since: rewrite it from the note, then approve it to share it again.",
};

export function VariantCard(props: { variant: ContentItem; channel: Channel | undefined; presetName: string; deliveries: Delivery[]; onChanged: () => Promise<unknown> }) {
  const { variant, channel, deliveries, onChanged } = props;
  const [message, setMessage] = useState<{ tone: "neutral" | "success" | "danger"; text: string } | null>(null);
  const [working, setWorking] = useState(false);
  const [menu, setMenu] = useState(false);
  const [asking, setAsking] = useState(false);
  const [draft, setDraft] = useState<{ title: string | null; posts: string[]; baseHash: string } | null>(null);
  // One id per "Yes, it's posted" action: a retry after a dropped answer replays instead of recording twice.
  const [confirmId, setConfirmId] = useState<string | null>(null);

  // The server cannot know whether this browser has a share sheet: "Share" appears once hydrated.
  const sharable = useSyncExternalStore(noChange, canShare, () => false);
  const state = postState(variant, deliveries);
  const confirmed = confirmation(variant, deliveries);
  const platform = channel?.platform;
  const name = channel?.name ?? "Deleted channel";
  const mine = deliveries.filter((d) => d.item_id === variant.id && d.state !== "initiated");
  const posts = variant.posts?.length ? variant.posts : [variant.body];
  const busy = working || state === "writing";
  // A thread goes out post by post (X takes one post at a time): the next one to share, if any.
  const thread = isThread(variant);
  const nextPost = nextThreadPost(variant, deliveries);

  async function run(action: () => Promise<string | ShareOutcome>, tone: (text: string) => "neutral" | "success" | "danger" = () => "success") {
    setWorking(true);
    setMenu(false);
    try {
      const text = await action();
      const words = text in OUTCOME ? OUTCOME[text as ShareOutcome] : text;
      setMessage(words ? { tone: tone(text), text: words } : null);
      await onChanged();
    } catch (err) {
      setMessage({ tone: "danger", text: err instanceof ApiRequestError ? err.message : "That did not work. Try again." });
    } finally {
      setWorking(false);
    }
  }

  const shareTone = (outcome: string) => (outcome === "presented" || outcome === "copied" || outcome === "downloaded" ? "success" : "neutral");
  const share = () => run(() => (sharable ? shareVariant(variant) : copyVariant(variant)), shareTone);
  // One post of a thread: its outcome says what comes next.
  const sharePost = (post: number) =>
    run(async () => {
      const outcome = sharable ? await shareVariant(variant, { post }) : await copyVariant(variant, { post });
      if (outcome !== "presented" && outcome !== "copied") return outcome;
      const done = outcome === "presented" ? "Shared" : "Copied";
      return post < posts.length ? `${done} post ${post} of ${posts.length}. Post it, then share the next one.` : `${done} the last post. Once the thread is live, tell Voicedraft below.`;
    }, () => "success");
  const copyPost = (post: number) =>
    run(async () => ((await copyVariant(variant, { post })) === "copied" ? `Copied post ${post} of ${posts.length}.` : "Copying did not work on this device."), shareTone);
  const approve = () => run(() => approveItem(variant.id, variant.content_hash).then(() => ""));
  const rewrite = () =>
    run(() => regenerate(variant.id, { source: "master", expected_content_hash: variant.content_hash }).then(() => ""));

  function startEdit() {
    setMenu(false);
    setMessage(null);
    setDraft({ title: hasTitle(platform) ? variant.title : null, posts, baseHash: variant.content_hash });
  }

  async function saveEdit() {
    if (!draft) return;
    const body = draft.posts.map((p) => p.trim()).filter(Boolean).join(posts.length > 1 ? THREAD_SEPARATOR : "\n\n");
    setWorking(true);
    try {
      await editItem(variant.id, { expected_content_hash: draft.baseHash, body, ...(draft.title !== null && { title: draft.title }) });
      setDraft(null);
      setMessage(null);
      await onChanged();
    } catch (err) {
      const conflict = err instanceof ApiRequestError && err.code === "edit_conflict";
      setMessage({ tone: "danger", text: conflict ? "This post changed meanwhile. Your text is still here: copy it, then cancel to see the new one." : (err as Error).message });
    } finally {
      setWorking(false);
    }
  }

  function askPosted() {
    setConfirmId((id) => id ?? newActionId());
    setAsking(true);
  }

  async function confirmPosted(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const url = String(new FormData(event.currentTarget).get("published_url") ?? "").trim();
    const id = confirmId ?? newActionId();
    setConfirmId(id);
    await run(async () => {
      await confirmManualDelivery(variant.id, { client_event_id: id, content_hash: variant.content_hash, ...(url && { published_url: url }) });
      setAsking(false);
      setConfirmId(null);
      return "";
    });
  }

  let primary: ReactNode = null;
  if (draft) {
    primary = (
      <div className="row">
        <Button onClick={saveEdit} disabled={working} className={styles.grow}>
          <Check size={18} aria-hidden="true" /> Save
        </Button>
        <Button variant="secondary" onClick={() => setDraft(null)} disabled={working}>
          Cancel
        </Button>
      </div>
    );
  } else if (state === "review" || state === "changed") {
    primary = (
      <Button block onClick={approve} disabled={busy}>
        <Check size={18} aria-hidden="true" /> Approve
      </Button>
    );
  } else if (thread && nextPost !== null && (state === "approved" || state === "shared")) {
    primary = (
      <Button block onClick={() => sharePost(nextPost)} disabled={busy}>
        <Share2 size={18} aria-hidden="true" />{" "}
        {nextPost === 1 ? `${sharable ? "Share" : "Copy"} post 1 of ${posts.length}` : `Next: post ${nextPost} of ${posts.length}`}
      </Button>
    );
  } else if (state === "approved") {
    primary = (
      <Button block onClick={share} disabled={busy}>
        <Share2 size={18} aria-hidden="true" /> {sharable ? "Share" : "Copy to post"}
      </Button>
    );
  } else if (state === "shared") {
    primary = (
      <Button block onClick={askPosted} disabled={busy}>
        <Send size={18} aria-hidden="true" /> Did you post it?
      </Button>
    );
  } else if (state === "stale" || state === "sharedEarlier" || state === "failed") {
    primary = (
      <Button block onClick={rewrite} disabled={busy}>
        <RefreshCw size={18} aria-hidden="true" /> {state === "failed" ? "Try again" : "Rewrite from the note"}
      </Button>
    );
  }

  const label = name === platformName(platform ?? "other") ? name : `${name} (${platformName(platform ?? "other")})`;
  return (
    <article className="card stack" aria-label={`Post for ${name}`} data-testid="variant">
      <div className={styles.cardHead}>
        <h3 className={styles.cardTitle}>
          <span className={styles.cardName}>{name}</span>
          <span>
            {platformName(platform ?? "other")} · {props.presetName}
          </span>
        </h3>
        <IconButton label={`More for ${name}`} icon={<Ellipsis size={22} aria-hidden="true" />} onClick={() => setMenu(true)} disabled={state === "writing"} />
      </div>
      <p className={styles.stateLine} data-testid="variant-state" aria-live="polite">
        <Badge tone={STATE_TONE[state]}>{STATE_WORDS[state]}</Badge>
        {confirmed && state !== "published" && <Badge tone="success">Posted</Badge>}
      </p>
      {state === "writing" && variant.generation?.partial_body ? (
        // The writer's words as they come (a few times a second), not a spinner.
        <p className={styles.streaming} aria-busy="true" data-testid="post-streaming">
          {variant.generation.partial_body}
          <span className={styles.caret} aria-hidden="true" />
        </p>
      ) : state === "writing" ? (
        <div className={styles.writing}>
          <ProgressBar label={`Writing the post for ${name}`} />
          <span>Writing a version for {platformName(platform ?? "other")}…</span>
        </div>
      ) : draft ? (
        <PostEditor platform={platform} title={draft.title} posts={draft.posts} onChange={(next) => setDraft({ ...draft, ...next })} />
      ) : (
        <PostPreview
          platform={platform}
          name={name}
          title={variant.title}
          posts={posts}
          onCopyPost={thread && (state === "approved" || state === "shared" || state === "published") ? copyPost : undefined}
        />
      )}
      {state === "failed" && variant.generation?.error && <p className="muted">{variant.generation.error}</p>}
      {state !== "writing" && <WrittenBy generation={variant.generation} />}
      {confirmed &&
        (confirmed.published_url ? (
          <a className={styles.link} href={confirmed.published_url} target="_blank" rel="noreferrer noopener" data-testid="published-link">
            <ExternalLink size={18} aria-hidden="true" />
            <span>Posted: {shortUrl(confirmed.published_url)}</span>
          </a>
        ) : (
          <p className={styles.postedNote}>You said it is posted (<LocalTime iso={confirmed.created_at} time={false} />).</p>
        ))}
      {message && (
        <Notice tone={message.tone} role={message.tone === "danger" ? "alert" : "status"} data-testid="variant-message">
          {message.text}
        </Notice>
      )}
      {primary}
      <Sheet open={menu} onClose={() => setMenu(false)} title={label}>
        <ul className={styles.menu}>
          <MenuItem icon={<Pencil size={20} />} onClick={startEdit}>
            Edit text
          </MenuItem>
          <MenuItem icon={<RefreshCw size={20} />} onClick={rewrite}>
            Rewrite from the note
          </MenuItem>
          <MenuItem icon={<Copy size={20} />} onClick={() => run(() => copyVariant(variant), shareTone)}>
            {thread ? "Copy all posts" : "Copy text"}
          </MenuItem>
          {(state === "approved" || state === "shared" || state === "published") && sharable && !thread && (
            <MenuItem icon={<Share2 size={20} />} onClick={share}>
              {state === "approved" ? "Share" : "Share again"}
            </MenuItem>
          )}
          {(state === "shared" || state === "published") && sharable && thread && (
            <MenuItem icon={<Share2 size={20} />} onClick={() => sharePost(1)}>
              Share again from post 1
            </MenuItem>
          )}
          {state === "approved" && (
            <MenuItem icon={<Send size={20} />} onClick={() => (setMenu(false), askPosted())}>
              I posted it already
            </MenuItem>
          )}
          <MenuItem icon={<Download size={20} />} onClick={() => run(() => downloadVariant(variant), shareTone)}>
            Save as a text file
          </MenuItem>
        </ul>
        {SHARING_HINT[state] && <p className="muted" data-testid="sharing-hint">{SHARING_HINT[state]}</p>}
        <VariantHistory deliveries={mine} contentHash={variant.content_hash} />
      </Sheet>
      <PostedSheet
        open={asking}
        onClose={() => setAsking(false)}
        id={variant.id}
        platform={platformName(platform ?? "other")}
        publishedUrl={confirmed?.published_url ?? ""}
        error={message?.tone === "danger" ? message.text : null}
        working={working}
        onConfirm={confirmPosted}
      />
    </article>
  );
}
