"use client";

import { toString as qrSvg } from "qrcode";
import { useEffect, useState } from "react";
import styles from "./ui.module.css";

/**
 * A QR code of `value`, drawn as SVG by the `qrcode` package. Dark on white in both themes: phone
 * cameras read an inverted code less reliably.
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void qrSvg(value, { type: "svg", margin: 2, errorCorrectionLevel: "M", color: { dark: "#000000", light: "#ffffff" } }).then((drawn) => {
      if (current) setSvg(drawn);
    });
    return () => {
      current = false;
    };
  }, [value]);
  // The SVG is the package's own drawing of the value, not text from anyone.
  return <div className={styles.qr} role="img" aria-label={label} data-testid="qr-code" data-value={value} dangerouslySetInnerHTML={svg ? { __html: svg } : undefined} />;
}
