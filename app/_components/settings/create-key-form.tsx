"use client";

import { useState, useTransition, type FormEvent } from "react";
import type { CreateKeyResult } from "@/lib/api-keys/schemas.ts";
import { SCOPE_WORDS, type Scope } from "@/lib/api-keys/scopes.ts";
import styles from "./api-keys.module.css";

/** `create`: the page's server action (an action comes in as a prop: components never import route folders). */
export function CreateKeyForm({ scopes, create }: { scopes: Scope[]; create: (input: { name: string; scopes: Scope[] }) => Promise<CreateKeyResult> }) {
  const [result, setResult] = useState<CreateKeyResult | null>(null);
  const [pending, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const chosen = form.getAll("scopes").map(String) as Scope[];
    startTransition(async () => setResult(await create({ name: String(form.get("name") ?? ""), scopes: chosen })));
  }

  return (
    <section aria-labelledby="create-key-heading" className="card">
      <h2 id="create-key-heading">Create a key</h2>
      <form className="stack" onSubmit={onSubmit}>
        <label htmlFor="key-name">Name</label>
        <input id="key-name" name="name" type="text" required maxLength={100} placeholder="e.g. laptop script" />
        <fieldset>
          <legend>What it may do</legend>
          {/* The whole row is the checkbox's target (44 px high): the words, and the scope's name for programs under them. */}
          {scopes.map((scope) => (
            <label key={scope} className={`check ${styles.scope}`} data-testid="key-scope">
              <input type="checkbox" name="scopes" value={scope} defaultChecked />
              <span className={styles.words}>
                <span>{SCOPE_WORDS[scope]}</span>
                <code className={styles.code}>{scope}</code>
              </span>
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={pending}>
          Create key
        </button>
      </form>
      <div aria-live="polite">
        {result?.ok === false && <p className="error">{result.message}</p>}
        {result?.ok && (
          <div className="stack">
            <p className="ok">
              The key “{result.name}” was created. Copy it now: it is shown only this once.
            </p>
            <p className="secret" data-testid="new-key">
              {result.key}
            </p>
            <button type="button" className="secondary" onClick={() => navigator.clipboard?.writeText(result.key)}>
              Copy key
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
