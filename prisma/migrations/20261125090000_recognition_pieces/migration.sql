-- CreateTable
CREATE TABLE "recognition_workflows" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "pieces_total" INTEGER NOT NULL,
    "duration_sec" DOUBLE PRECISION NOT NULL,
    "prompt" TEXT,
    "language" TEXT,
    "error_code" TEXT,
    "error_message" TEXT,
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "recognition_workflows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "recognition_pieces" (
    "workflow_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "start_sec" DOUBLE PRECISION NOT NULL,
    "end_sec" DOUBLE PRECISION NOT NULL,
    "status" TEXT NOT NULL,
    "audio" BYTEA,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "execution_id" TEXT,
    "job_id" TEXT,
    "heartbeat_at" TIMESTAMPTZ(3),
    "result" JSONB,
    "error_code" TEXT,
    "error_message" TEXT,
    "completed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "recognition_pieces_pkey" PRIMARY KEY ("workflow_id","index")
);

-- CreateIndex
CREATE UNIQUE INDEX "recognition_workflows_user_id_request_hash_key" ON "recognition_workflows"("user_id", "request_hash");

-- CreateIndex
CREATE INDEX "recognition_pieces_status_heartbeat_at_idx" ON "recognition_pieces"("status", "heartbeat_at");

-- AddForeignKey
ALTER TABLE "recognition_workflows" ADD CONSTRAINT "recognition_workflows_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "recognition_pieces" ADD CONSTRAINT "recognition_pieces_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "recognition_workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;
