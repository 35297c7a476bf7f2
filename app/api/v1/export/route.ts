import { withOperation } from "@/lib/api/with-operation.ts";
import { exportStream } from "@/lib/export/export-archive.ts";
import * as api from "@/lib/accounts/contracts.ts";

// GET /api/v1/export – everything of yours as a ZIP, streamed as it is made
export const GET = withOperation(api.exportUserData, async ({ user }) => {
  const filename = `voicedraft-export-${new Date().toISOString().slice(0, 10)}.zip`;
  return new Response(exportStream({ userId: user.id }), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${filename}"`,
      // Someone's whole account: never kept by a cache.
      "Cache-Control": "private, no-store",
    },
  });
});
