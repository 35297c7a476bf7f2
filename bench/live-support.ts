// The live-recording benches' set-up: an in-memory database with one user, the recognition
// pieces' job workers, and a recording sent as a phone sends it (a second of bytes at a time,
// each cut awaited, as on a server that keeps up). Import it after setting the process environment.
import { benchUser } from "./support.ts";

export async function liveBench() {
  const { prisma, close } = await benchUser([]);
  const user = await prisma.user.findFirstOrThrow();
  const { startJobWorkers } = await import("@/lib/jobs/workers.ts");
  const { recognizePieceJob } = await import("@/lib/transcription/recognition/recognize-pieces-job.ts");
  const { appendLiveAudio } = await import("@/lib/transcription/live/append-live-audio.ts");
  const { cutLivePieces } = await import("@/lib/transcription/live/cut-live-pieces.ts");
  const { finishLiveRecording } = await import("@/lib/transcription/live/finish-live-recording.ts");
  const { closeJobQueue } = await import("@/lib/jobs/queue.ts");
  const workers = await startJobWorkers([recognizePieceJob], []);
  const recording = (id: string) => prisma.liveRecording.findUniqueOrThrow({ where: { userId_id: { userId: user.id, id } } });
  return {
    prisma,
    user,
    recording,
    /** Appends `webm`'s bytes [from, to) as one request (its cut runs on its own, as the route's does). */
    append: (id: string, webm: Buffer, from: number, to = webm.length) =>
      appendLiveAudio({ userId: user.id, id, offset: from, bytes: webm.subarray(from, to), mimeType: "audio/webm" }),
    /** Sends `webm`'s bytes [0, to) in `second`-sized appends, each cut awaited. */
    async send(id: string, webm: Buffer, second: number, to = webm.length) {
      for (let offset = 0; offset < to; offset += second) {
        await appendLiveAudio({ userId: user.id, id, offset, bytes: webm.subarray(offset, Math.min(offset + second, to)), mimeType: "audio/webm" });
        await cutLivePieces(await recording(id));
      }
    },
    finish: (id: string) => finishLiveRecording({ userId: user.id, id }),
    async stop() {
      await workers.stop();
      await closeJobQueue();
      await close();
    },
  };
}
