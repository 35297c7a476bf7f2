import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".next-*/**", "lib/db/generated/**", "data/**", "sdk/js/dist/**", "sdk/js/src/generated/**", "next-env.d.ts", "public/vendor/**", "public/sw.js", "public/ffmpeg/**"]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // lib/ is server code. Browser code (client components, app/_lib, the audio worker) takes only
    // types from it, and the few pure modules listed here; `server-only` is not used because tsx
    // scripts, tests and workers load lib/ without the react-server condition.
    files: ["app/_lib/**", "app/_components/**", "app/_ui/**", "workers/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^@/lib/(?!ask/citation-groups\\.ts$|posts/generators/platform-rules\\.ts$|channels/platforms\\.ts$|api-keys/scopes\\.ts$|dictionary/common-words\\.ts$|clean-up/rules-clean-up\\.ts$|rewrites/offline-rewrites\\.ts$|transcription/live/captions-reach\\.ts$|notes/store/shown-text\\.ts$)",
              allowTypeImports: true,
              message: "lib/ is server code: import its types with `import type`, or list a browser-safe module in eslint.config.mjs.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@/app/**", "@/workers/**", "@/tests/**"], message: "lib/ must not depend on the app, browser code or tests." }] },
      ],
    },
  },
  {
    // Tests read loosely typed JSON responses.
    files: ["tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
]);
