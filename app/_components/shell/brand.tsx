import Link from "next/link";
import { AudioLines } from "lucide-react";
import styles from "./shell.module.css";

/** `prefetch`: false in the signed-in app (see app-nav.tsx). */
export function Brand({ href, prefetch }: { href: string; prefetch?: boolean }) {
  return (
    <Link className={styles.brand} href={href} prefetch={prefetch}>
      <span className={styles.logo} aria-hidden="true">
        <AudioLines size={18} />
      </span>
      Voicedraft
    </Link>
  );
}
