import assert from "node:assert/strict";
import { test } from "node:test";
import { unitsOf } from "@/lib/writer/sentences.ts";
import { cleanUpByRules } from "@/lib/clean-up/rules-clean-up.ts";

// Sentence ends per language (Intl.Segmenter): the offline post writer and the local clean-up.
const sentences = (text: string, language: string) => unitsOf(text, language).map((u) => u.text);

test("German: abbreviations do not end a sentence, question and exclamation marks do", () => {
  assert.deepEqual(sentences("Wir treffen uns z. B. um acht Uhr. Kommst du auch? Ja, gerne!", "de"), [
    "Wir treffen uns z. B. um acht Uhr.",
    "Kommst du auch?",
    "Ja, gerne!",
  ]);
});

test("Spanish: ¿…? and ¡…! are sentences of their own", () => {
  assert.deepEqual(sentences("¿Qué tal el proyecto? ¡Va muy bien! Lo lanzamos mañana.", "es"), ["¿Qué tal el proyecto?", "¡Va muy bien!", "Lo lanzamos mañana."]);
});

test("French: guillemets and the space before ? and ! keep sentences whole", () => {
  assert.deepEqual(sentences("Il a dit « bonjour ». Tu viens ? Oui !", "fr"), ["Il a dit « bonjour ».", "Tu viens ?", "Oui !"]);
});

test("Japanese: 。 ends a sentence (a regex of English punctuation saw one sentence)", () => {
  assert.deepEqual(sentences("今日は晴れです。明日は雨が降るでしょう。傘を持ってください。", "ja"), ["今日は晴れです。", "明日は雨が降るでしょう。", "傘を持ってください。"]);
});

test("the local clean-up capitalizes behind ¿ and ¡ and leaves scripts without case alone", () => {
  assert.match(cleanUpByRules("¿qué tal el proyecto"), /^¿Qué tal el proyecto/);
  assert.match(cleanUpByRules("今日は晴れです"), /^今日は晴れです/);
});
