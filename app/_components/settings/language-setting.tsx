"use client";

import { Languages, TriangleAlert } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { ApiRequestError, getSettings, updateSettings, type Settings } from "@/app/_lib/api.ts";
import { Card, Notice, useToast } from "@/app/_ui/index.ts";

// Settings → Language: what the person speaks in their recordings (auto-detect by default), each
// language named in itself and in the browser's language. Where the server's recognizer cannot do
// it yet, the card says so in plain words, as the API does.


// The languages whisper's multilingual models recognize best (WER under 15% on Common Voice / FLEURS).
const CODES = ["en", "de", "es", "fr", "it", "pt", "nl", "pl", "sv", "da", "no", "fi", "cs", "tr", "ru", "uk", "ja", "zh", "ko", "ca", "el", "hu", "ro", "id", "vi"];

export function LanguageSetting() {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const options = useMemo(() => {
    const here = typeof Intl.DisplayNames === "function" ? new Intl.DisplayNames(undefined, { type: "language" }) : null;
    return CODES.map((code) => {
      const own = typeof Intl.DisplayNames === "function" ? new Intl.DisplayNames([code], { type: "language" }).of(code) : code;
      const local = here?.of(code);
      return { code, label: own && local && own.toLowerCase() !== local.toLowerCase() ? `${own} (${local})` : (own ?? code) };
    });
  }, []);

  useEffect(() => {
    getSettings()
      .then(setSettings)
      .catch((err: Error) => setError(err instanceof ApiRequestError && err.status === 0 ? "Your settings need a connection." : err.message));
  }, []);

  async function choose(language: string) {
    try {
      setSettings(await updateSettings({ language }));
      toast(language === "auto" ? "Voicedraft will detect the language of each recording." : "Saved: new recordings are recognized in this language.");
    } catch (err) {
      toast(`Not saved: ${(err as Error).message}`);
    }
  }

  if (error) return <Notice tone="warning">{error}</Notice>;
  if (!settings) return null;
  return (
    <Card>
      <label htmlFor="language">
        <Languages size={18} aria-hidden="true" /> The language you speak in your recordings
      </label>
      <select id="language" value={settings.language} onChange={(e) => void choose(e.target.value)} data-testid="language-setting">
        <option value="auto">Detect it in each recording</option>
        {options.map((o) => (
          <option key={o.code} value={o.code}>
            {o.label}
          </option>
        ))}
      </select>
      {!settings.recognizer.language_supported && (
        <Notice tone="warning" icon={<TriangleAlert size={18} aria-hidden="true" />} role="status" data-testid="language-unsupported">
          <p>
            This server&rsquo;s speech recognizer knows {listOf(settings.recognizer.languages)} only: recordings in this language are not
            transcribed until it learns more (they are never turned into English words).
          </p>
          {settings.recognizer.hint && <p className="muted">For whoever runs this server: {settings.recognizer.hint}.</p>}
        </Notice>
      )}
    </Card>
  );
}

function listOf(languages: "any" | string[]): string {
  if (languages === "any") return "every language";
  const names = typeof Intl.DisplayNames === "function" ? new Intl.DisplayNames(undefined, { type: "language" }) : null;
  return new Intl.ListFormat(undefined, { type: "conjunction" }).format(languages.map((l) => names?.of(l) ?? l));
}
