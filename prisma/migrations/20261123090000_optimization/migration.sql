-- AlterTable
ALTER TABLE "transcriptions" ADD COLUMN "optimization_id" TEXT,
ADD COLUMN "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateTable
CREATE TABLE "optimization_workflows" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "optimizer" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "call_id" TEXT NOT NULL,
    "execution_id" TEXT,
    "job_id" TEXT,
    "chunks_total" INTEGER NOT NULL,
    "chunks_done" INTEGER NOT NULL DEFAULT 0,
    "request_dictionary" JSONB NOT NULL DEFAULT '[]',
    "optimized_text" TEXT,
    "error_code" TEXT,
    "error_message" TEXT,
    "executions" INTEGER NOT NULL DEFAULT 0,
    "heartbeat_at" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "optimization_workflows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "optimization_chunks" (
    "workflow_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "input_text" TEXT NOT NULL,
    "paragraph" BOOLEAN NOT NULL DEFAULT false,
    "output_text" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "optimization_chunks_pkey" PRIMARY KEY ("workflow_id","index")
);

-- CreateIndex
CREATE INDEX "transcriptions_user_id_request_hash_idx" ON "transcriptions"("user_id", "request_hash");

-- CreateIndex
CREATE INDEX "transcriptions_optimization_id_idx" ON "transcriptions"("optimization_id");

-- CreateIndex
CREATE UNIQUE INDEX "optimization_workflows_user_id_request_hash_key" ON "optimization_workflows"("user_id", "request_hash");

-- CreateIndex
CREATE INDEX "optimization_workflows_status_heartbeat_at_idx" ON "optimization_workflows"("status", "heartbeat_at");

-- AddForeignKey
ALTER TABLE "transcriptions" ADD CONSTRAINT "transcriptions_optimization_id_fkey" FOREIGN KEY ("optimization_id") REFERENCES "optimization_workflows"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "optimization_workflows" ADD CONSTRAINT "optimization_workflows_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "optimization_chunks" ADD CONSTRAINT "optimization_chunks_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "optimization_workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;
