-- AlterTable
ALTER TABLE "transcriptions" ADD COLUMN "recording_id" TEXT,
ADD COLUMN "recording_part" INTEGER;

-- CreateIndex
CREATE INDEX "transcriptions_user_id_recording_id_recording_part_idx" ON "transcriptions"("user_id", "recording_id", "recording_part");
