import { createHmac } from "node:crypto";
import type { NextAuthOptions, Session, User } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { serviceSecret } from "@/lib/internal/service-secret.ts";
import { verifyCredentials } from "@/lib/auth/verify-credentials.ts";
import { deviceName } from "@/lib/auth/device-name.ts";
import { redeemPairingCode } from "@/lib/auth/pairing-codes.ts";
import { clientIp } from "@/lib/http/client-ip.ts";
import { publicOriginOfHeaders } from "@/lib/http/public-origin.ts";
import { createSession, deleteSession, findSession, SESSION_MAX_AGE_SECONDS, touchSession } from "@/lib/auth/sessions.ts";

// next-auth is CommonJS: Next's bundler hands its default export over, Node's ESM loader (the
// tests, through tsx) the module object around it.
const CredentialsProvider = (Credentials as unknown as { default?: typeof Credentials }).default ?? Credentials;

type RequestHeaders = Record<string, unknown> | undefined;
const headerValue = (value: unknown) => (typeof value === "string" ? value : null);
const headersOf = (headers: RequestHeaders) => ({ get: (name: string) => headerValue(headers?.[name]) });
const asHeaders = (headers: RequestHeaders) =>
  new Headers(Object.entries(headers ?? {}).flatMap(([name, value]) => (typeof value === "string" ? [[name, value] as [string, string]] : [])));

/** What a sign-in carries into its session's row: the device it is on, and whether a pairing code began it. */
type SigningIn = User & { device?: string | null; paired?: boolean };

// next-auth v4 refuses the "database" strategy with only a credentials provider, so the session
// "JWT" is replaced by an opaque token of a row in the sessions table: encode creates (or renews)
// the row, decode looks it up. Sessions therefore live in the database and end on sign-out.
export async function authOptions(): Promise<NextAuthOptions> {
  const secret = createHmac("sha256", await serviceSecret()).update("next-auth").digest("base64url");
  return {
    secret,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        // A back-off refusal is thrown: next-auth answers 401 with its message as the error.
        async authorize(credentials, req) {
          const user = await verifyCredentials(credentials ?? {}, { ip: clientIp(headersOf(req.headers)) });
          return user && ({ ...user, device: deviceName(headerValue(req.headers?.["user-agent"])) } satisfies SigningIn);
        },
      }),
      // A phone signed in by a code from Settings → Add a phone (lib/auth/pairing-codes.ts): a
      // session of its own, for the account that made the code. Refusals (plain http, too many
      // tries) are thrown, so their message reaches the pairing page.
      CredentialsProvider({
        id: "pairing",
        name: "Pairing code",
        credentials: { code: { label: "Code", type: "text" } },
        async authorize(credentials, req) {
          const userId = await redeemPairingCode({
            code: typeof credentials?.code === "string" ? credentials.code.slice(0, 64) : "",
            origin: publicOriginOfHeaders(asHeaders(req.headers)),
            ip: clientIp(headersOf(req.headers)),
          });
          return userId ? ({ id: userId, device: deviceName(headerValue(req.headers?.["user-agent"])), paired: true } satisfies SigningIn) : null;
        },
      }),
    ],
    jwt: {
      async encode({ token }) {
        if (typeof token?.sessionToken === "string") {
          const session = await findSession(token.sessionToken);
          if (session) return (await touchSession(session)).sessionToken;
        }
        if (typeof token?.sub !== "string") throw new Error("no user to start a session for");
        const device = typeof token.device === "string" ? token.device : null;
        return (await createSession({ userId: token.sub, device, paired: token.paired === true })).sessionToken;
      },
      async decode({ token }) {
        const session = await findSession(token);
        return session && { sub: session.userId, sessionToken: session.sessionToken };
      },
    },
    callbacks: {
      // At sign-in, what the new session's row records about it (encode reads the token).
      jwt: ({ token, user }) => {
        const signingIn = user as SigningIn | undefined;
        return signingIn ? { ...token, device: signingIn.device ?? null, paired: signingIn.paired === true } : token;
      },
      // The service worker asks /api/auth/session whose recordings it may upload.
      session: ({ session, token }) => ({ ...session, user: { id: token.sub } as Session["user"] }),
    },
    events: {
      async signOut({ token }) {
        if (typeof token?.sessionToken === "string") await deleteSession({ sessionToken: token.sessionToken });
      },
    },
  };
}
