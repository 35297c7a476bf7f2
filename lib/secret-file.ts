import { randomBytes } from "node:crypto";
import { chmod, open, readFile } from "node:fs/promises";

/**
 * A random secret kept in a file readable by its owner only (mode 0600): created on first use,
 * read by every later process. A process that loses the race to create it waits for the writer.
 * `make` writes another kind of secret (a private key as JSON, say); 32 random bytes by default.
 */
export async function readOrCreateSecretFile(file: string, whenEmpty: string, make = () => randomBytes(32).toString("base64url")): Promise<string> {
  try {
    const handle = await open(file, "wx", 0o600);
    const secret = make();
    await handle.writeFile(secret);
    await handle.close();
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  await chmod(file, 0o600).catch(() => undefined);
  for (let attempt = 0; attempt < 20; attempt++) {
    const secret = (await readFile(file, "utf8")).trim();
    if (secret) return secret;
    await new Promise((resolve) => setTimeout(resolve, 25)); // another process is writing it
  }
  throw new Error(`${file} is empty; ${whenEmpty}.`);
}
