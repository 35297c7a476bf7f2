-- Whether LinkedIn and Facebook posts end with a line that invites replies; on for every preset,
-- the built-in ones included.
ALTER TABLE "presets" ADD COLUMN "invite_replies" BOOLEAN NOT NULL DEFAULT true;
