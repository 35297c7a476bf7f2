import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { PLATFORMS } from "@/lib/channels/schemas.ts";
import { PLATFORM_RULES } from "@/lib/channels/platforms.ts";

const DEFAULT_PRESETS = Object.fromEntries(Object.entries(PLATFORM_RULES).map(([platform, rules]) => [platform, rules.defaultPreset]));

// The defaults repeat the built-in presets' settings; this keeps them equal to what the migrations seed.
test("every platform's default preset is a seeded built-in with the same settings", () => {
  const dir = path.join(process.cwd(), "prisma", "migrations");
  const sql = fs.readdirSync(dir).filter((d) => fs.statSync(path.join(dir, d)).isDirectory()).map((d) => fs.readFileSync(path.join(dir, d, "migration.sql"), "utf8")).join("\n");
  const seeded = new Map(
    Array.from(sql.matchAll(/\('(builtin-[a-z]+)', NULL, '[^']+', '\w+', '(\w+)', '(\w+)', ARRAY\[[^\]]*\]::TEXT\[\], (true|false)/g), (m) => [
      m[1],
      { length: m[2], format: m[3], includeTitle: m[4] === "true" },
    ]),
  );
  for (const platform of PLATFORMS) {
    const { id, generator } = DEFAULT_PRESETS[platform];
    assert.deepEqual(seeded.get(id), generator, `${platform}: ${id}`);
  }
  assert.equal(DEFAULT_PRESETS.x.id, "builtin-thread");
  assert.equal(DEFAULT_PRESETS.instagram.id, "builtin-caption");
  assert.equal(DEFAULT_PRESETS.blog.id, "builtin-article");
});
