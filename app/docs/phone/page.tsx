import type { Metadata } from "next";
import { MarkdownDoc } from "../markdown-doc.tsx";

// GET /docs/phone – docs/phone.md: how to give this server a secure (https) address, so a phone can
// record, keep working offline and install the app (the notice on a plain-http page links here).

export const metadata: Metadata = {
  title: "On your phone",
  description: "Give Voicedraft a secure address, so that a phone can record, work offline and install it.",
};

export default function PhonePage() {
  return (
    <MarkdownDoc
      file="phone.md"
      title="On your phone"
      meta={
        <>
          For whoever runs this server: a phone records only at a secure (https) address. <a href="/docs/configuration">Configuration</a>
        </>
      }
    />
  );
}
