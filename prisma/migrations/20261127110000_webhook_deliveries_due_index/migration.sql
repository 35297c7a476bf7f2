-- The recovery sweep of webhook deliveries (lib/webhooks/recover-deliveries.ts) looks for pending
-- deliveries overdue by a margin every minute: an index instead of a scan of the whole log.
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");
