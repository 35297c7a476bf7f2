import { preprocessAudio, type PreprocessProgress } from "@/app/_lib/recording/preprocess.ts";
import type { NewUpload } from "@/app/_lib/recording/upload-queue.ts";

/**
 * The uploads for one recording: compact speech audio, one part per chunk, from the ffmpeg
 * worker; or, when that cannot run, the recording itself in one piece.
 */
export async function prepareUpload(blob: Blob, fileName: string, onProgress?: (p: PreprocessProgress) => void): Promise<NewUpload[]> {
  const base = fileName.replace(/\.[^.]+$/, "");
  try {
    const parts = await preprocessAudio(blob, onProgress);
    return parts.map((part, i) => ({
      blob: part.blob,
      fileName: parts.length === 1 ? `${base}.ogg` : `${base}-part-${i + 1}.ogg`,
      mimeType: "audio/ogg",
    }));
  } catch (err) {
    console.warn("audio preprocessing unavailable; uploading the original", err);
    return [{ blob, fileName, mimeType: blob.type || "application/octet-stream" }];
  }
}
