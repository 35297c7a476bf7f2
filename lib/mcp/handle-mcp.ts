import { createMcpHandler, isLegacyRequest, McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { authenticateApiKey } from "@/lib/api-keys/authenticate-api-key.ts";
import { SCOPES } from "@/lib/api-keys/scopes.ts";
import { withRequest } from "@/lib/api/with-request.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { isAllowedHost } from "@/lib/http/allowed-host.ts";
import { publicOrigin } from "@/lib/http/public-origin.ts";
import { readBodyBytes } from "@/lib/http/parse.ts";
import { limitApiRequest, limitUnknownKeys } from "@/lib/rate-limit/api-limits.ts";
import { registerTools, type Caller } from "@/lib/mcp/tools.ts";
import { authenticateAccessToken } from "@/lib/oauth/authenticate-access-token.ts";
import { MCP_PATH } from "@/lib/oauth/provider.ts";
import { registerResources } from "@/lib/mcp/resources.ts";
import { MCP_AUDIO_MAX_BYTES, MCP_BODY_MAX_BYTES, registerTranscribeTool } from "@/lib/mcp/transcribe-tool.ts";
import { registerAskTool } from "@/lib/mcp/ask-tool.ts";
import { logHandlerError } from "@/lib/mcp/errors.ts";
import { MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION, registerPostsApp } from "@/lib/mcp/posts-app.ts";

// The MCP server at /mcp: Streamable HTTP, stateless (a new server per request, so any instance
// answers), on the official TypeScript SDK 2's createMcpHandler, which takes a route handler's
// Request and returns its Response. It speaks both protocol eras, chosen by what each request
// names: 2026-07-28 (no initialize; each request carries its version and capabilities in _meta and
// the Mcp-Method/Mcp-Name headers, which the SDK checks; server/discover; list results with cache
// fields) and 2025-11-25 and older (initialize, served statelessly). A Bearer API key with its
// scopes, as the API, or an access token of this site's OAuth server (lib/oauth) for connectors
// that sign in. Against DNS rebinding, a browser page of another site (its Origin), or a request
// sent to a name this server was not given (its Host), is refused.

export { MCP_PATH };
export const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

/** RFC 9728: what this protected resource is and how to present a token to it. */
export function protectedResourceMetadata(req: Request) {
  const origin = publicOrigin(req);
  return {
    resource: `${origin}${MCP_PATH}`,
    bearer_methods_supported: ["header"],
    scopes_supported: [...SCOPES],
    authorization_servers: [origin],
    resource_name: "Voicedraft",
    resource_documentation: `${origin}/docs`,
  };
}

function challenge(req: Request) {
  return `Bearer resource_metadata="${publicOrigin(req)}${RESOURCE_METADATA_PATH}"`;
}

// A Voicedraft API key starts with vd_; any other Bearer token is taken for an OAuth access token.
function authenticate(req: Request) {
  const authorization = req.headers.get("authorization");
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
  if (token && !token.startsWith("vd_")) return authenticateAccessToken(token, publicOrigin(req));
  return authenticateApiKey(authorization);
}

// What this stateless server answers: POST (each a JSON-RPC exchange) and OPTIONS. No stream to
// open with GET (one held open per request, unlimited, was a way to swell the server), no
// session to end with DELETE: 405, as the MCP transport allows.
const ALLOW = "OPTIONS, POST";

/** GET, DELETE, PUT, PATCH /mcp: 405 in the API's error shape, with Allow. */
export const refuseMcpMethod = withRequest(async ({ req }) => {
  throw new ApiError("method_not_allowed", `${req.method} is not allowed on ${MCP_PATH}: this MCP server is stateless (no event stream to open, no session to end); send each JSON-RPC message with POST.`, {
    headers: { Allow: ALLOW },
  });
});

/** OPTIONS /mcp: what it answers (Next's own answer would list the refused methods too). */
export const answerMcpOptions = withRequest(async () => new Response(null, { status: 204, headers: { Allow: ALLOW } }));

// What a client may cache (2026-07-28's ttlMs and cacheScope): the lists and the discovery answer
// depend on the key's scopes and change only with a release, so a few minutes, for that caller
// only; a note or its posts may change at any moment, so not at all.
const LIST_CACHE = { ttlMs: 5 * 60_000, cacheScope: "private" } as const;
const CACHE_HINTS = {
  "server/discover": LIST_CACHE,
  "tools/list": LIST_CACHE,
  "prompts/list": LIST_CACHE,
  "resources/list": LIST_CACHE,
  "resources/templates/list": LIST_CACHE,
  "resources/read": { ttlMs: 0, cacheScope: "private" },
} as const;

/** The server for one caller: the tools, resources and prompts its scopes open. */
function mcpServer(caller: Caller): McpServer {
  const server = new McpServer(
    { name: "voicedraft", title: "Voicedraft", version: "0.1.0" },
    // The lists change only with a release, so no list_changed is ever sent: said so, the SDK would
    // otherwise offer it, and a 2026-07-28 subscriptions/listen would hold a stream open for nothing.
    // MCP Apps: get_posts' page (lib/mcp/posts-app.ts), for hosts that render it.
    {
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false },
        prompts: { listChanged: false },
        logging: {},
        extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } },
      },
      cacheHints: CACHE_HINTS,
    },
  );
  registerTools(server, caller);
  registerTranscribeTool(server, caller);
  registerAskTool(server, caller);
  if (caller.scopes.includes("transcribe")) registerResources(server, caller);
  registerPostsApp(server, caller);
  return server;
}

