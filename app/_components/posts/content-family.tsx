"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { ChevronDown, Sparkles, TriangleAlert } from "lucide-react";
import { ApiRequestError, saveRead } from "@/app/_lib/api.ts";
import { createMaster, createVariants, getFamily, listChannels, listPresets, newActionId, type Channel, type Family, type Preset } from "@/app/_lib/posts/content.ts";
import { Button, Card, Notice, Spinner } from "@/app/_ui/index.ts";
import { ChannelPicker } from "@/app/_components/posts/channel-picker.tsx";
import { ItemEditor } from "@/app/_components/posts/item-editor.tsx";
import { VariantCard } from "@/app/_components/posts/variant-card.tsx";
import { postState } from "@/app/_components/posts/post-state.ts";
import { SourceChanged, SourceUpdated } from "@/app/_components/posts/source-changed.tsx";
import { draftFamily, preselect, SOURCE_WORDS, type DraftSource, type FamilySeed } from "@/app/_lib/posts/family-draft.ts";
import styles from "./posts.module.css";

// While posts are written: often enough that a writer's words appear as they come.
const POLL_MS = 600;

/** Make posts: the source text, the channels to write for, one tap to write, and a card per post. */
export function ContentFamilyView({ id, initial = {}, draft }: { id: string; initial?: FamilySeed; draft?: DraftSource }) {
  const router = useRouter();
  const [family, setFamily] = useState<Family | null>(draft ? draftFamily(draft) : (initial.family ?? null));
  const [channels, setChannels] = useState<Channel[] | null>(initial.channels ?? null);
  const [presets, setPresets] = useState<Preset[]>(initial.presets ?? []);
  const seed = useRef(initial);
  const [picked, setPicked] = useState<Record<string, string> | null>(() =>
    initial.family && initial.channels ? preselect(initial.family, initial.channels) : null,
  );
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  // What "Update from the note" did, said where its warning was.
  const [updated, setUpdated] = useState<string | null>(null);
  // One id per "Write posts" tap, reused if the person taps again after a failure (same picks).
  const requestId = useRef<string | null>(null);
  const postsRef = useRef<HTMLElement>(null);

  const load = useCallback(async () => {
    try {
      const f = await getFamily(id);
      setFamily(f);
      setError(null);
      return f;
    } catch (err) {
      setError(err instanceof ApiRequestError && err.status === 404 ? "These posts no longer exist." : (err as Error).message);
      return null;
    }
  }, [id]);

  useEffect(() => {
    const { family: f, channels: c, presets: p } = seed.current;
    // What the server read is this device's saved copy for offline reading, as a fetch would be.
    if (f && !draft) void saveRead(`/api/v1/content/items/${encodeURIComponent(id)}/family`, f);
    if (c) void saveRead("/api/v1/channels", { channels: c });
    if (p) void saveRead("/api/v1/presets", { presets: p });
    if (!f && !draft) void load();
    if (c && p) return;
    Promise.all([listChannels(), listPresets()])
      .then(([c, p]) => {
        setChannels(c);
        setPresets(p);
      })
      .catch((err: Error) => setError(err.message));
  }, [load, id, draft]);

  // Preselect, once, every active channel that has no post yet, with its platform's style.
  useEffect(() => {
    if (picked || !family || !channels) return;
    // Deriving the first selection from two loads is the point of this effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setPicked(preselect(family, channels));
  }, [picked, family, channels]);

  const writing = family?.variants.filter((v) => postState(v, family.deliveries) === "writing").length ?? 0;

  // Generation progress in place: poll while any post is being written.
  useEffect(() => {
    if (!writing) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [writing, load]);

  function changePicks(next: Record<string, string>) {
    requestId.current = null;
    setPicked(next);
  }

  async function write() {
    if (!family || !picked) return;
    const targets = Object.entries(picked).map(([channel_id, preset_id]) => ({ channel_id, preset_id }));
    requestId.current ??= newActionId();
    setStarting(true);
    try {
      if (draft) {
        // The first posts: now the master is made, and the page becomes its page.
        const master = await createMaster(draft.input);
        await createVariants(master.id, { client_request_id: requestId.current, targets });
        requestId.current = null;
        router.replace(`/content/${master.id}`);
        return;
      }
      await createVariants(family.master.id, { client_request_id: requestId.current, targets });
      requestId.current = null;
      setPicked({});
      await load();
      postsRef.current?.scrollIntoView({ behavior: "smooth", block: "start" });
    } catch (err) {
      setError(err instanceof ApiRequestError ? err.message : "Could not start writing. Try again.");
    } finally {
      setStarting(false);
    }
  }

  if (!family) {
    return error ? (
      <Notice tone="danger" icon={<TriangleAlert size={18} aria-hidden="true" />} role="alert">
        {error} <Link href="/content">Back to Posts</Link>
      </Notice>
    ) : (
      <p className={styles.live}>
        <Spinner /> Loading…
      </p>
    );
  }

  const { master } = family;
  const active = (channels ?? []).filter((c) => c.active);
  const count = Object.keys(picked ?? {}).length;
  const presetName = (presetId: string | null) => presets.find((p) => p.id === presetId)?.name ?? "";
  const ready = family.variants.filter((v) => ["review", "changed"].includes(postState(v, family.deliveries))).length;
  return (
    <div className={styles.screen}>
      <h1 className={styles.pageTitle}>Make posts</h1>
      {error && (
        <Notice tone="danger" role="alert">
          {error}
        </Notice>
      )}

      {!draft && master.source_outdated && (
        <SourceChanged
          master={master}
          approved={family.variants.filter((v) => v.approval?.state === "approved").length}
          onUpdated={async (message) => {
            await load();
            setUpdated(message);
          }}
        />
      )}
      {!draft && !master.source_outdated && updated && <SourceUpdated message={updated} />}
      <details className={`card ${styles.source}`} data-testid="source">
        <summary>
          <span className={styles.sourceTop}>
            <span className={styles.eyebrow}>From {master.source_text_kind ? SOURCE_WORDS[master.source_text_kind] : "your text"}</span>
            <span className={styles.sourceToggle}>
              Edit <ChevronDown size={18} aria-hidden="true" />
            </span>
          </span>
          {!master.body.startsWith(master.title.replace(/…$/, "")) && <span className={styles.heading}>{master.title}</span>}
          <span className={styles.excerpt}>{master.body}</span>
        </summary>
        <div className="stack">
          {draft ? (
            <p className="muted">The text can be edited here once posts are written; to change it now, edit the note.</p>
          ) : (
            <ItemEditor key={master.content_hash} item={master} idPrefix="master" onSaved={load} />
          )}
          {master.source_transcription_id && (
            <Link href={`/transcripts/${master.source_transcription_id}`} className={styles.noteLink}>
              Open the note
            </Link>
          )}
        </div>
      </details>

      {family.variants.length > 0 && (
        <section ref={postsRef} aria-labelledby="posts-heading" className="stack">
          <h2 id="posts-heading" className={styles.sectionTitle}>
            Your posts
          </h2>
          <ul className={styles.posts} aria-label="Posts">
            {family.variants.map((variant) => (
              <li key={variant.id}>
                <VariantCard
                  variant={variant}
                  channel={channels?.find((c) => c.id === variant.channel_id)}
                  presetName={presetName(variant.preset_id)}
                  deliveries={family.deliveries}
                  onChanged={load}
                />
              </li>
            ))}
          </ul>
        </section>
      )}
      <Card aria-labelledby="where-heading">
        <h2 id="where-heading" className={styles.sectionTitle}>
          {family.variants.length ? "Write for more channels" : "Where to post"}
        </h2>
        {channels === null || picked === null ? (
          <p className={styles.live}>
            <Spinner /> Loading your channels…
          </p>
        ) : (
          <ChannelPicker
            channels={active.filter((c) => !family.variants.some((v) => v.channel_id === c.id) || picked[c.id])}
            presets={presets}
            picked={picked}
            noChannelsYet={active.length === 0}
            onPick={(c, on) => {
              const next = { ...picked };
              if (on) next[c.id] = c.default_preset_id;
              else delete next[c.id];
              changePicks(next);
            }}
            onPreset={(channelId, presetId) => changePicks({ ...picked, [channelId]: presetId })}
            onAdded={(c) => {
              setChannels([...(channels ?? []), c]);
              changePicks({ ...picked, [c.id]: c.default_preset_id });
            }}
          />
        )}
        {count > 0 ? (
          <Button size="large" block onClick={write} disabled={!count || starting}>
            <Sparkles size={20} aria-hidden="true" />
            {count === 0 ? "Pick a channel" : count === 1 ? "Write the post" : `Write ${count} posts`}
          </Button>
        ) : null}
        <p className={`${styles.live} ${styles.hideEmpty}`} aria-live="polite" data-testid="generation-status">
          {starting || writing ? (
            <>
              <Spinner /> Writing {writing || count} {writing === 1 ? "post" : "posts"}…
            </>
          ) : ready ? (
            `${ready} ${ready === 1 ? "post is" : "posts are"} ready to review.`
          ) : null}
        </p>
      </Card>

    </div>
  );
}
