-- A live recording's piece starts with a little already-heard audio as context; its words are dropped.
ALTER TABLE "recognition_pieces" ADD COLUMN "lead_sec" DOUBLE PRECISION NOT NULL DEFAULT 0;
