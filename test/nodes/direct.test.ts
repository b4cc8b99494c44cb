// Which operations run on the bulk path (nodes/shared/direct.ts, the nodes' `customOperations`) rather
// than n8n's declarative engine. That engine loads the credential from n8n's database once per item, for
// all items at once: in queue mode, a WDM Message bulk send of 10,000 items beside a burst failed on the
// worker's database pool after an option's `request` routing took every send off the direct path
// (docs/decisions.md, "Sends: the Idempotency-Key header"). Nothing showed it but that run.
import fs from 'node:fs';
import path from 'node:path';
import type { INodePropertyOptions, INodeType } from 'n8n-workflow';

const NODES = path.join(__dirname, '../../nodes');

/** Operations that stay with n8n's engine on purpose, and why (list operations that page are found by their routing). */
const DECLARATIVE: Record<string, string> = {
	// Kept there by a request option on purpose: `declarative` in nodes/WdmAiProxy/fields.ts says why.
	'WdmAiProxy ai.setKey': 'declarative',
	'WdmAiProxy ai.setModel': 'declarative',
	// The label's body property is an expression of the operation (`add_labelid`, `remove_labelid`, `labelid`).
	'WdmLabel label.addChatLabel': 'property by expression',
	'WdmLabel label.removeChatLabel': 'property by expression',
	'WdmLabel label.edit': 'property by expression',
};

function nodesWithDirectOperations() {
	return fs
		.readdirSync(NODES)
		.filter((dir) => fs.existsSync(path.join(NODES, dir, `${dir}.node.ts`)))
		.map((dir) => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const node = new (require(path.join(NODES, dir, `${dir}.node.ts`))[dir])() as INodeType & { customOperations?: Record<string, Record<string, unknown>> };
			return { name: dir, node };
		})
		.filter(({ node }) => node.customOperations);
}

test('every operation runs on the direct path, but those that page (Return All) and those named with their reason', () => {
	const offPath: string[] = [];
	for (const { name, node } of nodesWithDirectOperations()) {
		for (const property of node.description.properties.filter((p) => p.name === 'operation')) {
			const resource = property.displayOptions?.show?.resource?.[0] ?? Object.keys(node.customOperations!)[0];
			for (const option of property.options as INodePropertyOptions[]) {
				const pages = !!(option.routing?.send?.paginate || option.routing?.operations?.pagination);
				if (!(String(option.value) in (node.customOperations![String(resource)] ?? {})) && !pages) offPath.push(`${name} ${resource}.${option.value}`);
			}
		}
	}
	expect(offPath.sort()).toEqual(Object.keys(DECLARATIVE).sort());
});
