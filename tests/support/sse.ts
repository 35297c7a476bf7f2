/** One frame of a text/event-stream: its comment lines, its data lines joined, and any other lines. */
export type SseFrame = { comments: string[]; data: string | null; other: string[] };

/**
 * The frames of a text/event-stream body as they arrive, read the way an SSE client reads them
 * (split on a blank line). A stream that ends inside a frame throws.
 */
export async function* sseFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame> {
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const frame: SseFrame = { comments: [], data: null, other: [] };
      const data: string[] = [];
      for (const line of buffer.slice(0, end).split("\n")) {
        if (line.startsWith(":")) frame.comments.push(line.slice(1).trim());
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        else if (line) frame.other.push(line);
      }
      if (data.length) frame.data = data.join("\n");
      buffer = buffer.slice(end + 2);
      yield frame;
    }
  }
  if (buffer !== "") throw new Error(`the stream ended inside an event: ${JSON.stringify(buffer.slice(0, 200))}`);
}
