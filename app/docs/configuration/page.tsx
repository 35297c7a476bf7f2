import type { Metadata } from "next";
import { MarkdownDoc } from "../markdown-doc.tsx";

// GET /docs/configuration – docs/configuration.md as the repository has it: every setting of the
// server and the admin CLI, for whoever runs it (Settings → Writing links here).

export const metadata: Metadata = {
  title: "Configuration",
  description: "Voicedraft's settings for whoever runs the server: the writer, every environment variable, the admin CLI.",
};

export default function ConfigurationPage() {
  return (
    <MarkdownDoc
      file="configuration.md"
      title="Configuration and the admin CLI"
      meta={
        <>
          For whoever runs this server: its settings are environment variables, read when it starts. <a href="/docs">API reference</a>
        </>
      }
    />
  );
}
