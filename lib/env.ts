import { availableParallelism } from "node:os";
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
  // The embedded database is one session shared in turns: a client idle inside a transaction, or
  // holding the session this long, is rolled back and disconnected so the others can go on.
  EMBEDDED_DB_IDLE_IN_TRANSACTION_SECONDS: z.coerce.number().positive().default(10),
  EMBEDDED_DB_MAX_HOLD_SECONDS: z.coerce.number().positive().default(60),
  // /api/health answers `degraded` when the database takes longer than this to answer SELECT 1.
  HEALTH_DB_TIMEOUT_SECONDS: z.coerce.number().positive().default(2),
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
  // ffmpeg decodes at once (default: one per core), and uploads that may wait for one; beyond, 503.
  DECODE_CONCURRENCY: z.coerce.number().int().min(1).default(() => Math.max(1, availableParallelism())),
  DECODE_QUEUE_MAX: z.coerce.number().int().min(0).default(16),
  WHISPER_MODEL: z.string().optional(),
  MODELS_DIR: z.string().default("./models"),
  WHISPER_MODEL_BASE_URL: z.url().optional(),
  // With TRANSCRIBE_ENGINE=auto and no model, `npm start` fetches base.en in the background.
  WHISPER_AUTO_DOWNLOAD: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  FFMPEG_PATH: z.string().default("ffmpeg"),
  // ffprobe lists a live recording's packets, to check that appended bytes are audio (it comes with ffmpeg).
  FFPROBE_PATH: z.string().default("ffprobe"),
  POCKETSPHINX_PATH: z.string().default("pocketsphinx_continuous"),
  // The live captions' stream recognizer: native/sphinx-stream.c as npm install built it, when unset;
  // empty: pocketsphinx_continuous (captions at each pause only).
  POCKETSPHINX_STREAM_PATH: z.string().optional(),
  POCKETSPHINX_MODEL_DIR: z.string().default("/usr/share/pocketsphinx/model/en-us"),
  OPENAI_BASE_URL: z.url().default("https://api.openai.com/v1"),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_TRANSCRIBE_MODEL: z.string().default("whisper-1"),
  OPENAI_CHAT_MODEL: z.string().default("gpt-4o-mini"),

  // AI optimization of transcripts (punctuation, casing, filler words, paragraphs)
  OPTIMIZER: z.enum(["auto", "local", "writer", "openai", "off"]).default("auto"),
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
  // Long recordings are recognized in pieces on the job queue: recognizers each app/worker process
  // runs at once (default one per core), and how long a piece's worker may stay silent (no
  // heartbeat) before the sweep gives the piece to another worker.
  RECOGNIZERS_PER_PROCESS: z.coerce.number().int().min(1).max(64).default(() => Math.max(1, availableParallelism())),
  RECOGNITION_PIECE_STALE_SECONDS: z.coerce.number().min(1).default(30),
  // Recordings with more speech than this many seconds are cut in pauses into pieces of half to
  // all of this length (silences longer than 2 s are not recognized).
  RECOGNITION_PIECE_SECONDS: z.coerce.number().min(2).max(600).default(60),
  // A live recording's whole audio heard again after Stop, its text replacing the live pieces'
  // (lib/transcription/live/hear-again.ts): auto = for the engines whose short pieces cost accuracy.
  SECOND_PASS: z.enum(["auto", "on", "off"]).default("auto"),
  // CPU niceness of recognizers and decoders (0 = as requests; 19 = lowest), so requests stay fast
  // while recordings are recognized (bench:contention).
  RECOGNIZER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  // ... and of background recognition (the second pass), behind live pieces and uploads.
  RECOGNIZER_BACKGROUND_NICE: z.coerce.number().int().min(0).max(19).default(19),
  // ... and of work that keeps pace with someone speaking (a live recording's stream recognizer
  // and the decoding of what it hears): bounded by the speech's speed, so as requests by default.
  RECOGNIZER_REALTIME_NICE: z.coerce.number().int().min(0).max(19).default(0),

  // The writer: any OpenAI-compatible chat server (OpenAI, Ollama, llama.cpp's server, LM Studio,
  // vLLM, OpenRouter) that writes the clean-up, posts, titles, insights and rewrites. Unset: all of
  // them are written offline. OPTIMIZER=openai or CONTENT_GENERATOR=openai with the OPENAI_* server
  // settings still name one (the older way, kept as aliases; lib/writer/providers.ts).
  WRITER_BASE_URL: z.url().optional().or(z.literal("").transform(() => undefined)),
  WRITER_MODEL: z.string().optional().or(z.literal("").transform(() => undefined)),
  WRITER_API_KEY: z.string().optional(),
  // One answer may take this long; a writer that does not answer is skipped this long before it is tried again.
  WRITER_TIMEOUT_SECONDS: z.coerce.number().positive().default(60),
  WRITER_COOLDOWN_SECONDS: z.coerce.number().min(0).default(30),
  // The local writer (lib/writer/local/): with no writer named above, a small instruct model on this
  // machine writes, through node-llama-cpp. auto: where the machine has the memory for it
  // (os.totalmem() ≥ 4 GiB), once the model is there; off: the offline rules. WRITER_LOCAL_MODEL is
  // a .gguf of one's own (nothing is downloaded); else `npm start` downloads the default model into
  // MODELS_DIR (WRITER_AUTO_DOWNLOAD), from WRITER_LOCAL_MODEL_URL when set (a mirror), checked
  // against WRITER_LOCAL_MODEL_SHA256. Unused this many minutes, the model is unloaded.
  WRITER_LOCAL: z.enum(["auto", "off"]).default("auto"),
  WRITER_LOCAL_MODEL: z.string().optional().or(z.literal("").transform(() => undefined)),
  WRITER_LOCAL_MODEL_URL: z.url().optional().or(z.literal("").transform(() => undefined)),
  WRITER_LOCAL_MODEL_SHA256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be a SHA-256 in hex (64 characters)")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  WRITER_AUTO_DOWNLOAD: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  WRITER_LOCAL_IDLE_MINUTES: z.coerce.number().min(0).default(10),
  // A load (the file read into memory) that takes longer is given up: the rules write, and the
  // status says the model could not be loaded, rather than waiting on it for good.
  WRITER_LOCAL_LOAD_TIMEOUT_SECONDS: z.coerce.number().positive().default(120),

  // Content workflow: platform variants are rolled out per environment.
  CONTENT_VARIANTS_ENABLED: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  CONTENT_GENERATOR: z.enum(["local", "openai"]).default("local"),

  // Behind a reverse proxy: trust its X-Forwarded-* headers (host, proto, client address) only when set.
  TRUST_PROXY: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  // Who may make an account once the first one (the owner) exists: with the owner's invitation
  // link (invite), anyone who reaches the server (open), or nobody (closed; the admin CLI still can).
  SIGNUP: z.enum(["invite", "open", "closed"]).default("invite"),
  // The public URL of the web app; when set, it (not the request's headers) is this site's origin.
  NEXTAUTH_URL: z.url().optional().or(z.literal("").transform(() => undefined)),

  // Rate limits (0 turns one off). Counters live in the database when DATABASE_URL is set (shared by
  // every app process), else in memory (the embedded database has one app process).
  RATE_LIMIT_STORE: z.enum(["auto", "memory", "database"]).default("auto"),
  RATE_LIMIT_API_PER_MINUTE: z.coerce.number().int().min(0).default(1200),
  // An API key's requests handled at once by one app process; more wait their turn (0: no limit).
  API_REQUESTS_AT_ONCE_PER_KEY: z.coerce.number().int().min(0).max(10_000).default(8),
  RATE_LIMIT_UNKNOWN_KEYS_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  RATE_LIMIT_AUDIO_SECONDS_PER_HOUR: z.coerce.number().int().min(0).default(36_000),
  RATE_LIMIT_SIGNIN_FAILURES: z.coerce.number().int().min(0).default(5),
  RATE_LIMIT_SIGNIN_IP_FAILURES: z.coerce.number().int().min(0).default(20),
  RATE_LIMIT_SIGNIN_BACKOFF_SECONDS: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_SIGNUPS_PER_HOUR: z.coerce.number().int().min(0).default(20),
  // Pairing a phone: codes an account may make, and wrong codes an address may try, per hour.
  RATE_LIMIT_PAIRING_PER_HOUR: z.coerce.number().int().min(0).default(20),
  // Registration of OAuth clients is open (MCP connectors register themselves): per address.
  RATE_LIMIT_OAUTH_REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(0).default(20),

  // Kept recordings (lib/note-audio): where ("file": under DATA_DIR/audio; "database": in
  // PostgreSQL, so every app process sharing it serves them), for how many days (unset: keep;
  // 0: keep none), and the Opus bitrate in kbit/s (20: about 9 MB per hour).
  AUDIO_STORE: z.enum(["file", "database"]).default("file"),
  AUDIO_RETENTION_DAYS: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : Number(v)))
    .pipe(z.number().int().min(0).optional()),
  AUDIO_BITRATE_KBPS: z.coerce.number().int().min(6).max(128).default(20),
  // Megabytes of audio one account may keep (kept recordings and live recordings still arriving);
  // unset: no quota. Beyond it, uploads that keep their audio and live appends are refused (413).
  AUDIO_QUOTA_MB: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : Number(v)))
    .pipe(z.number().positive().optional()),

  // Live recordings (lib/transcription/live): how many one account may have open at once (0: no
  // limit), and the minutes without an append after which one no longer counts as open and the
  // sweep makes it a note.
  LIVE_RECORDINGS_OPEN_MAX: z.coerce.number().int().min(0).default(3),
  LIVE_RECORDING_IDLE_MINUTES: z.coerce.number().positive().default(10),
  // How many live recordings in this process get captions as each phrase ends (a stream
  // recognizer each, keeping up with speech on part of a core); the others' captions come a piece
  // at a time. Default: one per core; 0 turns them off.
  LIVE_CAPTION_STREAMS: z.coerce.number().int().min(0).optional(),

  // Webhooks (lib/webhooks): deliveries to loopback and private networks (a self-hoster's LAN) are
  // refused unless this is true; link-local and cloud-metadata addresses are refused always.
  WEBHOOKS_ALLOW_PRIVATE: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  // Seconds between a failed delivery and its next attempt, one per retry (default: about a day in
  // all, as Standard Webhooks suggests). An endpoint that fails through all of them is disabled.
  WEBHOOKS_RETRY_SCHEDULE: z
    .string()
    .default("5,300,1800,7200,18000,36000,36000")
    .transform((v) => v.split(",").map((s) => Number(s.trim())))
    .pipe(z.array(z.number().positive().max(7 * 24 * 3600)).min(1).max(20)),

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
