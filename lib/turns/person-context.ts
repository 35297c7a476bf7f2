import { AsyncLocalStorage } from "node:async_hooks";

// Whose work this is, for the turns of a shared machine resource deep below the request (the model
// on this machine): set where the person is known (a request's key or session, a job's row), read
// where turns are taken, without threading a user id through every writer call. Kept on globalThis:
// Next bundles lib/ more than once into one process.

const kept = globalThis as unknown as { voicedraftPerson?: AsyncLocalStorage<string> };
const storage = (kept.voicedraftPerson ??= new AsyncLocalStorage<string>());

/** Runs `work` as `person`'s. */
export const asPerson = <T>(person: string, work: () => T): T => storage.run(person, work);

/** The person whose work this is, when known. */
export const currentPerson = (): string | undefined => storage.getStore();
