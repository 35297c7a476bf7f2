import type { ReactNode } from "react";
import { Brand } from "@/app/_components/shell/brand.tsx";
import styles from "./auth-page.module.css";

/** The frame of the sign-in and sign-up pages. */
export function AuthPage({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  return (
    <div className={`vd ${styles.page}`}>
      <header className={styles.header}>
        <Brand href="/" />
      </header>
      <main className={styles.main}>
        <h1>{title}</h1>
        <p className="muted">{lead}</p>
        <div className={styles.card}>{children}</div>
      </main>
    </div>
  );
}
