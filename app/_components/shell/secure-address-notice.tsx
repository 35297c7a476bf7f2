"use client";

import { ShieldAlert } from "lucide-react";
import { SECURE_ADDRESS_HELP, useSecureContext } from "@/app/_lib/secure-context.ts";
import styles from "./shell.module.css";

/** One line on every page served over plain http to another computer: why recording will not work, and where the steps are. */
export function SecureAddressNotice() {
  if (useSecureContext()) return null;
  return (
    <p className={styles.insecure} role="note" data-testid="secure-address-notice">
      <ShieldAlert size={16} aria-hidden="true" />
      <span>
        Recording, offline use and installing need a secure (https) address. <a href={SECURE_ADDRESS_HELP}>How to set one up</a>
      </span>
    </p>
  );
}
