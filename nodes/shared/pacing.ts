import { NodeOperationError, sleep } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Pacing of the send operations (Request Options > Pacing): at most N messages a minute from one
 * device, so that a bulk send stays under the network's limits instead of being refused past them.
 *
 * Each send takes the device's next slot; the slot after it is one interval (60 s / N) later, lengthened
 * by up to a fifth at random, so that the sends never go faster than asked and do not look machine-timed.
 * Slots are kept per device for the whole n8n process (the device is the credential: a WDM Message node
 * sends as the device of its instance token), so two runs sending from one device at once share its pace.
 * An item waits only for its own slot, and the run ends with its last send: nothing waits after it.
 */

/** How much longer than the interval a gap may be (a fifth: 20 messages a minute become 17 to 20). */
const JITTER = 0.2;

/** Each device's next free slot (epoch ms), by device key. */
const nextSlots = new Map<string, number>();

/** Waits for the device's next slot; throws when the execution is cancelled (the items left are not sent). */
export type Pace = () => Promise<void>;

/**
 * The pace of one run of a send operation, or undefined when pacing is off: `perMinute` is Request
 * Options > Pacing (undefined or 0: off), `device` a key of the device the run sends from.
 */
export function pacing(ctx: IExecuteFunctions, perMinute: number | undefined, device: string): Pace | undefined {
	if (perMinute === undefined || (perMinute as unknown) === '' || perMinute === 0) return undefined;
	const rate = Number(perMinute);
	if (!Number.isFinite(rate) || rate < 0) {
		throw new NodeOperationError(ctx.getNode(), `Pacing (Request Options) must be a number of messages per minute, 0 (off) or more: got ${JSON.stringify(perMinute)}`);
	}
	const interval = 60_000 / rate;
	const signal = ctx.getExecutionCancelSignal?.();
	// One listener for the run (n8n 1.x has no sleepWithAbort), as the retries' waits do.
	const cancelled = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
	return async () => {
		const now = Date.now();
		const slot = Math.max(now, nextSlots.get(device) ?? 0);
		nextSlots.set(device, slot + interval * (1 + JITTER * Math.random()));
		if (slot > now) await Promise.race([sleep(slot - now), cancelled]);
		if (signal?.aborted) throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled while its sends waited for their pace');
	};
}
