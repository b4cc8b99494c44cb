import { EventSourceParserStream } from 'eventsource-parser/stream';

/** One event of `GET /sandbox/v1/events`: a gateway event (`messages`, `connection`...) or `delivery`. */
export interface LiveEvent {
	event: string;
	device: string;
	data: unknown;
}

/** Wait before reconnecting a stream that ended (the server restarted, the network dropped). */
const RECONNECT_MS = 1000;

/**
 * Follows the user's event stream until stopped, reconnecting when it ends. The browser's EventSource
 * cannot send the API key header, so the stream is read with fetch and parsed by eventsource-parser.
 */
export function followEvents(key: string, onEvent: (event: LiveEvent) => void, onOpen: (open: boolean) => void): () => void {
	const abort = new AbortController();
	const run = async () => {
		while (!abort.signal.aborted) {
			try {
				const res = await fetch('/wp-json/sandbox/v1/events', { headers: { authorization: `Bearer ${key}` }, signal: abort.signal });
				if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
				onOpen(true);
				const events = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
				for await (const message of events) {
					const { device, ...rest } = JSON.parse(message.data) as { device: string; data?: unknown };
					onEvent({ event: message.event ?? 'message', device, data: 'data' in rest ? rest.data : rest });
				}
			} catch {
				/* ended or refused: reconnect below, unless stopped */
			}
			onOpen(false);
			if (!abort.signal.aborted) await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
		}
	};
	void run();
	return () => abort.abort();
}
