"use client";

import { useState, type FormEvent } from "react";
import { Plus, Trash2 } from "lucide-react";
import { ApiRequestError } from "@/app/_lib/api.ts";
import { createPreset, deletePreset, updatePreset, type Preset } from "@/app/_lib/posts/content.ts";
import { Button, Field, Notice, Sheet, useToast } from "@/app/_ui/index.ts";
import { ConfirmDelete, ManagedRow } from "@/app/_components/settings/managed-list.tsx";
import styles from "../posts/posts.module.css";

const LENGTH = { short: "Short", medium: "Medium", full: "Full length" } as const;
const TONE = { neutral: "Neutral", casual: "Casual", professional: "Professional", enthusiastic: "Enthusiastic" } as const;

export function describePreset(p: Preset): string {
  return [
    LENGTH[p.length],
    p.format === "thread" ? "a thread when long" : "one post",
    p.include_title && "with title",
    p.tone !== "neutral" && TONE[p.tone].toLowerCase(),
    p.hashtags.length > 0 && p.hashtags.map((h) => `#${h}`).join(" "),
  ]
    .filter(Boolean)
    .join(" · ");
}

/** The styles posts are written in: built-ins are read-only, yours can be edited and deleted. */
export function PresetsManager({ presets, onChanged }: { presets: Preset[]; onChanged: () => Promise<unknown> }) {
  const [editing, setEditing] = useState<Preset | "new" | null>(null);
  return (
    <section aria-labelledby="presets-heading" className="stack">
      <h2 id="presets-heading" className={styles.sectionTitle}>
        Styles
      </h2>
      <ul className={styles.posts} aria-label="Styles">
        {presets.map((p) => (
          <ManagedRow
            key={p.id}
            testId="preset"
            name={p.name}
            detail={describePreset(p)}
            badge={p.built_in ? "Built in" : undefined}
            onEdit={p.built_in ? undefined : () => setEditing(p)}
          />
        ))}
      </ul>
      <Button variant="secondary" onClick={() => setEditing("new")}>
        <Plus size={18} aria-hidden="true" /> New style
      </Button>
      <Sheet open={editing !== null} onClose={() => setEditing(null)} title={editing === "new" ? "New style" : "Edit style"}>
        {editing && (
          <PresetEditor
            key={editing === "new" ? "new" : editing.id}
            preset={editing === "new" ? null : editing}
            onDone={() => {
              setEditing(null);
              void onChanged();
            }}
          />
        )}
      </Sheet>
    </section>
  );
}

function PresetEditor({ preset, onDone }: { preset: Preset | null; onDone: () => void }) {
  const toast = useToast();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [inUse, setInUse] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = {
      name: String(form.get("name") ?? ""),
      tone: String(form.get("tone")) as Preset["tone"],
      length: String(form.get("length")) as Preset["length"],
      format: String(form.get("format")) as Preset["format"],
      include_title: form.get("include_title") === "on",
      invite_replies: form.get("invite_replies") === "on",
      hashtags: String(form.get("hashtags") ?? "")
        .split(/[\s,]+/)
        .filter(Boolean),
    };
    try {
      if (preset) await updatePreset(preset.id, input);
      else await createPreset(input);
      toast(preset ? "Style saved." : `Style “${input.name}” added.`);
      onDone();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function remove() {
    if (!preset) return;
    try {
      await deletePreset(preset.id);
      toast(`“${preset.name}” deleted.`);
      onDone();
    } catch (err) {
      if (err instanceof ApiRequestError && err.code === "preset_in_use") setInUse(true);
      else setError((err as Error).message);
    }
  }

  if (preset && confirmDelete)
    return (
      <ConfirmDelete
        name={preset.name}
        kind="style"
        explanation="Posts already written in a style keep it, so a style with posts cannot be deleted. A style without posts is removed for good."
        inUse={inUse ? "Posts were written in this style, so it stays: they keep their text and history." : null}
        error={error}
        onDelete={remove}
        onKeep={() => setConfirmDelete(false)}
      />
    );

  return (
    <form className="stack" onSubmit={save} aria-label={preset ? `Edit ${preset.name}` : "New style"}>
      <Field id="preset-name" name="name" label="Name" defaultValue={preset?.name} required maxLength={100} />
      <Select id="preset-length" name="length" label="Length" value={preset?.length ?? "full"} options={LENGTH} />
      <Select id="preset-format" name="format" label="Format" value={preset?.format ?? "single"} options={{ single: "One post", thread: "A thread when long" }} />
      <Select id="preset-tone" name="tone" label="Tone (AI writer only)" value={preset?.tone ?? "neutral"} options={TONE} />
      <Field id="preset-hashtags" name="hashtags" label="Hashtags" hint="Separated by spaces, up to 10" defaultValue={preset?.hashtags.join(" ")} autoComplete="off" />
      <label className="check">
        <input type="checkbox" name="include_title" defaultChecked={preset?.include_title ?? false} /> Start with the title
      </label>
      <label className="check">
        <input type="checkbox" name="invite_replies" defaultChecked={preset?.invite_replies ?? true} /> End LinkedIn and Facebook posts with a question that invites replies
      </label>
      {error && <Notice tone="danger">{error}</Notice>}
      <Button type="submit" size="large" block>
        {preset ? "Save" : "Add style"}
      </Button>
      {preset && (
        <Button variant="danger" block onClick={() => setConfirmDelete(true)}>
          <Trash2 size={18} aria-hidden="true" /> Delete…
        </Button>
      )}
    </form>
  );
}

function Select({ id, name, label, value, options }: { id: string; name: string; label: string; value: string; options: Record<string, string> }) {
  return (
    <div className={styles.fieldCol}>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value}>
        {Object.entries(options).map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
