import { createHmac } from "node:crypto";
import type { NextAuthOptions, Session } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { serviceSecret } from "@/lib/internal/service-secret.ts";
import { verifyCredentials } from "@/lib/auth/verify-credentials.ts";
import { clientIp } from "@/lib/http/client-ip.ts";
import { createSession, deleteSession, findSession, SESSION_MAX_AGE_SECONDS, touchSession } from "@/lib/auth/sessions.ts";

const headerValue = (value: unknown) => (typeof value === "string" ? value : null);

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
        authorize: (credentials, req) =>
          verifyCredentials(credentials ?? {}, { ip: clientIp({ get: (name) => headerValue(req.headers?.[name]) }) }),
      }),
    ],
    jwt: {
      async encode({ token }) {
        if (typeof token?.sessionToken === "string") {
          const session = await findSession(token.sessionToken);
          if (session) return (await touchSession(session)).sessionToken;
        }
        if (typeof token?.sub !== "string") throw new Error("no user to start a session for");
        return (await createSession({ userId: token.sub })).sessionToken;
      },
      async decode({ token }) {
        const session = await findSession(token);
        return session && { sub: session.userId, sessionToken: session.sessionToken };
      },
    },
    callbacks: {
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
