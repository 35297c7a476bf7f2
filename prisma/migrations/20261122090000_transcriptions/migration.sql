-- CreateTable
CREATE TABLE "transcriptions" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "raw_text" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "duration_sec" DOUBLE PRECISION NOT NULL,
    "engine" TEXT NOT NULL,
    "segments" JSONB NOT NULL DEFAULT '[]',
    "dictionary_replacements" INTEGER NOT NULL DEFAULT 0,
    "audio_sha256" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "transcriptions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "transcriptions_user_id_created_at_idx" ON "transcriptions"("user_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "transcriptions_user_id_idempotency_key_key" ON "transcriptions"("user_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "transcriptions" ADD CONSTRAINT "transcriptions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
