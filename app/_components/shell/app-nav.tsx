"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { FileText, Mic, Send, Settings } from "lucide-react";
import styles from "./shell.module.css";

// One navigation, two layouts: a bottom tab bar on phones, a side bar from 900 px (shell.module.css).
// No prefetch: every signed-in page is rendered per request and has no loading.js, so Next would
// prefetch nothing a navigation can use (a dynamic route only down to its nearest loading
// boundary), at the cost of requests and main-thread work for every link on every page load.
const TABS = [
  { href: "/record", label: "Record", icon: Mic, match: ["/record"] },
  { href: "/transcripts", label: "Notes", icon: FileText, match: ["/transcripts", "/rewrites", "/ask"] },
  { href: "/content", label: "Posts", icon: Send, match: ["/content"] },
  { href: "/settings", label: "Settings", icon: Settings, match: ["/settings", "/dictionary", "/tags", "/channels", "/keys", "/connected-apps", "/rewrite-styles", "/webhooks"] },
];

export function AppNav() {
  const pathname = usePathname();
  return (
    <nav className={styles.nav} aria-label="Main">
      <ul className={styles.navList}>
        {TABS.map(({ href, label, icon: Icon, match }) => {
          const current = match.some((m) => pathname === m || pathname.startsWith(`${m}/`));
          return (
            <li key={href} className={href === "/record" ? styles.recordItem : undefined}>
              <Link href={href} className={styles.navLink} aria-current={current ? "page" : undefined} prefetch={false}>
                <span className={styles.navIcon}>
                  <Icon size={22} aria-hidden="true" />
                </span>
                <span className={styles.navLabel}>{label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
