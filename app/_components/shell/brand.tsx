import Link from "next/link";
import { AudioLines } from "lucide-react";
import styles from "./shell.module.css";

export function Brand({ href }: { href: string }) {
  return (
    <Link className={styles.brand} href={href}>
      <span className={styles.logo} aria-hidden="true">
        <AudioLines size={18} />
      </span>
      Voicedraft
    </Link>
  );
}
