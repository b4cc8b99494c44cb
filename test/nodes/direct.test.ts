// Which operations run on the bulk path (nodes/shared/direct.ts, the nodes' `customOperations`) rather
// than n8n's declarative engine. That engine loads the credential from n8n's database once per item, for
// all items at once: in queue mode, a WDM Message bulk send of 10,000 items beside a burst failed on the
// worker's database pool after an option's `request` routing took every send off the direct path
// (docs/decisions/webhooks.md, "Sends: the Idempotency-Key header"). Nothing showed it but that run.
import type { INodePropertyOptions, INodeType } from 'n8n-workflow';
import { NODE_TYPES } from '../helpers/nodes';

/** Operations that stay with n8n's engine on purpose, and why. */
const DECLARATIVE: Record<string, string> = {
	// Kept there by a request option on purpose: `declarative` in nodes/WdmAiProxy/fields.ts says why.
	'wdmAiProxy ai.setKey': 'declarative',
	'wdmAiProxy ai.setModel': 'declarative',
};

test('every operation runs on the direct path (those that page with Return All too), but those named with their reason', () => {
	const offPath: string[] = [];
	for (const node of Object.values(NODE_TYPES) as Array<INodeType & { customOperations?: Record<string, Record<string, unknown>> }>) {
		if (!node.customOperations) continue;
		for (const property of node.description.properties.filter((p) => p.name === 'operation')) {
			const resource = String(property.displayOptions?.show?.resource?.[0] ?? Object.keys(node.customOperations)[0]);
			for (const option of property.options as INodePropertyOptions[]) {
				if (!(String(option.value) in (node.customOperations[resource] ?? {}))) offPath.push(`${node.description.name} ${resource}.${option.value}`);
			}
		}
	}
	expect(offPath.sort()).toEqual(Object.keys(DECLARATIVE).sort());
});
