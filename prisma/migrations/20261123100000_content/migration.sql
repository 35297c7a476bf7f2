-- CreateTable
CREATE TABLE "channels" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "presets" (
    "id" TEXT NOT NULL,
    "user_id" TEXT,
    "name" TEXT NOT NULL,
    "tone" TEXT NOT NULL,
    "length" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "hashtags" TEXT[],
    "include_title" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "presets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "content_items" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "master_id" TEXT,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "source_transcription_id" TEXT,
    "channel_id" TEXT,
    "preset_id" TEXT,
    "source_title" TEXT,
    "source_body" TEXT,
    "source_hash" TEXT,
    "source_version" INTEGER,
    "approved_hash" TEXT,
    "approved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "content_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "generation_tasks" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "variant_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "generator" TEXT NOT NULL,
    "base_version" INTEGER NOT NULL,
    "source_title" TEXT NOT NULL,
    "source_body" TEXT NOT NULL,
    "source_hash" TEXT NOT NULL,
    "source_version" INTEGER NOT NULL,
    "result_title" TEXT,
    "result_body" TEXT,
    "error" TEXT,
    "job_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "generation_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "variant_requests" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "client_request_id" TEXT NOT NULL,
    "master_id" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "variant_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "content_deliveries" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "item_id" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "published_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "content_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "delivery_events" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "client_event_id" TEXT NOT NULL,
    "from_state" TEXT,
    "to_state" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "delivery_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "generation_callback_signatures" (
    "signature" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "generation_callback_signatures_pkey" PRIMARY KEY ("signature")
);

-- CreateIndex
CREATE INDEX "channels_user_id_created_at_idx" ON "channels"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "presets_user_id_created_at_idx" ON "presets"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "content_items_user_id_kind_created_at_idx" ON "content_items"("user_id", "kind", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "content_items_master_id_channel_id_preset_id_key" ON "content_items"("master_id", "channel_id", "preset_id");

-- CreateIndex
CREATE INDEX "generation_tasks_variant_id_created_at_idx" ON "generation_tasks"("variant_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "variant_requests_user_id_client_request_id_key" ON "variant_requests"("user_id", "client_request_id");

-- CreateIndex
CREATE INDEX "content_deliveries_item_id_created_at_idx" ON "content_deliveries"("item_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "delivery_events_user_id_client_event_id_key" ON "delivery_events"("user_id", "client_event_id");

-- CreateIndex
CREATE INDEX "generation_callback_signatures_received_at_idx" ON "generation_callback_signatures"("received_at");

-- AddForeignKey
ALTER TABLE "channels" ADD CONSTRAINT "channels_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "presets" ADD CONSTRAINT "presets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_master_id_fkey" FOREIGN KEY ("master_id") REFERENCES "content_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "channels"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_preset_id_fkey" FOREIGN KEY ("preset_id") REFERENCES "presets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "generation_tasks" ADD CONSTRAINT "generation_tasks_variant_id_fkey" FOREIGN KEY ("variant_id") REFERENCES "content_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "content_deliveries" ADD CONSTRAINT "content_deliveries_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "content_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery_events" ADD CONSTRAINT "delivery_events_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "content_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Built-in presets (user_id NULL): every user may use them; nobody may edit them.
INSERT INTO "presets" ("id", "user_id", "name", "tone", "length", "format", "hashtags", "include_title", "updated_at") VALUES
    ('builtin-standard', NULL, 'Standard post', 'neutral', 'full', 'single', ARRAY[]::TEXT[], false, CURRENT_TIMESTAMP),
    ('builtin-short', NULL, 'Short post', 'casual', 'short', 'single', ARRAY[]::TEXT[], false, CURRENT_TIMESTAMP),
    ('builtin-thread', NULL, 'Thread', 'neutral', 'full', 'thread', ARRAY[]::TEXT[], false, CURRENT_TIMESTAMP),
    ('builtin-article', NULL, 'Article with title', 'professional', 'full', 'single', ARRAY[]::TEXT[], true, CURRENT_TIMESTAMP);
