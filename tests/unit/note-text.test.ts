import assert from "node:assert/strict";
import { test } from "node:test";
import { noteTitle } from "@/app/_lib/notes/note-text.ts";

test("a note's title is its first sentence, cut at a word near 60 characters", () => {
  assert.equal(noteTitle("We moved the cluster to Kubernetes. Postgres runs fine."), "We moved the cluster to Kubernetes");
  assert.equal(
    noteTitle("so we moved the whole cluster over to kubernetes last week and postgres runs fine on it now"),
    "So we moved the whole cluster over to kubernetes last week…",
  );
  assert.equal(noteTitle("   "), "Voice note");
});

test("sentences end where the language ends them", () => {
  assert.equal(noteTitle("Das ist gut. Ja.", "de"), "Das ist gut");
  assert.equal(noteTitle("¿Qué tal? Muy bien.", "es"), "¿Qué tal");
  assert.equal(noteTitle("今日は晴れです。明日は雨です。", "ja"), "今日は晴れです");
});
