import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/current-user.ts";
import styles from "./page.module.css";

// Signed-in people go straight to recording; everyone else learns what Voicedraft is.
export default async function HomePage() {
  if (await currentUser()) redirect("/record");
  return (
    <main className={`vd ${styles.main}`}>
      <h1>Voicedraft</h1>
      <p className={styles.lead}>
        Record a voice note; get a clean transcript with your own spellings fixed, and ready-to-post versions for
        each of your channels. You share them yourself — Voicedraft never holds your social-media passwords.
      </p>
      <p className="row">
        <Link className="button" href="/sign-up">
          Create an account
        </Link>
        <Link className="button secondary" href="/sign-in">
          Sign in
        </Link>
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
