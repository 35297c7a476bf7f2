"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { api } from "@/lib/web/api.ts";
import type { ContentItem } from "@/lib/web/content.ts";

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
  if (!items.length) return <p>Nothing yet. Open a transcript and choose “Create content”.</p>;
  return (
    <ul className="plain" aria-label="Content">
      {items.map((item) => (
        <li key={item.id} className="card">
          <Link href={`/content/${item.id}`}>{item.title || "(untitled)"}</Link>
          <div className="muted">{new Date(item.updated_at).toLocaleString()}</div>
        </li>
      ))}
    </ul>
  );
}
