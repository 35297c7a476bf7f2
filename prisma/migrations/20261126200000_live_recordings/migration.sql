-- Recordings sent while they are made: their audio as it arrives, cut into recognition pieces.
CREATE TABLE "live_recordings" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "bytes_received" INTEGER NOT NULL DEFAULT 0,
    "heard_until" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "pieces_cut" INTEGER NOT NULL DEFAULT 0,
    "workflow_id" TEXT NOT NULL,
    "transcription_id" TEXT,
    "recorded_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "live_recordings_pkey" PRIMARY KEY ("user_id","id")
);

CREATE TABLE "live_recording_chunks" (
    "user_id" TEXT NOT NULL,
    "recording_id" TEXT NOT NULL,
    "offset" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "live_recording_chunks_pkey" PRIMARY KEY ("user_id","recording_id","offset")
);

CREATE INDEX "live_recordings_status_updated_at_idx" ON "live_recordings"("status", "updated_at");

ALTER TABLE "live_recordings" ADD CONSTRAINT "live_recordings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "live_recording_chunks" ADD CONSTRAINT "live_recording_chunks_user_id_recording_id_fkey" FOREIGN KEY ("user_id", "recording_id") REFERENCES "live_recordings"("user_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
