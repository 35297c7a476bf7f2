import { answerMcpOptions, handleMcp, refuseMcpMethod } from "@/lib/mcp/handle-mcp.ts";

// POST /mcp – the MCP server (Streamable HTTP, stateless): tools over the person's notes and posts
export const POST = handleMcp;
// OPTIONS /mcp – Allow: OPTIONS, POST
export const OPTIONS = answerMcpOptions;
// GET, DELETE, PUT, PATCH /mcp – 405 with Allow: no event stream to open and no session to end on a stateless server
export const GET = refuseMcpMethod;
export const DELETE = refuseMcpMethod;
export const PUT = refuseMcpMethod;
export const PATCH = refuseMcpMethod;
