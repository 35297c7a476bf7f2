-- CreateTable
CREATE TABLE "transcription_claims" (
    "user_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "transcription_claims_pkey" PRIMARY KEY ("user_id","idempotency_key")
);

-- CreateTable
-- UNLOGGED: a counter is not worth a WAL flush per request; a crash only forgets the counts.
CREATE UNLOGGED TABLE "rate_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);

-- AddForeignKey
ALTER TABLE "transcription_claims" ADD CONSTRAINT "transcription_claims_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
