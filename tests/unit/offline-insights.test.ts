import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { composeInsights } from "@/lib/insights/compose-insights.ts";
import { repeats } from "@/lib/writer/sentences.ts";
import { writeOfflineInsights } from "@/lib/insights/offline-insights.ts";
import { offlineInsightsWriter } from "@/lib/insights/offline-insights.ts";
import type { InsightsWriter } from "@/lib/insights/types.ts";

// The offline insights writer on notes as people say them, in the four languages it knows.

const NOTES = {
  en: `Okay so quick update on the quarterly budget review. The marketing budget is about twenty percent over because of the conference booth in Berlin. I need to call Anna about the invoice from the booth company before Friday. The travel budget is fine, we are actually under. Let's move the design workshop to March so it lands in the next quarter. Don't forget to send the updated spreadsheet to Maria. Overall the quarterly budget looks manageable if the booth invoice gets corrected.`,
  de: `Also, kurzer Stand zum Umzug des Büros. Die neuen Räume in der Kastanienallee sind ab dem ersten Mai frei. Ich muss noch den Mietvertrag unterschreiben und an die Hausverwaltung schicken. Wir sollten die Umzugsfirma diese Woche buchen, sonst wird es knapp. Nicht vergessen: die Internetleitung rechtzeitig kündigen. Der Umzug des Büros sollte an einem Wochenende stattfinden.`,
  es: `Bueno, notas de la reunión con el cliente de la tienda online. El cliente quiere lanzar la nueva tienda antes del verano. Tengo que preparar el presupuesto para el diseño de la tienda. Hay que revisar los textos de las fichas de producto. No olvides enviar el contrato firmado a Lucía. Deberíamos pedir las fotos de producto la semana que viene.`,
  fr: `Alors, quelques idées pour le voyage en Bretagne cet été. On pourrait louer une maison près de Quimper pour deux semaines. Je dois réserver les billets de train avant la fin du mois. Il faut aussi demander à Paul s'il peut garder le chat. N'oublie pas de renouveler les passeports des enfants. Le voyage en Bretagne sera plus simple en train qu'en voiture.`,
};
const NO_COMMITMENTS: Record<string, string> = {
  en: "Then our my r I went to the lake this morning with the dog. The water was cold but the light over the hills was beautiful. We walked the long loop around the lake and saw two herons near the boathouse. It was a good quiet morning.",
  de: "Heute war ein ruhiger Tag im Garten. Die Tomaten sind endlich rot geworden und die Bohnen wachsen schnell. Am Abend saßen wir lange auf der Terrasse.",
  es: "Ayer fuimos a la playa con los niños. El agua estaba fría pero el sol brillaba todo el día. Comimos paella en un restaurante pequeño del puerto.",
  fr: "Ce matin le marché était plein de monde. Les fraises de la saison sont arrivées et elles sentaient très bon. Nous avons pris un café sur la place.",
};

const firstWords = (text: string, count: number) => text.split(/\s+/).slice(0, count).join(" ").replace(/[.,!?]$/, "").toLowerCase();

