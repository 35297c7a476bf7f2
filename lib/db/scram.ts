import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from "node:crypto";

// SCRAM-SHA-256 (RFC 5802, RFC 7677) as PostgreSQL speaks it, server side: the client proves it
// knows the password without sending it, and `pg` (hence Prisma and pg-boss) does it natively.
const ITERATIONS = 4096;

export type ScramVerifier = { salt: Buffer; storedKey: Buffer; serverKey: Buffer };

const hmac = (key: Buffer, data: string) => createHmac("sha256", key).update(data).digest();

/** What the server keeps of a password (computed once; PBKDF2 is slow on purpose). */
export function scramVerifier(password: string): ScramVerifier {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password.normalize("NFKC"), salt, ITERATIONS, 32, "sha256");
  return {
    salt,
    storedKey: createHash("sha256").update(hmac(salted, "Client Key")).digest(),
    serverKey: hmac(salted, "Server Key"),
  };
}

function attribute(message: string, name: string): string | undefined {
  for (const part of message.split(",")) if (part.startsWith(`${name}=`)) return part.slice(name.length + 1);
  return undefined;
}

/** One client's authentication: `start` answers its first message, `finish` checks its proof. */
export class ScramExchange {
  private gs2Header = "";
  private clientFirstBare = "";
  private serverFirst = "";
  private nonce = "";

  constructor(private readonly verifier: ScramVerifier) {}

  /** client-first-message → server-first-message; null when malformed. */
  start(clientFirst: string): string | null {
    const match = /^([ny],[^,]*,)(.*)$/.exec(clientFirst); // no channel binding ("p=") on loopback
    const clientNonce = match && attribute(match[2], "r");
    if (!match || !clientNonce) return null;
    this.gs2Header = match[1];
    this.clientFirstBare = match[2];
    this.nonce = clientNonce + randomBytes(18).toString("base64");
    this.serverFirst = `r=${this.nonce},s=${this.verifier.salt.toString("base64")},i=${ITERATIONS}`;
    return this.serverFirst;
  }

  /** client-final-message → server-final-message; null when the proof (the password) is wrong. */
  finish(clientFinal: string): string | null {
    const at = clientFinal.lastIndexOf(",p=");
    if (at < 0 || !this.serverFirst) return null;
    const withoutProof = clientFinal.slice(0, at);
    if (attribute(withoutProof, "r") !== this.nonce) return null;
    if (attribute(withoutProof, "c") !== Buffer.from(this.gs2Header).toString("base64")) return null;
    const proof = Buffer.from(clientFinal.slice(at + 3), "base64");
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${withoutProof}`;
    const signature = hmac(this.verifier.storedKey, authMessage);
    if (proof.length !== signature.length) return null;
    const clientKey = Buffer.from(proof.map((byte, i) => byte ^ signature[i]));
    const storedKey = createHash("sha256").update(clientKey).digest();
    if (!timingSafeEqual(storedKey, this.verifier.storedKey)) return null;
    return `v=${hmac(this.verifier.serverKey, authMessage).toString("base64")}`;
  }
}
