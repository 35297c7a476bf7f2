import { CircleCheck, CircleAlert, PenLine } from "lucide-react";
import { Card, LocalTime, Notice } from "@/app/_ui/index.ts";
import type { LocalWriterStatus } from "@/lib/writer/local/status.ts";
import { describeWriter } from "@/lib/writer/writer.ts";
import styles from "./writing-setting.module.css";

// Settings → Writing: who writes titles, summaries, to-do lists, posts and rewrites on this server
// (a language model named by WRITER_BASE_URL, the model on this machine, or the offline rules),
// whether it answers, the last error, the model's download, and how to connect one. Rendered on
// the server: the settings are the server's.

const host = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

const MB = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

/** The model on this machine, when it does not write yet: on its way, or why not. */
function LocalModelLine({ local }: { local: LocalWriterStatus }) {
  const download = local.download;
  let text: string;
  if (download?.state === "downloading") {
    text = `The writing model for this machine is downloading${download.percent === null ? "" : `: ${download.percent} %`}${download.total_bytes ? ` of ${MB(download.total_bytes)}` : ""}. It writes once it has arrived.`;
  } else if (download) text = "The writing model for this machine could not be downloaded yet; it is tried again later.";
  else if (local.state === "off") return null;
  else text = `No writing model on this machine: ${local.reason}.`;
  return (
    <p className="muted" data-testid="local-writer-state">
      {text}
    </p>
  );
}

export async function WritingSetting() {
  const writer = await describeWriter();
  if (writer.configured && writer.provider === "local-model") {
    return (
      <Card>
        <p className={styles.line} data-testid="writer-model">
          <PenLine size={20} aria-hidden="true" />
          <span>
            Written by <strong>{writer.model}</strong> on this machine. Nothing leaves it.
          </span>
        </p>
        <p className="muted" data-testid="writer-state">
          {writer.local.loaded ? "In memory now." : "Loaded when something is written, and unloaded when unused."}
        </p>
        {writer.lastError && writer.lastErrorAt && (
          <Notice tone="warning">
            Last error, <LocalTime iso={writer.lastErrorAt.toISOString()} />: {writer.lastError}.
          </Notice>
        )}
      </Card>
    );
  }
  if (!writer.configured) {
    return (
      <Card>
        <p className={styles.line}>
          <PenLine size={20} aria-hidden="true" />
          <span>
            <strong>Written offline</strong>: titles, summaries, to-do lists and posts come from rules on this server. Nothing leaves it.
          </span>
        </p>
        <LocalModelLine local={writer.local} />
        <details className={styles.how}>
          <summary>Connect a language model</summary>
          <p>
            Whoever runs this server sets the address, model and key of any OpenAI-compatible server (Ollama, llama.cpp, LM Studio, vLLM,
            OpenRouter, OpenAI), then restarts it. With Ollama on the same machine:
          </p>
          <pre className={styles.code}>
            {"WRITER_BASE_URL=http://localhost:11434/v1\nWRITER_MODEL=llama3.1:8b"}
          </pre>
          <p>With OpenAI:</p>
          <pre className={styles.code}>{"WRITER_BASE_URL=https://api.openai.com/v1\nWRITER_MODEL=gpt-4o-mini\nWRITER_API_KEY=sk-…"}</pre>
        </details>
      </Card>
    );
  }
  const healthy = writer.reachable && !writer.probe_error && !writer.open;
  return (
    <Card>
      <p className={styles.line} data-testid="writer-model">
        <PenLine size={20} aria-hidden="true" />
        <span>
          Written by <strong>{writer.model}</strong> at {host(writer.base_url)}
        </span>
      </p>
      <p className={styles.line} data-testid="writer-state">
        {healthy ? (
          <CircleCheck size={20} aria-hidden="true" className={styles.ok} />
        ) : (
          <CircleAlert size={20} aria-hidden="true" className={styles.bad} />
        )}
        <span>
          {!writer.reachable
            ? `Not reachable: ${writer.probe_error}. Until it answers, everything is written offline and marked so.`
            : writer.probe_error
              ? `It answers, but ${writer.probe_error}.`
              : writer.open && writer.retryAt
                ? "Answers, but failed lately: skipped for a moment, written offline meanwhile."
                : "Reachable."}
        </span>
      </p>
      {writer.lastError && writer.lastErrorAt && (
        <Notice tone="warning">
          Last error, <LocalTime iso={writer.lastErrorAt.toISOString()} />: {writer.lastError}.
        </Notice>
      )}
      {writer.named_by === "OPENAI_BASE_URL" && (
        <p className="muted">Named by the older settings (OPENAI_BASE_URL with OPTIMIZER or CONTENT_GENERATOR); WRITER_BASE_URL is the new name.</p>
      )}
    </Card>
  );
}
