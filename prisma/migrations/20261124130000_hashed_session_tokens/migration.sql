-- Browser sessions are stored as the SHA-256 of their cookie token, like API keys. The plain
-- tokens cannot be kept, so every existing session ends: people sign in once more.
DELETE FROM "sessions";

-- AlterTable
ALTER TABLE "sessions" RENAME COLUMN "session_token" TO "token_hash";

-- RenameIndex
ALTER INDEX "sessions_session_token_key" RENAME TO "sessions_token_hash_key";
