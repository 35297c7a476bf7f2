-- Issue 68: the install's owner, invitations, pairing a phone, and what a session is on.

-- The owner: the first account made on the install. An existing install's oldest account becomes it
-- (by created_at, then id: ids are UUIDv7, in creation order). At most one owner.
ALTER TABLE "users" ADD COLUMN "is_owner" BOOLEAN NOT NULL DEFAULT false;
UPDATE "users" SET "is_owner" = true
  WHERE "id" = (SELECT "id" FROM "users" ORDER BY "created_at", "id" LIMIT 1);
CREATE UNIQUE INDEX "users_one_owner_key" ON "users" ("is_owner") WHERE "is_owner";

-- Sessions say when they began and on what (Settings → Signed-in devices). Existing ones began
-- before this was kept: now() is the closest honest value the upgrade has.
ALTER TABLE "sessions" ADD COLUMN "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
ALTER TABLE "sessions" ADD COLUMN "device" TEXT;
ALTER TABLE "sessions" ADD COLUMN "paired" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "invitations" (
    "id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_by_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "used_by_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");
CREATE INDEX "invitations_created_by_id_idx" ON "invitations"("created_by_id");
CREATE INDEX "invitations_used_by_id_idx" ON "invitations"("used_by_id");
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_used_by_id_fkey" FOREIGN KEY ("used_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "pairing_codes" (
    "id" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "pairing_codes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "pairing_codes_code_hash_key" ON "pairing_codes"("code_hash");
CREATE INDEX "pairing_codes_user_id_idx" ON "pairing_codes"("user_id");
ALTER TABLE "pairing_codes" ADD CONSTRAINT "pairing_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
