import type { Metadata } from "next";
import { BookA, KeyRound, Megaphone, PlugZap, Tags, UserRound, Wand2, Webhook } from "lucide-react";
import { LanguageSetting } from "@/app/_components/settings/language-setting.tsx";
import { PhoneStorage } from "@/app/_components/settings/this-phone/phone-storage.tsx";
import { InstallApp } from "@/app/_components/settings/this-phone/install-app.tsx";
import { InviteSomeone } from "@/app/_components/settings/access/invite-someone.tsx";
import { Devices } from "@/app/_components/settings/access/signed-in-devices.tsx";
import { SignOutButton } from "@/app/_components/settings/sign-out-button.tsx";
import { WritingSetting } from "./writing-setting.tsx";
import { YourData } from "@/app/_components/settings/your-data.tsx";
import { Card, EmailAddress, RowLink, RowList } from "@/app/_ui/index.ts";
import { requireUser } from "@/lib/auth/current-user.ts";
import { env } from "@/lib/env.ts";
import { describeRecognizerQuality, recognizerQuality } from "@/lib/transcription/recognizers/recognizer-quality.ts";
import styles from "./settings.module.css";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const user = await requireUser();
  return (
    <>
      <h1>Settings</h1>
      <RowList label="Settings">
        <RowLink href="/dictionary" icon={<BookA size={22} aria-hidden="true" />} title="Dictionary" meta="Words to always spell your way" />
        <RowLink href="/tags" icon={<Tags size={22} aria-hidden="true" />} title="Tags" meta="Rename or delete your tags on notes" />
        <RowLink href="/rewrite-styles" icon={<Wand2 size={22} aria-hidden="true" />} title="Rewrite styles" meta="Your own ways to rewrite a note" />
        <RowLink href="/channels" icon={<Megaphone size={22} aria-hidden="true" />} title="Channels" meta="Where you post, and in which style" />
        <RowLink href="/connected-apps" icon={<PlugZap size={22} aria-hidden="true" />} title="Connected apps" meta="Assistants you allowed to read your notes" />
        <RowLink href="/keys" icon={<KeyRound size={22} aria-hidden="true" />} title="API keys" meta="For your own programs and scripts" />
        <RowLink href="/webhooks" icon={<Webhook size={22} aria-hidden="true" />} title="Webhooks" meta="Tell your tools when a note or post is ready" />
      </RowList>
      <Devices />
      <h2 id="transcription">Transcription</h2>
      {/* Two cards under one heading: spaced as every stack of cards (issue 69: they touched). */}
      <div className="stack" data-testid="transcription-settings">
        <Card>
          <p>
            Transcription quality: <strong>{describeRecognizerQuality(recognizerQuality())}</strong>
          </p>
        </Card>
        <LanguageSetting />
      </div>
      <h2>Writing</h2>
      <WritingSetting />
      <h2>This phone</h2>
      <InstallApp />
      <PhoneStorage />
      <h2>Account</h2>
      <Card>
        <p className={styles.account}>
          <UserRound size={22} aria-hidden="true" />
          <span>
            Signed in as <EmailAddress email={user.email} />
          </span>
        </p>
        <SignOutButton />
      </Card>
      {user.isOwner && env().SIGNUP === "invite" && (
        <>
          <h2 id="invite">Invite someone</h2>
          <Card>
            <InviteSomeone />
          </Card>
        </>
      )}
      <h2>Your data</h2>
      <Card>
        <YourData email={user.email} />
      </Card>
      <p className={styles.footer}>
        <span className={styles.footerLabel}>For developers</span> <a href="/docs">API reference</a> <a href="/api/v1/openapi.json">OpenAPI document</a>
      </p>
    </>
  );
}
