import path from "node:path";
import { z } from "zod";

// Every setting the service reads, validated once. Defaults make `npm start` work with nothing set.
const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  DATA_DIR: z.string().default("./data"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  MAX_JSON_BODY_BYTES: z.coerce.number().int().min(1024).default(64 * 1024),
  DICTIONARY_MAX_ENTRIES: z.coerce.number().int().min(1).default(10_000),

  // Transcription
  TRANSCRIBE_ENGINE: z.enum(["auto", "whisper", "pocketsphinx", "openai"]).default("auto"),
  MAX_UPLOAD_BYTES: z.coerce.number().int().min(1024).default(200 * 1024 * 1024),
  MAX_AUDIO_SECONDS: z.coerce.number().positive().default(2 * 60 * 60),
  TRANSCRIBE_QUEUE_MAX: z.coerce.number().int().min(0).default(4),
  WHISPER_MODEL: z.string().optional(),
  MODELS_DIR: z.string().default("./models"),
  WHISPER_MODEL_BASE_URL: z.url().optional(),
  FFMPEG_PATH: z.string().default("ffmpeg"),
  POCKETSPHINX_PATH: z.string().default("pocketsphinx_continuous"),
  POCKETSPHINX_MODEL_DIR: z.string().default("/usr/share/pocketsphinx/model/en-us"),
  OPENAI_BASE_URL: z.url().default("https://api.openai.com/v1"),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_TRANSCRIBE_MODEL: z.string().default("whisper-1"),
  OPENAI_CHAT_MODEL: z.string().default("gpt-4o-mini"),

  // AI optimization of transcripts (punctuation, casing, filler words, paragraphs)
  OPTIMIZER: z.enum(["local", "openai", "off"]).default("local"),
  OPTIMIZE_BACKGROUND_SECONDS: z.coerce.number().min(0).default(120),
  OPTIMIZER_CHUNK_WORDS: z.coerce.number().int().min(1).max(5000).default(300),
  OPTIMIZER_STALE_SECONDS: z.coerce.number().min(1).default(60),

  // Background jobs (pg-boss on the same database)
  JOBS_IN_APP: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  JOBS_POLL_SECONDS: z.coerce.number().min(0.5).default(2),
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),

  // Content workflow: platform variants are rolled out per environment.
  CONTENT_VARIANTS_ENABLED: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  CONTENT_GENERATOR: z.enum(["local", "openai"]).default("local"),

  // Shared secret of internal endpoints; when unset, one is generated once into DATA_DIR.
  SERVICE_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
});

export type Env = z.infer<typeof EnvSchema> & { dataDir: string };

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment configuration:\n${problems}`);
  }
  cached = { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
  return cached;
}

/** Tests and launchers change process.env before the first read; this makes a later read see it. */
export function resetEnvCache(): void {
  cached = undefined;
}
