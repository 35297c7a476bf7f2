import type { HTMLAttributes, ReactNode } from "react";
import styles from "./ui.module.css";

export function Card({ className, stack = true, ...props }: HTMLAttributes<HTMLElement> & { stack?: boolean; as?: never }) {
  return <section className={[styles.card, stack && styles.cardStack, className].filter(Boolean).join(" ")} {...props} />;
}

export function Badge({ tone = "neutral", children, ...props }: { tone?: "neutral" | "info" | "success" | "warning" | "danger"; children: ReactNode } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span className={`${styles.badge} ${tone === "neutral" ? "" : styles[`badge_${tone}`]}`} {...props}>
      {children}
    </span>
  );
}

export function Notice({ tone = "neutral", icon, children, ...props }: { tone?: "neutral" | "info" | "success" | "warning" | "danger"; icon?: ReactNode; children: ReactNode } & HTMLAttributes<HTMLDivElement>) {
  return (
    <div className={`${styles.notice} ${tone === "neutral" ? "" : styles[`notice_${tone}`]}`} {...props}>
      {icon}
      <div>{children}</div>
    </div>
  );
}

export function EmptyState({ icon, title, children, action }: { icon: ReactNode; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className={styles.empty}>
      <span className={styles.emptyIcon} aria-hidden="true">
        {icon}
      </span>
      <p className={styles.emptyTitle}>{title}</p>
      {children && <p className={styles.emptyText}>{children}</p>}
      {action}
    </div>
  );
}

export function PageHeader({ title, action }: { title: ReactNode; action?: ReactNode }) {
  return (
    <div className={styles.pageHeader}>
      <h1>{title}</h1>
      {action}
    </div>
  );
}
