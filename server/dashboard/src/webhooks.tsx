import { useState } from 'preact/hooks';
import type { Delivery, UserApi, Webhook } from './api';
import { time, useActions, useLoad } from './hooks';

/** The device's webhook subscriptions, each with its delivery log and a replay per event. */
export function WebhooksPanel({ api, device, revision }: { api: UserApi; device: string; revision: string }) {
	const { run } = useActions();
	const [url, setUrl] = useState('');
	const webhooks = useLoad(() => api.webhooks(device), [device, revision]);
	const add = async (e: Event) => {
		e.preventDefault();
		if (await run(() => api.addWebhook(device, url.trim()))) setUrl('');
	};
	return (
		<section class="panel webhooks" aria-label={`Webhooks of ${device}`}>
			<h2>Webhooks</h2>
			<form class="row" onSubmit={add}>
				<input aria-label="Webhook URL" placeholder="https://example.com/hook" value={url} onInput={(e) => setUrl(e.currentTarget.value)} required />
				<button type="submit">Subscribe</button>
			</form>
			{webhooks.error && <p class="error">{webhooks.error}</p>}
			{webhooks.data?.length === 0 && <p class="empty">No subscriptions yet: add a URL to receive this device's events.</p>}
			{webhooks.data?.map((webhook) => (
				<Subscription key={webhook.id} api={api} device={device} webhook={webhook} revision={revision} />
			))}
		</section>
	);
}

function Subscription({ api, device, webhook, revision }: { api: UserApi; device: string; webhook: Webhook; revision: string }) {
	const { run } = useActions();
	const deliveries = useLoad(() => api.deliveries(device, webhook.id), [webhook.id, revision]);
	return (
		<article class="subscription" aria-label={`Webhook ${webhook.url}`}>
			<div class="row spread">
				<code>{webhook.url}</code>
				<span class={`status ${webhook.enabled ? 'connected' : 'disconnected'}`}>{webhook.enabled ? 'enabled' : 'disabled'}</span>
				<span class="muted">{webhook.events.length ? webhook.events.join(', ') : 'all events'}</span>
				<button class="danger" onClick={() => run(() => api.deleteWebhook(device, webhook.id))}>
					Remove
				</button>
			</div>
			<table aria-label="Delivery log">
				<thead>
					<tr>
						<th>Event</th>
						<th>Event id</th>
						<th>Created</th>
						<th>State</th>
						<th>Attempts</th>
						<th>Last status</th>
						<th>Next retry</th>
						<th />
					</tr>
				</thead>
				<tbody>
					{deliveries.data?.map((d) => (
						<DeliveryRow key={d.id} delivery={d} onReplay={() => run(() => api.replay(device, webhook.id, d.id))} />
					))}
				</tbody>
			</table>
			{deliveries.data?.length === 0 && <p class="empty">No events delivered yet.</p>}
		</article>
	);
}

function DeliveryRow({ delivery: d, onReplay }: { delivery: Delivery; onReplay: () => void }) {
	return (
		<tr aria-label={`Delivery ${d.id}`} class={d.state}>
			<td>{d.event}</td>
			<td>
				<code>{d.eventId}</code>
			</td>
			<td>{time(d.createdAt)}</td>
			<td>
				<span class={`state ${d.state}`}>{d.state}</span>
			</td>
			<td>{d.attempts}</td>
			<td title={d.lastError ?? ''}>{d.lastStatus ?? d.lastError ?? ''}</td>
			<td>{time(d.nextAttemptAt)}</td>
			<td>{d.state !== 'pending' && <button onClick={onReplay}>Replay</button>}</td>
		</tr>
	);
}
