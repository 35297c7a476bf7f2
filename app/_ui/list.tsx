import Link from "next/link";
import { ChevronRight } from "lucide-react";
import type { ReactNode } from "react";
import styles from "./ui.module.css";

/** A list whose rows are whole links, each at least a thumb high. */
export function RowList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ul className={styles.list} aria-label={label}>
      {children}
    </ul>
  );
}

/** Not prefetched: its pages are rendered per request (see app/_components/shell/app-nav.tsx). */
export function RowLink({ href, title, meta, excerpt, icon, testId }: { href: string; title: ReactNode; meta?: ReactNode; excerpt?: ReactNode; icon?: ReactNode; testId?: string }) {
  return (
    <li data-testid={testId}>
      <Link className={styles.rowLink} href={href} prefetch={false}>
        {icon}
        <span className={styles.rowMain}>
          <span className={styles.rowTitle}>{title}</span>
          {meta && <span className={styles.rowMeta}>{meta}</span>}
          {excerpt && <span className={styles.rowExcerpt}>{excerpt}</span>}
        </span>
        <ChevronRight className={styles.chevron} size={20} aria-hidden="true" />
      </Link>
    </li>
  );
}
