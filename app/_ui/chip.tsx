import Link from "next/link";
import type { ButtonHTMLAttributes, ReactNode } from "react";
import styles from "./ui.module.css";

// Tags as chips: a chip is a button (pressed for a filter that is on, with `pressed`), a link (a
// filter that is a URL), or a plain label inside a row that is itself the link (`TagLabel`).

// `compact`: the icon alone, a round 44 px chip (give it an aria-label).
type ChipProps = { children: ReactNode; icon?: ReactNode; pressed?: boolean; add?: boolean; compact?: boolean } & ButtonHTMLAttributes<HTMLButtonElement>;

export function Chip({ children, icon, pressed, add, compact, className, type = "button", ...props }: ChipProps) {
  return (
    <button
      type={type}
      className={`${styles.chip} ${add ? styles.chipAdd : ""} ${compact ? styles.chipCompact : ""} ${className ?? ""}`}
      aria-pressed={pressed}
      {...props}
    >
      {/* "+ Add tag" reads as an action; "#work ×" as a tag that can go. */}
      {add && icon}
      {!compact && <span className={styles.chipLabel}>{children}</span>}
      {!add && icon}
    </button>
  );
}

/** Not prefetched: its pages are rendered per request (see app/_components/shell/app-nav.tsx). */
export function ChipLink({ href, current, children, ...props }: { href: string; current?: boolean; children: ReactNode; "data-testid"?: string }) {
  return (
    <Link href={href} className={styles.chip} aria-current={current ? "true" : undefined} replace scroll={false} prefetch={false} {...props}>
      <span className={styles.chipLabel}>{children}</span>
    </Link>
  );
}

/** The chips of a list, wrapping (`scroll`: one row that scrolls sideways). */
export function ChipList({ label, scroll, children }: { label: string; scroll?: boolean; children: ReactNode }) {
  return (
    <div role="group" aria-label={label} className={scroll ? styles.chipRow : styles.chips}>
      {children}
    </div>
  );
}

export function TagLabel({ children }: { children: ReactNode }) {
  return <span className={styles.tag}>#{children}</span>;
}
