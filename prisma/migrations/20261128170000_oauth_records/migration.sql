-- The OAuth server's storage (lib/oauth/prisma-adapter.ts): one row per oidc-provider model and
-- id, its payload as JSON, and the lookups the library asks for. A person's grants and tokens go
-- with their account.
CREATE TABLE "oauth_records" (
    "model" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grant_id" TEXT,
    "uid" TEXT,
    "user_code" TEXT,
    "account_id" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "oauth_records_pkey" PRIMARY KEY ("model","id")
);

CREATE INDEX "oauth_records_grant_id_idx" ON "oauth_records"("grant_id");
CREATE INDEX "oauth_records_uid_idx" ON "oauth_records"("uid");
CREATE INDEX "oauth_records_user_code_idx" ON "oauth_records"("user_code");
CREATE INDEX "oauth_records_account_id_model_idx" ON "oauth_records"("account_id", "model");
CREATE INDEX "oauth_records_expires_at_idx" ON "oauth_records"("expires_at");

ALTER TABLE "oauth_records" ADD CONSTRAINT "oauth_records_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
