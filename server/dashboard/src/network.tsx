import type { UserApi } from './api';
import { time, useActions, useLoad } from './hooks';

/** `1 a second`, `20 a minute`, or `none`. */
const rates = (perSecond: number, perMinute: number) =>
	[perSecond && `${perSecond} a second`, perMinute && `${perMinute} a minute`].filter(Boolean).join(', ') || 'none';

/**
 * The device's network on the sandbox: its account kind and limits, its quality rating, a restriction or a
 * lost connection, and the contacts who opted out of its messages (the owner clears them here).
 */
export function NetworkPanel({ api, device, revision }: { api: UserApi; device: string; revision: string }) {
	const { run } = useActions();
	const network = useLoad(() => api.network(device), [device, revision]);
	const optOuts = useLoad(() => api.optOuts(device), [device, revision]);
	const n = network.data;
	return (
		<section class="panel network" aria-label={`Network of ${device}`}>
			<h2>Network</h2>
			{network.error && <p class="error">{network.error}</p>}
			{n && (
				<dl>
					<dt>Account</dt>
					<dd>
						<span aria-label="account">{n.account}</span>{' '}
						<button onClick={() => run(() => api.setAccount(device, n.account === 'business' ? 'ordinary' : 'business'))}>
							Make {n.account === 'business' ? 'ordinary' : 'business'}
						</button>
					</dd>
					<dt>Limits</dt>
					<dd aria-label="limits">
						{n.uniqueRecipients24h} of {n.tier} new conversations in 24 h; rate {rates(n.perSecond, n.perMinute)}
						{n.rules === 'off' && ' (rules off: an ideal network)'}
					</dd>
					<dt>Quality</dt>
					<dd aria-label="quality">
						<span class={`state ${n.quality.rating === 'high' ? 'delivered' : n.quality.rating === 'medium' ? 'pending' : 'failed'}`}>{n.quality.rating}</span> score{' '}
						{n.quality.score}, {n.quality.blocks} blocked, {n.quality.reports} reported
					</dd>
					<dt>Restriction</dt>
					<dd aria-label="restriction">{n.restrictedUntil ? `restricted until ${time(n.restrictedUntil)}: only answers to contacts who wrote` : 'none'}</dd>
					{n.reconnectingUntil && (
						<>
							<dt>Connection</dt>
							<dd>lost, back at {time(n.reconnectingUntil)}</dd>
						</>
					)}
				</dl>
			)}
			<table aria-label="Opt-outs">
				<thead>
					<tr>
						<th>Opted out</th>
						<th>By</th>
						<th>At</th>
						<th />
					</tr>
				</thead>
				<tbody>
					{optOuts.data?.map((o) => (
						<tr key={o.number} aria-label={`Opt-out of +${o.number}`}>
							<td>+{o.number}</td>
							<td>{o.keyword === null ? 'owner' : `"${o.keyword}"`}</td>
							<td>{time(o.at)}</td>
							<td>
								<button onClick={() => run(() => api.clearOptOut(device, o.number))}>Clear</button>
							</td>
						</tr>
					))}
				</tbody>
			</table>
			{optOuts.data?.length === 0 && <p class="empty">No contact opted out: a contact who answers STOP is listed here.</p>}
		</section>
	);
}
