import Link from "next/link";
import styles from "./page.module.css";

// The home page until the app's screens land (PWA issue): what Voicedraft is and where the API is.
export default function HomePage() {
  return (
    <main className={styles.main}>
      <h1>Voicedraft</h1>
      <p className={styles.lead}>
        Record a voice note; get a clean transcript with your own spellings fixed, and ready-to-post versions for
        each of your channels. You share them yourself — Voicedraft never holds your social-media passwords.
      </p>
      <ul className={styles.links}>
        <li>
          <Link href="/docs">API reference</Link> — transcription and your personal dictionary, for programs.
        </li>
        <li>
          <a href="/api/v1/openapi.json">OpenAPI document</a> (OpenAPI 3.1, JSON).
        </li>
        <li>
          <Link href="/api/health" prefetch={false}>Service health</Link>.
        </li>
      </ul>
    </main>
  );
}
