import { PGlite } from "@electric-sql/pglite";
for (let i = 0; i < 3; i++) { console.time("create"); const db = await PGlite.create(); console.timeEnd("create"); console.time("clone"); const c = await (db as any).clone?.(); console.timeEnd("clone"); await db.close(); }