describe("offline insights", () => {
  test("a title is never a fragment of words said once: names keep their capitals, the words their order (issue 56)", () => {
    const title = (text: string) => writeOfflineInsights({ text, language: "en" }).title;
    // Recognized speech whose words make no phrase ("Blows Young", "John Guess" were titles): the
    // main clause as said, not two of its words title-cased.
    assert.equal(title("I spoke with Mr John about the offsite. Meetings that run long cost us twenty minutes every day."), "I spoke with Mr John about the offsite");
    assert.equal(title("Meetings that run long cost us twenty minutes every day, and nobody catches up."), "Meetings that run long cost us twenty minutes");
    for (const text of Object.values(NOTES)) assert.doesNotMatch(title(text), /^(?:\p{Lu}\p{Ll}+ ){1,2}\p{Lu}\p{Ll}+$/u, "not Title Cased Words");
  });

  test("titles are the note's own words in its order and casing: a key phrase said twice, else its main clause", () => {
    const titles = Object.fromEntries(Object.entries({ ...NOTES }).map(([language, text]) => [language, writeOfflineInsights({ text, language }).title]));
    assert.deepEqual(titles, { en: "Quarterly budget", de: "Umzug des Büros", es: "Notas de la reunión con el cliente", fr: "Voyage en Bretagne" });
    for (const [language, text] of [...Object.entries(NOTES), ...Object.entries(NO_COMMITMENTS)]) {
      const { title } = writeOfflineInsights({ text, language });
      assert.ok(title.length > 0 && title.length <= 60, title);
      // A key phrase is never the note's first words; a clause may be, if it is the most central.
      if (title.split(/\s+/).length <= 3) assert.notEqual(title.toLowerCase(), firstWords(text, title.split(/\s+/).length), `${language}: ${title}`);
      assert.match(title, /^\p{Lu}/u);
    }
    // "Then our my r I": the first words of a note are what a title must not be.
    assert.doesNotMatch(writeOfflineInsights({ text: NO_COMMITMENTS.en, language: "en" }).title, /^then/i);
    assert.equal(writeOfflineInsights({ text: "", language: "de" }).title, "Sprachnotiz");
    assert.equal(writeOfflineInsights({ text: "", language: "en", recordedAt: new Date("2026-12-01T09:14:00Z") }).title, "Voice note, Dec 1");
    assert.equal(writeOfflineInsights({ text: "Okay. Hmm.", language: "en", recordedAt: new Date("2026-12-01T09:14:00Z") }).title, "Voice note, Dec 1");
  });

  test("the summary is whole sentences in their order, at most 300 characters; a too long strongest one is cut at a word", () => {
    for (const [language, text] of [...Object.entries(NOTES), ...Object.entries(NO_COMMITMENTS)]) {
      const { summary } = writeOfflineInsights({ text, language });
      assert.ok(summary.length > 0 && summary.length <= 300, summary);
      const sentences = summary.split(/(?<=[.!?])\s+/);
      let from = 0;
      for (const sentence of sentences) {
        const at = text.indexOf(sentence.replace(/^\p{Lu}/u, (c) => c), from);
        const found = at >= 0 ? at : text.toLowerCase().indexOf(sentence.toLowerCase(), from);
        assert.ok(found >= from, `"${sentence}" in order in the ${language} note`);
        from = found;
      }
    }
    const long = `${"extraordinarily ".repeat(30).trim()} end. Short one here.`;
    const { summary } = writeOfflineInsights({ text: long, language: "en" });
    assert.ok(summary.length <= 300 && /^(?:Extraordinarily )(?:extraordinarily ?)+…$/.test(summary), summary);
  });

  test("action items in English, German, Spanish and French, as to-dos", () => {
    const items = (language: keyof typeof NOTES) => writeOfflineInsights({ text: NOTES[language], language }).action_items;
    assert.deepEqual(items("en"), [
      "Call Anna about the invoice from the booth company before Friday",
      "Move the design workshop to March so it lands in the next quarter",
      "Send the updated spreadsheet to Maria",
    ]);
    assert.deepEqual(items("de"), [
      "Den Mietvertrag unterschreiben und an die Hausverwaltung schicken",
      "Die Umzugsfirma diese Woche buchen, sonst wird es knapp",
      "Die Internetleitung rechtzeitig kündigen",
    ]);
    assert.deepEqual(items("es"), [
      "Preparar el presupuesto para el diseño de la tienda",
      "Revisar los textos de las fichas de producto",
      "Enviar el contrato firmado a Lucía",
      "Pedir las fotos de producto la semana que viene",
    ]);
    assert.deepEqual(items("fr"), [
      "Réserver les billets de train avant la fin du mois",
      "Demander à Paul s'il peut garder le chat",
      "Renouveler les passeports des enfants",
    ]);
    const more = writeOfflineInsights({
      text: "To do: buy milk. I'll ring the plumber tomorrow. Remember to water the plants! Denk daran, die Miete zu überweisen. Recuerda llamar a mamá. Penser à acheter du pain.",
      language: "en",
    }).action_items;
    assert.deepEqual(more, ["Buy milk", "Ring the plumber tomorrow", "Water the plants!", "Die Miete zu überweisen", "Llamar a mamá", "Acheter du pain"]);
  });

  test("no action items in a note without commitments (\"let's see\", \"voy a la playa\" are not ones)", () => {
    for (const [language, text] of Object.entries(NO_COMMITMENTS)) assert.deepEqual(writeOfflineInsights({ text, language }).action_items, [], language);
    assert.deepEqual(writeOfflineInsights({ text: "Let's see how it goes. Todo el día llovió. Voy a la playa cada verano.", language: "es" }).action_items, []);
  });

  test("an unpunctuated transcript: each commitment is its own to-do, key points are short", () => {
    const text =
      "so i was thinking about the podcast launch we have to record the intro episode next week and i need to buy a better microphone " +
      "because the old one hums the guests list is almost done maria and tom said yes and i'll send them the questions on monday";
    const insights = writeOfflineInsights({ text, language: "en" });
    assert.equal(insights.title, "I was thinking about the podcast launch");
    assert.deepEqual(insights.action_items.slice(0, 2), ["Record the intro episode next week", "Buy a better microphone because the old one hums the guests"]);
    assert.ok(insights.key_points.every((p) => p.length <= 160));
  });

  test("2–5 key points, none the summary verbatim where the note has other sentences", () => {
    for (const [language, text] of [...Object.entries(NOTES), ...Object.entries(NO_COMMITMENTS)]) {
      const { summary, key_points } = writeOfflineInsights({ text, language });
      assert.ok(key_points.length >= 2 && key_points.length <= 5, `${language}: ${key_points.length}`);
      // A three-sentence note has no third sentence to offer besides its two-sentence summary.
      if (text.split(/(?<=\.) /).length < 4) continue;
      for (const point of key_points) assert.ok(!summary.includes(point), `${language}: "${point}" repeats the summary`);
    }
    const long = Array.from({ length: 30 }, (_, i) => `Point number ${i} is about the garden and its fences.`).join(" ");
    assert.equal(writeOfflineInsights({ text: long, language: "en" }).key_points.length, 5);
  });

  test("a sentence said twice is in the summary and the key points once", () => {
    // As PocketSphinx heard the shared speech looped twice (the e2e note's summary said the second sentence twice).
    const text =
      "And I are my god I'm. And not. What your country can do for you. Ask what you can do for your country. " +
      "And so my fellow Americans. What your country can do for you. When you can do for your country. " +
      "What your Country can do for you!";
    const { summary, key_points } = writeOfflineInsights({ text, language: "en" });
    const all = [...summary.split(/(?<=[.!?])\s+/), ...key_points];
    for (const [i, a] of all.entries()) {
      for (const b of all.slice(i + 1)) assert.ok(!repeats(a, b), `said twice: "${a}" and "${b}" (${JSON.stringify({ summary, key_points })})`);
    }
    assert.ok(key_points.length >= 2, JSON.stringify(key_points));
    assert.equal(repeats("What your country can do for you.", "what your Country can do for you!"), true);
    assert.equal(repeats("Ask what you can do for your country.", "When you can do for your country."), false);
    assert.equal(repeats("Call Anna.", "Call Maria."), false);
  });

  test("composeInsights keeps ticks of unchanged items; a failing writer falls back to offline, a failing offline one writes nothing", async () => {

    const input = { text: NOTES.en, language: "en" };
    const first = (await composeInsights({ input, previous: null, writer: offlineInsightsWriter }))!;
    const ticked = { ...first, action_items: first.action_items.map((a, i) => ({ ...a, done: i === 2 })) };
    const again = (await composeInsights({ input: { ...input, text: input.text.replace("call Anna", "email Anna") }, previous: ticked, writer: offlineInsightsWriter }))!;
    assert.deepEqual(again.action_items.map((a) => a.done), [false, false, true]);
    assert.equal(again.action_items[0].text, "Email Anna about the invoice from the booth company before Friday");

    const broken: InsightsWriter = { name: "writer", write: async () => { throw new Error("model down"); } };
    const fallback = (await composeInsights({ input, previous: ticked, writer: broken }))!;
    assert.equal(fallback.written_by, "offline");
    assert.deepEqual(fallback.action_items.map((a) => a.done), [false, false, true]);
    const model: InsightsWriter = { name: "writer", write: async () => ({ title: " A ".repeat(50), summary: "x", key_points: ["a", "", "b"], action_items: ["Do it"] }) };
    const written = (await composeInsights({ input, previous: null, writer: model }))!;
    assert.equal(written.written_by, "writer");
    assert.ok(written.title.length <= 60);
    assert.deepEqual(written.key_points, ["a", "b"]);
    // A blank title from the writer: the offline writer's names the note; the rest stays the writer's.
    const untitled: InsightsWriter = { name: "writer", write: async () => ({ title: "  \n ", summary: "Its own summary.", key_points: [], action_items: [] }) };
    const named = (await composeInsights({ input, previous: null, writer: untitled }))!;
    assert.equal(named.title, first.title);
    assert.ok(named.title);
    assert.equal(named.summary, "Its own summary.");
    assert.equal(named.written_by, "writer");
    const failing: InsightsWriter = { name: "offline", write: async () => { throw new Error("bug"); } };
    assert.equal(await composeInsights({ input, previous: ticked, writer: failing }), null);
  });
});
