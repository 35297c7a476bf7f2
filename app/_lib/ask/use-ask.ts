"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { Schemas } from "@/app/_lib/api-client.ts";

// Ask your notes from the phone: POST /api/v1/ask with Accept: text/event-stream, so the sources
// show at once and the answer is read as it is written. The last answer is kept for the tab
// (sessionStorage, by question), so coming back from a cited note shows it again without asking.

export type Citation = Schemas["Citation"];
export type AskAnswer = Schemas["AskAnswer"];
export type AskState =
  | { status: "idle" }
  | { status: "asking"; question: string; citations: Citation[]; text: string }
  | { status: "done"; question: string; answer: AskAnswer }
  | { status: "error"; question: string; message: string };

const KEPT = "voicedraft.ask.last";

function kept(question: string): AskAnswer | null {
  try {
    const last = JSON.parse(sessionStorage.getItem(KEPT) ?? "null") as AskAnswer | null;
    return last?.question === question ? last : null;
  } catch {
    return null;
  }
}

/** The events of a text/event-stream body, each `data:` JSON, as they arrive. */
async function* events(body: ReadableStream<Uint8Array>): AsyncGenerator<{ type: string } & Record<string, unknown>> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const data = buffer.slice(0, end).split("\n").filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trim()).join("\n");
      buffer = buffer.slice(end + 2);
      if (data) yield JSON.parse(data);
    }
  }
}

export function useAsk() {
  const [state, setState] = useState<AskState>({ status: "idle" });
  const current = useRef<AbortController | null>(null);
  useEffect(() => () => current.current?.abort(), []);

  const ask = useCallback(async (question: string) => {
    current.current?.abort();
    const again = kept(question);
    if (again) return setState({ status: "done", question, answer: again });
    const controller = (current.current = new AbortController());
    setState({ status: "asking", question, citations: [], text: "" });
    try {
      const res = await fetch("/api/v1/ask", {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({ question }),
        signal: controller.signal,
      });
      if (!res.ok || !res.body) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(body?.error?.message ?? `The answer could not be fetched (HTTP ${res.status}).`);
      }
      for await (const event of events(res.body)) {
        if (event.type === "ask.citations") setState((s) => (s.status === "asking" ? { ...s, citations: event.citations as Citation[] } : s));
        else if (event.type === "ask.answer.delta") setState((s) => (s.status === "asking" ? { ...s, text: s.text + (event.delta as string) } : s));
        else if (event.type === "ask.done") {
          const { type: _type, ...answer } = event;
          sessionStorage.setItem(KEPT, JSON.stringify(answer));
          setState({ status: "done", question, answer: answer as unknown as AskAnswer });
        } else if (event.type === "error") throw new Error((event.error as { message: string }).message);
      }
    } catch (err) {
      if (controller.signal.aborted) return;
      const offline = err instanceof TypeError && !navigator.onLine;
      setState({ status: "error", question, message: offline ? "You are offline: asking needs a connection." : (err as Error).message });
    }
  }, []);

  return { state, ask };
}
