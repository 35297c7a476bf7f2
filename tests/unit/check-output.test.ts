import assert from "node:assert/strict";
import { test } from "node:test";
import { checkOutput } from "@/lib/writer/check-output.ts";
import { ordinaryWords } from "@/tests/support/ordinary-words.ts";

// Issue 69: the one check every model output passes (lib/writer/check-output.ts), whatever the task.

const NOTE =
  "Quick update on the quarterly budget review. The marketing budget is twenty percent over because of the conference booth. " +
  "I need to call Anna about the booth invoice before Friday. Don't forget to send the updated spreadsheet to Maria.";
const GERMAN = "Morgen muss ich Anna wegen der Rechnung anrufen. Das Budget für die Messe ist zu hoch, und wir sprechen am Freitag darüber.";
const check = (text: string, source = NOTE, language = "en", by: "writer" | "local-model" = "writer") =>
  checkOutput([{ name: "rewrite", text, required: true }], { what: "rewrite", source, language }, by);

test("true rewordings pass: an email, a title in other words, a German to-do", () => {
  assert.equal(check("Hi Anna,\n\nCould we correct the booth invoice before Friday? The spreadsheet goes to Maria.\n\nThanks"), null);
  assert.equal(check("Budget review: the booth puts marketing over"), null);
  assert.equal(check("Hook line. One idea. What would you add?"), null);
  assert.equal(check("- [ ] Anna wegen der Rechnung anrufen\n- [ ] Budget für die Messe besprechen", GERMAN, "de"), null);
});

test("nothing, nonsense, bytes that are not text, another language and new names are refused, in plain words", () => {
  assert.equal(check("  "), "the writer wrote an empty rewrite");
  assert.equal(check(ordinaryWords(300, 1)), "the writer's rewrite was not in your note's words");
  assert.equal(check(ordinaryWords(300, 1), NOTE, "en", "local-model"), "the model on this machine's rewrite was not in your note's words");
  assert.equal(check("Budget \u0000\u0007 booth \ufffd"), "the writer's rewrite had characters that are not text");
  assert.equal(check("Bonjour à tous, le budget du trimestre est trop élevé à cause du stand, et je dois appeler Anna avant vendredi."), "the writer wrote in another language than your note");
  assert.equal(check("Send the spreadsheet to Maria and Oleksandr before Friday."), "the writer's rewrite said “Oleksandr”, which the note does not");
  for (const reason of [check(ordinaryWords(300, 1)), check("Budget \u0000")]) assert.doesNotMatch(reason!, /\d|_|https?:/, "no counts, codes or addresses");
});

test("each part is checked: a title of nonsense fails though the text is the note's", () => {
  const parts = [
    { name: "title", text: ordinaryWords(30, 3) },
    { name: "to-do", text: "Call Anna about the booth invoice" },
  ];
  assert.equal(checkOutput(parts, { what: "insights", source: NOTE }, "writer"), "the writer's title was not in your note's words");
});

test("text only (a clean-up, whose guard checks its words): words of any kind pass, bytes do not", () => {
  const only = (text: string) => checkOutput([{ name: "clean-up", text }], { what: "clean-up", source: NOTE, textOnly: true }, "writer");
  assert.equal(only(ordinaryWords(100, 2)), null);
  assert.equal(only("\u0000\u0001"), "the writer's clean-up had characters that are not text");
});

test("an answer is held to the language it was asked in (the question's), not the notes'", () => {
  const answer = (text: string) =>
    checkOutput([{ name: "answer", text, required: true }], { what: "answer", source: GERMAN, writeIn: "en", sourceName: "your notes'" }, "writer");
  assert.equal(answer("You said you need to call Anna about the invoice tomorrow, and that the budget for the fair is too high."), null);
  assert.equal(
    answer("Vous avez dit que vous devez appeler Anna demain pour la facture, et que le budget du salon est trop élevé pour vous."),
    "the writer wrote in another language than it was asked",
  );
});