// 2026-07-28 requests: one handler for every request, which holds nothing between them and builds
// each one's server from the caller authenticated here, handed to it as the request's authInfo
// (the SDK never reads it from a header). It refuses 2025-era requests: those are routed below.
const CALLER = "voicedraft_caller";
const modernHandler = createMcpHandler(({ authInfo }) => mcpServer(authInfo?.extra?.[CALLER] as Caller), {
  legacy: "reject",
  maxRequestBodySize: MCP_BODY_MAX_BYTES,
  onerror: (err) => logHandlerError(err),
});

/** An MCP request with its body read and parsed once: the SDK is handed the parsed message (its `parsedBody`) and never reads the body again. */
type ReadRequest = { req: Request; parsedBody: unknown };

/**
 * 2025-11-25 and older (initialize, then each request on its own): a server and stateless transport
 * per request, answering JSON as before (the SDK's own legacy leg would answer each in an event
 * stream, which no client of this server needs).
 */
async function answerLegacy({ req, parsedBody }: ReadRequest, caller: Caller): Promise<Response> {
  const server = mcpServer(caller);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MCP_BODY_MAX_BYTES });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req, { parsedBody });
  } finally {
    await server.close();
  }
}

/** The request answered in the revision it names: 2026-07-28 by its _meta and headers, else 2025's. */
async function answerMcp(read: ReadRequest, caller: Caller): Promise<Response> {
  if (await isLegacyRequest(read.req, read.parsedBody, { maxRequestBodySize: MCP_BODY_MAX_BYTES })) return answerLegacy(read, caller);
  const authInfo = { token: "", clientId: caller.userId, scopes: [...caller.scopes], extra: { [CALLER]: caller } };
  return modernHandler.fetch(read.req, { authInfo, parsedBody: read.parsedBody });
}

const MEGABYTE = 1024 * 1024;

/**
 * The request with its body read, at most MCP_BODY_MAX_BYTES (413 payload_too_large beyond, in the
 * API's error shape, saying the limit): the same bound transcribe_audio's recording is within.
 * Parsed here, once: the SDK would parse it twice (to choose the revision, then to answer), each a
 * copy of a recording's 35 MB. A body that is not JSON is handed on as it came, for the SDK's
 * own Parse error.
 */
