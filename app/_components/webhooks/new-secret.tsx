"use client";

import { Check, Copy, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { Button, Notice } from "@/app/_ui/index.ts";
import styles from "./webhooks.module.css";

// A signing secret, the one time it is shown (after adding an endpoint or rotating its secret).

export function NewSecret({ secret, rotated, onDone }: { secret: string; rotated: boolean; onDone: () => void }) {
  const [copied, setCopied] = useState<boolean | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false); // no clipboard (an insecure origin, or refused): the text is selectable
    }
  }

  return (
    <div className="stack" data-testid="new-secret">
      <Notice tone="warning" icon={<TriangleAlert size={18} aria-hidden="true" />} role="status">
        <strong>Copy this secret now: it is shown only once.</strong> Your receiver needs it to check that events come from Voicedraft.
        {rotated && " The previous secret keeps working for 24 hours, so switch your receiver over within a day."}
      </Notice>
      <p className={styles.secret} data-testid="secret-value">
        {secret}
      </p>
      <Button variant="secondary" block onClick={() => void copy()}>
        {copied ? <Check size={18} aria-hidden="true" /> : <Copy size={18} aria-hidden="true" />} {copied ? "Copied" : "Copy secret"}
      </Button>
      {copied === false && <p className="muted">Copying is not allowed here: select the secret above and copy it.</p>}
      <Button size="large" block onClick={onDone}>
        I have copied it
      </Button>
    </div>
  );
}
