"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { Button, Card } from "@/app/_ui/index.ts";
import styles from "./connected-apps.module.css";

/** The MCP server's address, to paste into an assistant's "add a connector", with Copy. */
export function McpAddress({ address }: { address: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(address);
      setCopied(true);
    } catch {
      setCopied(false); // no clipboard (an insecure origin, or refused): the text is selectable
    }
  }

  return (
    <Card aria-labelledby="mcp-address-heading">
      <h2 id="mcp-address-heading" className={styles.cardHeading}>
        Connect an assistant
      </h2>
      <p className={styles.small}>Add a custom connector in your assistant with this address; it asks you here to allow it.</p>
      <p className={styles.address} data-testid="mcp-address">
        {address}
      </p>
      <Button variant="secondary" block onClick={() => void copy()}>
        {copied ? <Check size={18} aria-hidden="true" /> : <Copy size={18} aria-hidden="true" />} {copied ? "Copied" : "Copy address"}
      </Button>
      {copied === false && <p className={`muted ${styles.small}`}>Copying is not allowed here: select the address above and copy it.</p>}
    </Card>
  );
}
