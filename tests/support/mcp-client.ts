// The MCP SDK's own client (SDK 2) on the /mcp route handler, as an assistant with a key reaches
// it: its requests handed to the handler in this process, as Next would hand them. It speaks the
// revision asked for: 2026-07-28 (server/discover, then each request on its own) or 2025-11-25
// (initialize first).
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { POST as mcp } from "@/app/mcp/route.ts";

export type McpRevision = "2026-07-28" | "2025-11-25";

export async function connectMcp(key: string, revision: McpRevision = "2026-07-28"): Promise<Client> {
  const client = new Client(
    { name: "test-assistant", version: "1.0.0" },
    revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : { supportedProtocolVersions: ["2025-11-25"] },
  );
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: (url, init) => mcp(new Request(url, init), { params: Promise.resolve({}) }),
  });
  await client.connect(transport);
  return client;
}
