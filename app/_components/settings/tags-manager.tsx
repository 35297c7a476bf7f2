"use client";

import { Pencil, Tag as TagIcon, Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useLoaded } from "@/app/_lib/use-loaded.ts";
import { ApiRequestError, deleteTag, listTags, renameTag, type Tag } from "@/app/_lib/api.ts";
import { Button, EmptyState, Field, IconButton, Notice, Sheet, useToast } from "@/app/_ui/index.ts";
import styles from "./dictionary.module.css";

// Settings → Tags: every tag with its count of notes, most used first. Rename in a sheet (into a
// tag you already have, the two merge: said in the sheet before you save); Delete takes the tag off
// every note after a few seconds, with Undo meanwhile, as deleting a note does.

// As long as the toast with its Undo is shown.
const UNDO_MS = 8000;
const TAG_MAX = 40;
const key = (name: string) => name.normalize("NFKC").toLowerCase();

export function TagsManager() {
  const [renaming, setRenaming] = useState<Tag | null>(null);
  const [newName, setNewName] = useState("");
  const [deleting, setDeleting] = useState<Set<string>>(new Set());
  const { data: tags, setData: setTags, error, reload: load } = useLoaded(listTags);
  const toast = useToast();


  const target = newName.replace(/\s+/g, " ").trim().replace(/^#+\s*/, "");
  const mergesInto = renaming && target ? tags?.find((t) => t.name !== renaming.name && key(t.name) === key(target)) : undefined;

  async function rename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!renaming || !target) return;
    const from = renaming.name;
    try {
      const { tag, merged } = await renameTag(from, target);
      setRenaming(null);
      await load();
      if (merged) toast(`Merged “${from}” into “${tag.name}”: ${tag.notes === 1 ? "1 note" : `${tag.notes} notes`}.`);
      else
        toast(`Renamed “${from}” to “${tag.name}”.`, {
          label: "Undo",
          onClick: () =>
            void renameTag(tag.name, from).then(
              () => load(),
              (err: Error) => toast(`Not undone: ${err.message}`),
            ),
        });
    } catch (err) {
      toast(err instanceof ApiRequestError && err.status === 0 ? "Renaming needs a connection." : `Not renamed: ${(err as Error).message}`);
    }
  }

  function remove(tag: Tag) {
    setDeleting((all) => new Set(all).add(tag.name));
    const restore = () =>
      setDeleting((all) => {
        const rest = new Set(all);
        rest.delete(tag.name);
        return rest;
      });
    // Sent when the Undo time is over, also if the page is left meanwhile.
    const timer = setTimeout(() => {
      deleteTag(tag.name).then(
        () => setTags((all) => all?.filter((t) => t.name !== tag.name) ?? null),
        (err: Error) => toast(`“${tag.name}” not deleted: ${err.message}`),
      ).finally(restore);
    }, UNDO_MS);
    toast(`Deleted the tag “${tag.name}” from ${tag.notes === 1 ? "1 note" : `${tag.notes} notes`}.`, {
      label: "Undo",
      onClick: () => {
        clearTimeout(timer);
        restore();
      },
    });
  }

  const shown = (tags ?? []).filter((t) => !deleting.has(t.name));
  return (
    <div className="stack">
      {error && <Notice tone="danger">{error}</Notice>}
      {tags === null ? (
        !error && <p className="muted">Loading…</p>
      ) : shown.length === 0 ? (
        <EmptyState icon={<TagIcon size={24} />} title="No tags yet">
          Open a note and tap “Add tag” under its title. Your tags show up here to rename or delete.
        </EmptyState>
      ) : (
        <ul className={styles.entries} aria-label="Tags">
          {shown.map((tag) => (
            <li key={tag.name} className={styles.entry} data-testid="tag-entry">
              <span className={styles.pair}>
                <span className={styles.written} data-testid="tag-name">#{tag.name}</span>
              </span>
              <span className={styles.when}>{tag.notes === 1 ? "1 note" : `${tag.notes} notes`}</span>
              <span className={styles.buttons}>
                <IconButton
                  label={`Rename ${tag.name}`}
                  icon={<Pencil size={18} aria-hidden="true" />}
                  onClick={() => {
                    setNewName(tag.name);
                    setRenaming(tag);
                  }}
                />
                <IconButton label={`Delete ${tag.name}`} icon={<Trash2 size={18} aria-hidden="true" />} onClick={() => remove(tag)} />
              </span>
            </li>
          ))}
        </ul>
      )}
      <Sheet open={renaming !== null} onClose={() => setRenaming(null)} title={renaming ? `Rename “${renaming.name}”` : "Rename"}>
        <form className="stack" onSubmit={rename}>
          <Field
            id="tag-name"
            label="New name"
            required
            maxLength={TAG_MAX + 2}
            value={newName}
            onChange={(e) => setNewName(e.target.value.replace(/[,"/\\]/g, ""))}
            autoComplete="off"
            hint={mergesInto ? `You already have “${mergesInto.name}”: the two become one tag, and its notes keep it.` : undefined}
          />
          <Button type="submit" size="large" block disabled={!target || target === renaming?.name}>
            {mergesInto ? `Merge into “${mergesInto.name}”` : "Rename"}
          </Button>
        </form>
      </Sheet>
    </div>
  );
}
