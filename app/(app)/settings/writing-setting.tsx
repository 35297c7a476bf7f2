import type { ReactNode } from "react";
import { ChevronDown, CircleAlert, PenLine } from "lucide-react";
import { Card, LocalTime, Notice } from "@/app/_ui/index.ts";
import type { LocalWriterStatus } from "@/lib/writer/local/status.ts";
import { describeWriter } from "@/lib/writer/writer.ts";
import { LocalModelDownload, WritingState } from "./writing-state.tsx";
import styles from "./writing-setting.module.css";

// Settings → Writing: who writes titles, summaries, to-do lists, posts and rewrites on this server
// (a language model the server names, the model on this machine, or the offline rules), whether
// it answers, the last error and the model's download, in words. What only whoever runs the
// server can change (the settings' names, a restart) is folded under "For the administrator",
// with the configuration page. Rendered on the server: the settings are the server's.

const host = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** Why the model on this machine does not write, for whoever runs it (the reason may name a setting). */
function LocalModelReason({ local }: { local: LocalWriterStatus }) {
  if (local.download || local.state === "off" || local.state === "failing" || !local.reason) return null;
  return <p data-testid="local-writer-reason">No writing model on this machine: {local.reason}.</p>;
}

/** What only whoever runs the server can change, folded away: most people never need it. */
function ForTheAdministrator({ children }: { children: ReactNode }) {
  return (
    <details className={styles.how} data-testid="writer-admin">
      <summary>
        For the administrator <ChevronDown size={18} aria-hidden="true" className={styles.chevron} />
      </summary>
      {children}
      <p>
        <a className={styles.docsLink} href="/docs/configuration#connect-a-writer">How to connect a writer, and every setting</a>
      </p>
    </details>
  );
}

/** The writer's three settings, in words, each with its name beside it. */
function WriterSettings() {
  return (
    <dl className={styles.settings}>
      <div>
        <dt>The server&apos;s address</dt>
        <dd>
          <code>WRITER_BASE_URL</code>, e.g. http://localhost:11434/v1 for Ollama on the same machine
        </dd>
      </div>
      <div>
        <dt>The model</dt>
        <dd>
          <code>WRITER_MODEL</code>, e.g. llama3.1:8b
        </dd>
      </div>
      <div>
        <dt>Its key, if it needs one</dt>
        <dd>
          <code>WRITER_API_KEY</code>
        </dd>
      </div>
    </dl>
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
            Your writer: <strong>{writer.model}</strong>, on this machine. Nothing leaves it.
          </span>
        </p>
        <WritingState writing={writer.writing} />
        {writer.lastError && writer.lastErrorAt && writer.writing.last_tasks.state !== "failed" && (
          <Notice tone="warning">
            Last error, <LocalTime iso={writer.lastErrorAt.toISOString()} />: {writer.lastError}.
          </Notice>
        )}
        <ForTheAdministrator>
          <p data-testid="writer-memory">{writer.local.loaded ? "The model is in memory now." : "The model is loaded when something is written, and unloaded when unused."}</p>
          <p>A language model on another machine or service writes instead once whoever runs this server names it and restarts the server.</p>
          <WriterSettings />
        </ForTheAdministrator>
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
        <LocalModelDownload writing={writer.writing} />
        <ForTheAdministrator>
          <LocalModelReason local={writer.local} />
          <p>
            Whoever runs this server can connect a language model that speaks OpenAI&apos;s chat API (Ollama, llama.cpp, LM Studio, vLLM, OpenRouter,
            OpenAI): they set its address, model and key, and restart the server.
          </p>
          <WriterSettings />
        </ForTheAdministrator>
      </Card>
    );
  }
  return (
    <Card>
      <p className={styles.line} data-testid="writer-model">
        <PenLine size={20} aria-hidden="true" />
        <span>
          Your writer: <strong>{writer.model}</strong> at {host(writer.base_url)}
        </span>
      </p>
      {!writer.reachable || writer.probe_error ? (
        <p className={styles.line} data-testid="writer-state" data-state="unreachable">
          <CircleAlert size={20} aria-hidden="true" className={styles.bad} />
          <span>
            {!writer.reachable
              ? "It cannot be reached. Until it answers, everything is written offline and marked so."
              : `It answers, but ${writer.probe_error}.`}
          </span>
        </p>
      ) : (
        <WritingState writing={writer.writing} />
      )}
      {writer.lastError && writer.lastErrorAt && writer.writing.last_tasks.state !== "failed" && (
        <Notice tone="warning">
          Last error, <LocalTime iso={writer.lastErrorAt.toISOString()} />: {writer.lastError}.
        </Notice>
      )}
      <ForTheAdministrator>
        {writer.named_by === "OPENAI_BASE_URL" ? (
          <p data-testid="writer-older-names">
            This server names its writer with the older settings (<code>OPENAI_BASE_URL</code> with <code>OPTIMIZER</code> or <code>CONTENT_GENERATOR</code>
            ). They still work; these are the new names:
          </p>
        ) : (
          <p>Another writer, model or key: whoever runs this server changes these settings and restarts it.</p>
        )}
        <WriterSettings />
      </ForTheAdministrator>
    </Card>
  );
}
