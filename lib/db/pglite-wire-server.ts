import net, { type AddressInfo } from "node:net";
import type { PGlite } from "@electric-sql/pglite";

// Serves one PGlite instance over the Postgres wire protocol to many client connections.
//
// PGlite is a single Postgres session, so connections must take turns. A turn is a whole
// protocol exchange — everything a client sends up to its Sync (extended protocol) or its Query
// (simple protocol) — and it lasts while the session is inside that client's transaction.
// (@electric-sql/pglite-socket takes turns per message instead, so two clients' Parse/Bind/
// Execute sequences interleave: "unnamed prepared statement does not exist", or one client's
// statement executed with another's parameters. We measured both under 12 concurrent requests.)
// Session-level state (SET, named prepared statements, temp tables) is still shared by all.

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** Where an exchange ends: the server answers with ReadyForQuery after these. */
const EXCHANGE_END = new Set(["S".charCodeAt(0), "Q".charCodeAt(0)]);
const TERMINATE = "X".charCodeAt(0);

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

class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;
  private pending: Buffer[] = [];
  private work: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly socket: net.Socket,
    private readonly db: PGlite,
    private readonly turns: Turns,
  ) {
    socket.setNoDelay(true);
    socket.on("data", (chunk) => this.receive(chunk));
    socket.on("error", () => this.close());
    socket.on("close", () => this.close());
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      if (!this.started) {
        if (this.buffer.length < 8) return;
        const length = this.buffer.readInt32BE(0);
        if (this.buffer.length < length) return;
        const code = this.buffer.readInt32BE(4);
        const packet = this.buffer.subarray(0, length);
        this.buffer = this.buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          this.socket.write("N");
        } else if (code === CANCEL_REQUEST) {
          this.socket.end(); // not supported; the statement runs to completion
          return;
        } else if (code === PROTOCOL_3) {
          this.started = true;
          this.schedule([Buffer.from(packet)]);
        } else {
          this.socket.destroy();
          return;
        }
        continue;
      }
      if (this.buffer.length < 5) return;
      const type = this.buffer[0];
      const length = this.buffer.readInt32BE(1) + 1;
      if (this.buffer.length < length) return;
      const message = Buffer.from(this.buffer.subarray(0, length));
      this.buffer = this.buffer.subarray(length);
      if (type === TERMINATE) {
        this.socket.end();
        return;
      }
      this.pending.push(message);
      if (EXCHANGE_END.has(type)) {
        this.schedule(this.pending);
        this.pending = [];
      }
    }
  }

  /** Runs one exchange after the previous one of this connection, when the session is ours. */
  private schedule(messages: Buffer[]): void {
    const exchange = Buffer.concat(messages);
    this.work = this.work.then(async () => {
      if (this.closed) return;
      await this.turns.acquire(this);
      try {
        if (this.closed) return;
        await this.db.runExclusive(() =>
          this.db.execProtocolRawStream(exchange, {
            onRawData: (data) => {
              if (!this.socket.destroyed) this.socket.write(data);
            },
          }),
        );
      } catch {
        this.socket.destroy();
      } finally {
        // Keep the session while our transaction is open so nobody else runs inside it.
        if (!this.db.isInTransaction()) this.turns.release(this);
      }
    });
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.work = this.work.then(async () => {
      // A client that vanished inside its transaction must not leave it open for everyone.
      if (this.turns.isOwner(this) && this.db.isInTransaction()) {
        await this.db.exec("ROLLBACK").catch(() => undefined);
      }
      this.turns.forget(this);
    });
  }
}

/** Serves `db` on 127.0.0.1 at an ephemeral port. */
export async function serveWire(db: PGlite, { maxConnections = 64 } = {}): Promise<WireServer> {
  const turns = new Turns();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    if (sockets.size >= maxConnections) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    new Connection(socket, db, turns);
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
