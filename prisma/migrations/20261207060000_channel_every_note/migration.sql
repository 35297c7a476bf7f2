-- A channel the person wants a post for from every note: its post is written as soon as the note's
-- text is ready (with the channels their recent notes were shared to), before "Make posts" is tapped.
ALTER TABLE "channels" ADD COLUMN "write_for_every_note" BOOLEAN NOT NULL DEFAULT false;
