import net, { type AddressInfo } from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import { ScramExchange, scramVerifier, type ScramVerifier } from "@/lib/db/scram.ts";

// Serves one PGlite instance over the Postgres wire protocol to many client connections.
//
// PGlite is a single Postgres session, so connections must take turns. A turn is a whole
// protocol exchange — everything a client sends up to its Sync (extended protocol) or its Query
// (simple protocol) — and it lasts while the session is inside that client's transaction.
// (@electric-sql/pglite-socket takes turns per message instead, so two clients' Parse/Bind/
// Execute sequences interleave: "unnamed prepared statement does not exist", or one client's
// statement executed with another's parameters. We measured both under 12 concurrent requests.)
// Session-level state (SET, named prepared statements, temp tables) is still shared by all.
// So one client idle inside its transaction stalls everyone: it is disconnected (and rolled back)
// after idleInTransactionMs, and any client holding the session past maxTurnMs is too.
// Clients authenticate with SCRAM-SHA-256 against a password only the hosting user can read.

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** Where an exchange ends: the server answers with ReadyForQuery after these. */
const EXCHANGE_END = new Set(["S".charCodeAt(0), "Q".charCodeAt(0)]);
const TERMINATE = "X".charCodeAt(0);
const PASSWORD_MESSAGE = "p".charCodeAt(0);
const AUTH_SASL = 10;
const AUTH_SASL_CONTINUE = 11;
const AUTH_SASL_FINAL = 12;
const AUTH_TIMEOUT_MS = 10_000;
// Before signing in, a client may send no more than PostgreSQL allows (its startup and
// authentication messages are at most 10,000 bytes): a declared 2 GB length is refused at once,
// not buffered. After, one exchange (its messages up to Sync, handed to PGlite as one buffer) may
// carry up to 64 MiB: the largest we send is a recognition piece's audio, at most 600 s of 16 kHz
// 16-bit WAV (19 MB), which pg sends hex-encoded (38 MB). PostgreSQL allows 1 GB a message; held
// in this process, several at once, that would take the launcher down.
export const MAX_UNAUTHENTICATED_MESSAGE_BYTES = 10_000;
export const MAX_EXCHANGE_BYTES = 64 * 1024 * 1024;

export type WireServer = { port: number; stop(): Promise<void> };

/** A session that clients take turns on, in arrival order. */
class Turns {
  private owner: object | null = null;
  private readonly waiting: { client: object; grant: () => void }[] = [];

  isOwner(client: object): boolean {
    return this.owner === client;
  }

  async acquire(client: object): Promise<void> {
    if (this.owner === client) return;
    if (this.owner === null) {
      this.owner = client;
      return;
    }
    await new Promise<void>((grant) => this.waiting.push({ client, grant }));
  }

  release(client: object): void {
    if (this.owner !== client) return;
    const next = this.waiting.shift();
    this.owner = next?.client ?? null;
    next?.grant();
  }

  forget(client: object): void {
    const index = this.waiting.findIndex((w) => w.client === client);
    if (index >= 0) this.waiting.splice(index, 1);
    this.release(client);
  }
}

type Limits = { idleInTransactionMs: number; maxTurnMs: number };

