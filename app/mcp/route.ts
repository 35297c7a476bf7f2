import { handleMcp } from "@/lib/mcp/handle-mcp.ts";

// POST /mcp – the MCP server (Streamable HTTP, stateless): tools over the person's notes and posts
export const POST = handleMcp;
// GET /mcp – no server-initiated stream in stateless mode: the transport answers 405
export const GET = handleMcp;
// DELETE /mcp – no session to end: the transport answers 405
export const DELETE = handleMcp;
