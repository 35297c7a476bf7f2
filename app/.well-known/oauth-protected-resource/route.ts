import { withRequest } from "@/lib/api/with-request.ts";
import { json } from "@/lib/http/respond.ts";
import { protectedResourceMetadata } from "@/lib/mcp/handle-mcp.ts";

// GET /.well-known/oauth-protected-resource – RFC 9728 metadata of the MCP server at /mcp
export const GET = withRequest(async ({ req }) => json(protectedResourceMetadata(req)));
