import Link from "next/link";
import { redirect } from "next/navigation";
import { BookA, Mic, Send, Sparkles } from "lucide-react";
import { Brand } from "@/app/_components/shell/brand.tsx";
import { ButtonLink } from "@/app/_ui/index.ts";
import { currentUser } from "@/lib/auth/current-user.ts";
import styles from "./page.module.css";

const FEATURES = [
  { icon: Mic, title: "Talk, don't type", text: "One big button. Record on your phone, even offline: the note uploads by itself when you are back." },
  { icon: Sparkles, title: "Clean text, by itself", text: "Punctuation, paragraphs, no ums. The text opens as soon as it is ready." },
  { icon: BookA, title: "Your words, spelled right", text: "Tap a word the app got wrong, say how you write it, and it is fixed now and next time." },
  { icon: Send, title: "Ready to post", text: "Versions for LinkedIn, X, your newsletter. You approve and share; we never hold your passwords." },
];

// Signed-in people go straight to recording; everyone else learns what Voicedraft is.
export default async function HomePage() {
  if (await currentUser()) redirect("/record");
  return (
    <div className={`vd ${styles.page}`}>
      <header className={styles.header}>
        <Brand href="/" />
        <Link className={styles.signIn} href="/sign-in">
          Sign in
        </Link>
      </header>
      <main className={styles.main}>
        <section className={styles.hero}>
          <h1 className={styles.title}>Speak your thoughts. Get text you can post.</h1>
          <p className={styles.lead}>
            Voicedraft turns voice notes into clean, correctly spelled text — and into ready-to-post versions for each of your channels.
          </p>
          <div className={styles.actions}>
            <ButtonLink href="/sign-up" size="large" block>
              Create a free account
            </ButtonLink>
            <ButtonLink href="/sign-in" variant="secondary" size="large" block>
              Sign in
            </ButtonLink>
          </div>
        </section>
        <ul className={styles.features}>
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <li key={title} className={styles.feature}>
              <span className={styles.featureIcon} aria-hidden="true">
                <Icon size={22} />
              </span>
              <div>
                <h2 className={styles.featureTitle}>{title}</h2>
                <p className={styles.featureText}>{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </main>
      <footer className={styles.footer}>
        <span>For developers:</span>
        <Link href="/docs">API reference</Link>
        <a href="/api/v1/openapi.json">OpenAPI document</a>
      </footer>
    </div>
  );
}
