import Link from "next/link";
import type { ReactNode } from "react";
import styles from "./docs.module.css";

/** A docs page's frame: skip link, the header (brand, title, a line under it), the contents beside the text. */
export function DocsFrame({ title, meta, contents, children, footer }: { title: string; meta: ReactNode; contents: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className={styles.page}>
      <a href="#content" className={styles.skip}>
        Skip to content
      </a>
      <header className={styles.header}>
        <p className={styles.brand}>
          <Link href="/">Voicedraft</Link>
        </p>
        <h1>{title}</h1>
        <p className={styles.meta}>{meta}</p>
      </header>
      <div className={styles.layout}>
        <nav className={styles.toc} aria-label="Contents">
          <h2 className={styles.tocTitle}>Contents</h2>
          <ul>{contents}</ul>
        </nav>
        <main id="content" className={styles.main} tabIndex={-1}>
          {children}
        </main>
      </div>
      {footer}
    </div>
  );
}
