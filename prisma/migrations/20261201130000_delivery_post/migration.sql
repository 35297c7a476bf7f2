-- A thread is shared post by post (issue 56): each share, copy or export of one post is a delivery
-- of its own, and says which post it presented (1-based). Null: the whole variant, as before.
ALTER TABLE "content_deliveries" ADD COLUMN "post" INTEGER;
