import type { Insights } from "@/lib/insights/schemas.ts";
import type { BuiltInStyleId } from "@/lib/rewrites/schemas.ts";

// Rewrites by rules, without a model, from the note's insights: the to-do list from its action
// items (ticked ones stay ticked), the blog outline from its title, summary and key points. Null
// when the note has nothing to make it from (the caller answers nothing_to_rewrite).

export type Draft = { title: string; text: string };

const LABELS: Record<string, { todo: string; intro: string; point: string }> = {
  en: { todo: "To do", intro: "Introduction", point: "Point" },
  de: { todo: "Zu erledigen", intro: "Einleitung", point: "Punkt" },
  es: { todo: "Por hacer", intro: "Introducción", point: "Punto" },
  fr: { todo: "À faire", intro: "Introduction", point: "Point" },
};
const labels = (language: string) => LABELS[language.slice(0, 2).toLowerCase()] ?? LABELS.en;

export function todoListOf(insights: Insights, language: string): Draft | null {
  if (!insights.action_items.length) return null;
  return {
    title: `${labels(language).todo}: ${insights.title}`,
    text: insights.action_items.map((item) => `- [${item.done ? "x" : " "}] ${item.text}`).join("\n"),
  };
}

export function blogOutlineOf(insights: Insights, language: string): Draft | null {
  const points = insights.key_points.length ? insights.key_points : insights.summary ? [insights.summary] : [];
  if (!points.length) return null;
  const words = labels(language);
  const lines = [`${insights.title}`, ""];
  if (insights.key_points.length && insights.summary) lines.push(`${words.intro}: ${insights.summary}`, "");
  points.forEach((point, i) => lines.push(`${i + 1}. ${point}`));
  return { title: insights.title, text: lines.join("\n") };
}

/**
 * Why rules cannot write `style` from these insights (the sheet greys it out with these words when
 * there is no writer), or null when they can, or it is not theirs to write.
 */
export function offlineUnavailable(style: string, insights: Insights): string | null {
  if (style !== "todo_list" && style !== "blog_outline") return null;
  if (writeOffline(style, insights, "en")) return null;
  return style === "todo_list" ? "Nothing to do in this note" : "Too short for an outline";
}

/** The style written by rules, if rules can write it. */
export function writeOffline(style: BuiltInStyleId, insights: Insights, language: string): Draft | null {
  if (style === "todo_list") return todoListOf(insights, language);
  if (style === "blog_outline") return blogOutlineOf(insights, language);
  return null;
}
