-- Issue 69: the note's text as it was before the person's first edit (the recognized text with the
-- dictionary), so that an edit back to what the note showed then (Undo of "Fix a word") makes the
-- note unedited again: it shows its clean-up again and says so, not "your edited note".
ALTER TABLE "transcriptions" ADD COLUMN "text_before_edit" TEXT;