async function readRequest(req: Request): Promise<ReadRequest> {
  let bytes: Buffer;
  try {
    bytes = await readBodyBytes(req, MCP_BODY_MAX_BYTES);
  } catch (err) {
    if (!(err instanceof ApiError && err.code === "payload_too_large")) throw err;
    throw new ApiError(
      "payload_too_large",
      `An MCP request's body is at most ${MCP_BODY_MAX_BYTES} bytes (${(MCP_BODY_MAX_BYTES / MEGABYTE).toFixed(1)} MiB: transcribe_audio's recording of up to ${MCP_AUDIO_MAX_BYTES / MEGABYTE} MiB in base64, and the JSON-RPC message around it). Send a shorter recording, or upload it to POST /transcribe.`,
    );
  }
  const init = { method: req.method, headers: req.headers, signal: req.signal };
  try {
    if (bytes.length) return { req: new Request(req.url, init), parsedBody: JSON.parse(bytes.toString("utf8")) };
  } catch {
    // not JSON: the SDK answers it
  }
  return { req: new Request(req.url, { ...init, body: new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength) }), parsedBody: undefined };
}

/**
 * A body this large carries a recording (transcribe_audio's). A person has at most
 * LARGE_CALLS_PER_PERSON such calls under way (being read, waiting for their turn in the tool, or
 * transcribed), over all their keys; the next is refused before its body is read, so one person
 * cannot fill the server's memory with their recordings. (Its turn is not taken here: a body that
 * trickles in would hold a turn every person's heavy work shares.) A body of undeclared length
 * waits for its turn in the tool only.
 */
const LARGE_BODY_BYTES = MEGABYTE;
/** A person's large calls under way at once: two recognized and two waiting; each holds its body in memory. */
export const LARGE_CALLS_PER_PERSON = 4;
// On globalThis: Next bundles lib/ more than once into one process, and one process keeps one count.
const kept = globalThis as unknown as { voicedraftLargeMcpCalls?: Map<string, number> };

async function answerLarge(req: Request, caller: Caller): Promise<Response> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (!(declared > LARGE_BODY_BYTES)) return answerMcp(await readRequest(req), caller);
  const calls = (kept.voicedraftLargeMcpCalls ??= new Map());
  const under = calls.get(caller.userId) ?? 0;
  if (under >= LARGE_CALLS_PER_PERSON) {
    throw new ApiError("rate_limited", `You have ${LARGE_CALLS_PER_PERSON} recordings under way over MCP; wait for one to end. Try again in 2 s.`, { headers: { "Retry-After": "2" } });
  }
  calls.set(caller.userId, under + 1);
  try {
    return await answerMcp(await readRequest(req), caller);
  } finally {
    const left = (calls.get(caller.userId) ?? 1) - 1;
    if (left) calls.set(caller.userId, left);
    else calls.delete(caller.userId);
  }
}

export const handleMcp = withRequest(async ({ req, requestId }) => {
  // The public origin first: a malformed Host is 400 invalid_host, before any other answer.
  publicOrigin(req);
  if (!isAllowedHost(req)) {
    throw new ApiError("unknown_host", "This MCP server answers the names it is configured with: set NEXTAUTH_URL to the address your assistant uses.");
  }
  const origin = req.headers.get("origin");
  if (origin && origin !== publicOrigin(req)) {
    throw new ApiError("cross_site_request", "This MCP server answers programs and this site's own pages, not another site's.");
  }
  let key;
  try {
    key = await limitUnknownKeys(req, () => authenticate(req));
  } catch (err) {
    if (err instanceof ApiError && err.code === "unauthorized") {
      throw new ApiError("unauthorized", `${err.message} Connect your assistant to ${publicOrigin(req)}${MCP_PATH} (it signs you in), or create a key in Voicedraft (Settings → API keys) and give it to your assistant.`, {
        headers: { "WWW-Authenticate": challenge(req) },
      });
    }
    throw err;
  }
  const limitHeaders = await limitApiRequest(key);
  const caller = { userId: key.userId, scopes: key.scopes, requestId, origin: publicOrigin(req), signal: req.signal };
  const response = await answerLarge(req, caller);
  for (const [name, value] of Object.entries(limitHeaders)) response.headers.set(name, value);
  return response;
});
