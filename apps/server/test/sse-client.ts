/**
 * A Server-Sent Events reader for the notification stream's tests (decision 047): a real HTTP
 * request with fetch, its body read as it arrives and cut into events and comments as a browser's
 * EventSource does (the fields this app sends: id, event, data, retry; `:` comments).
 */
export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

export interface SseConnection {
  status: number;
  headers: Headers;
  /** The body of a refusal (not an event stream). */
  text: string;
  /** The next event, or a failure after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseEvent>;
  /** Events received and not yet taken by next(). */
  pending(): SseEvent[];
  /** Every comment line received (without its colon). */
  comments: string[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let wake = () => {};
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      next: () => Promise.reject(new Error(`no event stream: ${response.status} ${text}`)),
      pending: () => [],
      comments,
      ended: Promise.resolve(),
      close: () => {},
    };
  }
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { id: undefined, event: undefined, data: '' };
          let hasData = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) event.id = line.slice(4);
            else if (line.startsWith('event: ')) event.event = line.slice(7);
            else if (line.startsWith('data: ')) {
              event.data += (hasData ? '\n' : '') + line.slice(6);
              hasData = true;
            }
          }
          if (hasData) events.push(event);
          wake();
        }
      }
    } catch {
      // Aborted by close().
    }
    wake();
  })();
  let isEnded = false;
  void ended.then(() => (isEnded = true));
  return {
    status: response.status,
    headers: response.headers,
    text: '',
    async next(timeoutMs = 5_000) {
      const until = Date.now() + timeoutMs;
      while (events.length === 0) {
        if (isEnded) throw new Error('the stream ended');
        const left = until - Date.now();
        if (left <= 0) throw new Error(`no event within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, Math.min(left, 100));
        });
      }
      return events.shift()!;
    },
    pending: () => events.splice(0),
    comments,
    ended,
    close: () => abort.abort(),
  };
}
