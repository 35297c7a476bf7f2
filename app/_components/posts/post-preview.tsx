"use client";

import { useId } from "react";
import { platformRules, postLength } from "@/lib/channels/platforms.ts";
import type { Channel } from "@/app/_lib/posts/content.ts";
import styles from "./posts.module.css";

// A plain preview laid out the way the platform shows a post (no logos), and the editor with a
// live character counter against the platform's limit — per post for a thread — counted as the
// platform counts (X: a link 23, an emoji 2; Bluesky: what reads as one character), the counter
// the writers and the validator use (lib/channels/platforms.ts).

type Platform = Channel["platform"];
const ARTICLE: ReadonlySet<Platform> = new Set(["newsletter", "blog"]);
const SQUARE: ReadonlySet<Platform> = new Set(["linkedin", "facebook"]);

export const limitOf = (platform: Platform | undefined) => (platform ? platformRules(platform).limit : null);
export const hasTitle = (platform: Platform | undefined) => !!platform && ARTICLE.has(platform);

// One number format on the server and in every browser (a page rendered on the server must match):
// en-US's grouping, written by hand, since a page's first Intl call loads the locale data and would
// lengthen hydration.
const n = (value: number) => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

export function Counter({ text, platform, label }: { text: string; platform: Platform | undefined; label?: string }) {
  const limit = limitOf(platform);
  const used = platform ? postLength(platform, text) : Array.from(text).length;
  const over = limit !== null && used > limit;
  return (
    <p className={`${styles.count} ${over ? styles.over : ""}`} data-testid="counter">
      {label && `${label} · `}
      {limit === null ? `${n(used)} characters` : `${n(used)} / ${n(limit)}`}
      {over && ` — ${n(used - limit)} too long`}
    </p>
  );
}

export function PostPreview({
  platform,
  name,
  title,
  posts,
  onCopyPost,
}: {
  platform: Platform | undefined;
  name: string;
  title: string;
  posts: string[];
  /** A thread's posts can each be copied alone (1-based). */
  onCopyPost?: (post: number) => void;
}) {
  if (platform && ARTICLE.has(platform)) {
    const body = posts.join("\n\n");
    // The text opens with its title line (what is posted); the heading shows it once (issue 69).
    const lines = body.split("\n");
    const shown = title && lines[0].trim() === title.trim() ? lines.slice(1).join("\n").trim() : body;
    return (
      <div className={styles.article} data-testid="preview">
        {title && <h3 className={styles.postTitle}>{title}</h3>}
        <p className={`${styles.postText} ${styles.clamp}`}>{shown}</p>
        <Counter text={body} platform={platform} />
      </div>
    );
  }
  const initial = (name.trim()[0] ?? "?").toUpperCase();
  const thread = posts.length > 1;
  return (
    <div className={`${styles.preview} ${thread ? styles.thread : ""} ${platform && SQUARE.has(platform) ? styles.square : ""}`} data-testid="preview">
      {posts.map((post, i) => (
        <div key={i} className={styles.post}>
          <span className={styles.avatar} aria-hidden="true">
            {initial}
          </span>
          <div className={styles.postMain}>
            <span className={styles.postWho}>
              {name} <span>· now</span>
            </span>
            <p className={styles.postText}>{post}</p>
            <div className={styles.postFoot}>
              <Counter text={post} platform={platform} label={thread ? `Post ${i + 1} of ${posts.length}` : undefined} />
              {thread && onCopyPost && (
                <button type="button" className={styles.copyPost} onClick={() => onCopyPost(i + 1)} aria-label={`Copy post ${i + 1} of ${posts.length}`}>
                  Copy
                </button>
              )}
            </div>
          </div>
        </div>
      ))}
    </div>
  );
}

/** One text box per post (a thread's posts are edited one by one), each with its counter. */
export function PostEditor({
  platform,
  title,
  posts,
  onChange,
}: {
  platform: Platform | undefined;
  title: string | null;
  posts: string[];
  onChange: (next: { title: string | null; posts: string[] }) => void;
}) {
  const id = useId();
  return (
    <div className="stack">
      {title !== null && (
        <div className={styles.editBox}>
          <label htmlFor={`${id}-title`}>Title</label>
          <input id={`${id}-title`} type="text" value={title} onChange={(e) => onChange({ title: e.target.value, posts })} />
        </div>
      )}
      {posts.map((post, i) => (
        <div key={i} className={styles.editBox}>
          <div className={styles.editHead}>
            <label htmlFor={`${id}-${i}`}>{posts.length > 1 ? `Post ${i + 1} of ${posts.length}` : "Text"}</label>
            <Counter text={post} platform={platform} />
          </div>
          <textarea
            id={`${id}-${i}`}
            className={styles.editText}
            value={post}
            onChange={(e) => onChange({ title, posts: posts.map((p, j) => (j === i ? e.target.value : p)) })}
          />
        </div>
      ))}
    </div>
  );
}
