// The MCP SDK's own client (SDK 2) on the /mcp route handler, as an assistant with a key reaches
// it: its requests handed to the handler in this process, as Next would hand them. It speaks the
// revision asked for: 2026-07-28 (server/discover, then each request on its own) or 2025-11-25
// (initialize first).
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { POST as mcp } from "@/app/mcp/route.ts";

export type McpRevision = "2026-07-28" | "2025-11-25";

/** `apps`: the client says it renders MCP Apps (a host such as Claude's), as each 2026-07-28 request carries. */
export async function connectMcp(key: string, revision: McpRevision = "2026-07-28", { apps = false }: { apps?: boolean } = {}): Promise<Client> {
  const capabilities = apps ? { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } } } : {};
  const client = new Client(
    { name: "test-assistant", version: "1.0.0" },
    revision === "2026-07-28" ? { ...capabilities, versionNegotiation: { mode: { pin: "2026-07-28" } } } : { ...capabilities, supportedProtocolVersions: ["2025-11-25"] },
  );
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: (url, init) => mcp(new Request(url, init), { params: Promise.resolve({}) }),
  });
  await client.connect(transport);
  return client;
}