class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  // The rest of a message still arriving, joined once it is whole: joining at every chunk copied
  // the buffer again each time (8.5 s for a 19 MB value, quadratic in its size).
  private parts: Buffer[] = [];
  private partsBytes = 0;
  private awaiting = 0;
  private phase: "startup" | "auth" | "ready" = "startup";
  private startupPacket: Buffer | undefined;
  private scram: ScramExchange | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private work: Promise<void> = Promise.resolve();
  private closed = false;
  private running = false;
  private holdingTurn = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private turnTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly socket: net.Socket,
    private readonly db: PGlite,
    private readonly turns: Turns,
    private readonly verifier: ScramVerifier | undefined,
    private readonly limits: Limits,
  ) {
    socket.setNoDelay(true);
    socket.on("data", (chunk) => this.receive(chunk));
    socket.on("error", () => this.close());
    socket.on("close", () => this.close());
    // A client that never finishes signing in must not keep a connection slot.
    const signIn = setTimeout(() => this.phase !== "ready" && this.fatal("08006", "authentication timed out"), AUTH_TIMEOUT_MS);
    signIn.unref();
    socket.once("close", () => clearTimeout(signIn));
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return; // refused or closing: nothing more is read, nor kept
    this.parts.push(chunk);
    this.partsBytes += chunk.length;
    if (this.buffer.length + this.partsBytes < this.awaiting) return;
    this.buffer = this.buffer.length || this.parts.length > 1 ? Buffer.concat([this.buffer, ...this.parts]) : chunk;
    this.parts = [];
    this.partsBytes = 0;
    this.awaiting = 0;
    while (!this.closed) {
      if (this.phase === "startup") {
        if (this.buffer.length < 8) return;
        const length = this.buffer.readInt32BE(0);
        if (length < 8 || length > MAX_UNAUTHENTICATED_MESSAGE_BYTES) return this.fatal("08P01", "invalid length of startup packet");
        if (this.buffer.length < length) return void (this.awaiting = length);
        const code = this.buffer.readInt32BE(4);
        const packet = Buffer.from(this.buffer.subarray(0, length));
        this.buffer = this.buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          this.socket.write("N");
        } else if (code === CANCEL_REQUEST) {
          this.socket.end(); // not supported; the statement runs to completion
          return;
        } else if (code === PROTOCOL_3) {
          if (this.verifier) {
            this.phase = "auth";
            this.startupPacket = packet;
            this.socket.write(authMessage(AUTH_SASL, Buffer.from("SCRAM-SHA-256\0\0")));
          } else {
            this.phase = "ready";
            this.schedule([packet]);
          }
        } else {
          this.socket.destroy();
          return;
        }
        continue;
      }
      if (this.buffer.length < 5) return;
      const type = this.buffer[0];
      const length = this.buffer.readInt32BE(1) + 1;
      const limit = this.phase === "auth" ? MAX_UNAUTHENTICATED_MESSAGE_BYTES : MAX_EXCHANGE_BYTES;
      if (length < 5 || length > limit) return this.fatal("08P01", `invalid message length ${length - 1}`);
      if (this.pendingBytes + length > MAX_EXCHANGE_BYTES) {
        return this.fatal("54000", `the messages before Sync exceed ${MAX_EXCHANGE_BYTES} bytes`);
      }
      if (this.buffer.length < length) return void (this.awaiting = length);
      const message = Buffer.from(this.buffer.subarray(0, length));
      this.buffer = this.buffer.subarray(length);
      if (type === TERMINATE) {
        this.socket.end();
        return;
      }
      if (this.phase === "auth") {
        this.authenticate(type, message);
        continue;
      }
      this.pending.push(message);
      this.pendingBytes += length;
      if (EXCHANGE_END.has(type)) {
        this.schedule(this.pending);
        this.pending = [];
        this.pendingBytes = 0;
      }
    }
  }

  /** SASLInitialResponse, then SASLResponse ('p' both); the startup packet goes to PGlite after. */
  private authenticate(type: number, message: Buffer): void {
    if (type !== PASSWORD_MESSAGE || !this.verifier) return this.fatal("28000", "expected a SASL response");
    if (!this.scram) {
      const end = message.indexOf(0, 5);
      const mechanism = message.toString("utf8", 5, end);
      this.scram = new ScramExchange(this.verifier);
      const reply = mechanism === "SCRAM-SHA-256" ? this.scram.start(message.toString("utf8", end + 5)) : null;
      if (reply === null) return this.fatal("28000", "SCRAM-SHA-256 authentication expected");
      this.socket.write(authMessage(AUTH_SASL_CONTINUE, Buffer.from(reply)));
      return;
    }
    const final = this.scram.finish(message.toString("utf8", 5));
    if (final === null) return this.fatal("28P01", "password authentication failed (the secret is in DATA_DIR)");
    this.socket.write(authMessage(AUTH_SASL_FINAL, Buffer.from(final)));
    this.phase = "ready";
    this.schedule([this.startupPacket!]);
  }

  /** Runs one exchange after the previous one of this connection, when the session is ours. */
  private schedule(messages: Buffer[]): void {
    const exchange = Buffer.concat(messages);
    clearTimeout(this.idleTimer);
    this.work = this.work.then(async () => {
      if (this.closed) return;
      await this.turns.acquire(this);
      if (!this.holdingTurn) {
        this.holdingTurn = true;
        this.turnTimer = setTimeout(() => this.overstayed(), this.limits.maxTurnMs);
      }
      this.running = true;
      try {
        if (this.closed) return;
        await this.db.runExclusive(() =>
          this.db.execProtocolRawStream(exchange, {
            // `data` is a view of PGlite's memory, where it writes the next piece of the reply:
            // a socket that cannot send at once queues the view itself, so it is copied (without
            // the copy, a reply of megabytes read by a slow client arrived with later bytes in
            // place of earlier ones, and the client hung or broke off).
            onRawData: (data) => {
              if (!this.socket.destroyed) this.socket.write(Buffer.from(data));
            },
          }),
        );
      } catch {
        this.socket.destroy();
      } finally {
        this.running = false;
        // Keep the session while our transaction is open so nobody else runs inside it, but not
        // for long: an idle transaction would stall every other client.
        if (!this.db.isInTransaction()) this.releaseTurn();
        else if (!this.closed) {
          this.idleTimer = setTimeout(
            () => this.fatal("25P03", "terminating connection due to idle-in-transaction timeout"),
            this.limits.idleInTransactionMs,
          );
        }
      }
    });
  }

  private overstayed(): void {
    if (this.turns.isOwner(this)) this.fatal("57014", `terminating connection: it held the database for over ${this.limits.maxTurnMs} ms`);
  }

  private releaseTurn(): void {
    this.holdingTurn = false;
    clearTimeout(this.turnTimer);
    this.turns.release(this);
  }

  /** Ends the connection with an error; close() rolls back what it left open. */
  private fatal(code: string, message: string): void {
    if (this.closed) return;
    // Mid-exchange, an error would interleave with PGlite's reply; just drop the connection.
    if (!this.running) this.socket.write(errorResponse(code, message));
    this.socket.end();
    this.socket.destroySoon();
    // A client that keeps sending and never reads would hold the socket open: a second at most.
    setTimeout(() => this.socket.destroy(), 1000).unref();
    this.buffer = Buffer.alloc(0);
    this.parts = [];
    this.pending = [];
    this.close();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.idleTimer);
    this.work = this.work.then(async () => {
      // A client that vanished inside its transaction must not leave it open for everyone.
      if (this.turns.isOwner(this) && this.db.isInTransaction()) {
        await this.db.exec("ROLLBACK").catch(() => undefined);
      }
      this.holdingTurn = false;
      clearTimeout(this.turnTimer);
      this.turns.forget(this);
    });
  }
}

function authMessage(code: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(9);
  header.write("R", 0);
  header.writeInt32BE(8 + payload.length, 1);
  header.writeInt32BE(code, 5);
  return Buffer.concat([header, payload]);
}

function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`);
  const header = Buffer.alloc(5);
  header.write("E", 0);
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}

export type WireOptions = {
  maxConnections?: number;
  /** Clients must prove they know it (SCRAM-SHA-256); unset: no authentication. */
  password?: string;
  /** A client idle inside its transaction this long is rolled back and disconnected. */
  idleInTransactionMs?: number;
  /** A client holding the session (one transaction or statement) this long is disconnected. */
  maxTurnMs?: number;
};

/** Serves `db` on 127.0.0.1 at an ephemeral port. */
export async function serveWire(
  db: PGlite,
  { maxConnections = 64, password, idleInTransactionMs = 10_000, maxTurnMs = 60_000 }: WireOptions = {},
): Promise<WireServer> {
  const turns = new Turns();
  const verifier = password === undefined ? undefined : scramVerifier(password);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    if (sockets.size >= maxConnections) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    new Connection(socket, db, turns, verifier, { idleInTransactionMs, maxTurnMs });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
