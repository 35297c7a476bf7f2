import type { ReactNode } from "react";
import { AppNav } from "@/app/_components/shell/app-nav.tsx";
import { Brand } from "@/app/_components/shell/brand.tsx";
import styles from "@/app/_components/shell/shell.module.css";

/** The signed-in app's frame: top bar, tab bar (side bar on desktops) and the page. */
export function AppFrame({ children, after }: { children: ReactNode; after?: ReactNode }) {
  return (
    <div className={`vd ${styles.frame}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className={styles.topbar}>
        <Brand href="/record" prefetch={false} />
      </header>
      <AppNav />
      <main id="main" className={styles.main}>
        {children}
      </main>
      {after}
    </div>
  );
}
