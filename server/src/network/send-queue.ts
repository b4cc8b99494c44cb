import type { Store } from '../store';
import { DueWorker } from '../util/due-worker';
import type { Messaging } from './messaging';

/**
 * The `async` send queue: messages stored as `queued` go out in order when their time comes, at the pace
 * the network allows each device (`Messaging.dispatch` spreads a held-back device's queue over its slots).
 */
export class SendQueue {
	readonly worker: DueWorker;

	constructor(store: Store, messaging: Messaging, onError: (error: unknown) => void) {
		this.worker = new DueWorker(
			() => store.messages.nextDueAt(),
			() => {
				// Devices held back in this run: their rows already read were moved to later slots.
				const held = new Set<string>();
				for (let batch = store.messages.due(Date.now(), 100); batch.length; batch = store.messages.due(Date.now(), 100)) {
					let progressed = false;
					for (const row of batch) {
						if (held.has(row.device_id)) continue;
						progressed = true;
						if (!messaging.dispatch(row)) held.add(row.device_id);
					}
					// Only rows of held devices left (due since they were moved): the next run takes them.
					if (!progressed) break;
				}
			},
			onError,
		);
	}
}
