// The MCP SDK's own client on the /mcp route handler, as an assistant with a key reaches it: its
// requests handed to the handler in this process, as Next would hand them.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { POST as mcp } from "@/app/mcp/route.ts";

export async function connectMcp(key: string): Promise<Client> {
  const client = new Client({ name: "test-assistant", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: (url, init) => mcp(new Request(url, init), { params: Promise.resolve({}) }),
  });
  await client.connect(transport);
  return client;
}
