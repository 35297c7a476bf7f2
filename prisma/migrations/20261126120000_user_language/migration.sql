-- The language a person speaks in their recordings (ISO 639-1); null: detect it in each recording.
ALTER TABLE "users" ADD COLUMN "language" TEXT;
