"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { api } from "@/app/_lib/api.ts";
import type { ContentItem } from "@/app/_lib/content.ts";

export function ContentList() {
  const [items, setItems] = useState<ContentItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<{ items: ContentItem[] }>("/api/v1/content/items?limit=50")
      .then((r) => setItems(r.items))
      .catch((err: Error) => setError(err.message));
  }, []);
  if (error) return <p className="error">{error}</p>;
  if (!items) return <p>Loading…</p>;
  if (!items.length) return <p>Nothing yet. Open a note and choose “Make posts from this note”.</p>;
  return (
    <ul className="plain" aria-label="Posts">
      {items.map((item) => (
        <li key={item.id} className="card">
          <Link href={`/content/${item.id}`}>{item.title || "(untitled)"}</Link>
          <div className="muted">{new Date(item.updated_at).toLocaleString()}</div>
        </li>
      ))}
    </ul>
  );
}
