import { SCOPE_WORDS, type Scope } from "@/lib/api-keys/scopes.ts";
import styles from "./api-keys.module.css";

// What a key may do, in the words Connected apps uses, each scope's name small beside it (what
// an API error names when a key lacks one).

export function KeyScopes({ name, scopes }: { name: string; scopes: string[] }) {
  return (
    <ul className={styles.scopes} aria-label={`What ${name} may do`}>
      {scopes.map((scope) => (
        <li key={scope}>
          {SCOPE_WORDS[scope as Scope] ?? scope} <code className={styles.code}>{scope}</code>
        </li>
      ))}
    </ul>
  );
}
