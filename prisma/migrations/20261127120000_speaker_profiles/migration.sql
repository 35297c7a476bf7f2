-- Where each person's voice settled in their latest recognition (PocketSphinx's cepstral mean), for
-- their next recording to start from (lib/transcription/recognition/speaker-profile.ts).
CREATE TABLE "speaker_profiles" (
    "user_id" TEXT NOT NULL,
    "cepstral_mean" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "speaker_profiles_pkey" PRIMARY KEY ("user_id")
);

ALTER TABLE "speaker_profiles" ADD CONSTRAINT "speaker_profiles_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
