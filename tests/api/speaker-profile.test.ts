// Each person's voice, as PocketSphinx settled on it (its cepstral mean), is kept from one
// recognition to the next: a note's first words are heard as well as the rest. Real PocketSphinx
// on the shipped speech, uploaded through POST /transcribe on the database under test.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { before, test } from "node:test";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { deleteAccount } from "@/lib/accounts/delete-account.ts";
import { db } from "@/lib/db/client.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";
import { JFK_WAV, jfkAs } from "../support/audio.ts";

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
const database = setUpTestDatabase();

let jfk: Buffer;
let opening: Buffer;

before(async () => {
  await database.ready;
  jfk = await readFile(JFK_WAV);
  // "And so my fellow Americans": the first 3 s, as a short note begins.
  opening = await jfkAs("jfk-opening.wav", ["-t", "3"]);
});

async function upload(key: string, audio: Buffer): Promise<string> {
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(audio)]), "note.wav");
  const res = await call(transcribe, { method: "POST", path: "/transcribe", key, body });
  assert.equal(res.status, 200, res.text);
  return res.body.text as string;
}

test("a person's next note starts from where their voice settled: its first words are heard", async () => {
  const prisma = await db();
  // Someone new: the recognizer starts from the model's generic mean and has not settled in 3 s.
  const newcomer = await createTestUser();
  assert.doesNotMatch(await upload(newcomer.key, opening), /fellow americans/);

  // Someone who has recorded before: their last note's voice is kept, and the same 3 s are heard.
  const regular = await createTestUser();
  await upload(regular.key, jfk);
  const profile = await prisma.speakerProfile.findUniqueOrThrow({ where: { userId: regular.id } });
  const mean = profile.cepstralMean as number[];
  assert.equal(mean.length, 13, JSON.stringify(mean));
  assert.ok(mean.every(Number.isFinite));
  assert.match(await upload(regular.key, opening), /fellow americans/);

  // Only their own: the newcomer's profile is theirs (from their 3 s), not the regular's.
  const theirs = await prisma.speakerProfile.findUniqueOrThrow({ where: { userId: newcomer.id } });
  assert.notDeepEqual(theirs.cepstralMean, profile.cepstralMean);
});

test("the kept voice goes with the account", async () => {
  const prisma = await db();
  const user = await createTestUser();
  await upload(user.key, opening);
  assert.ok(await prisma.speakerProfile.findUnique({ where: { userId: user.id } }));
  await deleteAccount({ userId: user.id, confirm: user.email });
  assert.equal(await prisma.speakerProfile.findUnique({ where: { userId: user.id } }), null);
});
