// The example workflows as the editor shows them (issue 39, points 2 and 10): nodes named as the editor
// names them, the user credential under the name n8n's credential dialog proposes, notes that cover no
// node, and connections and expressions that name nodes of the workflow.
import fs from 'node:fs';
import path from 'node:path';
import type { INodePropertyOptions } from 'n8n-workflow';
import { CREDENTIAL_TYPES, NODE_TYPES } from '../helpers/nodes';

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');

interface Node {
	name: string;
	type: string;
	position: [number, number];
	parameters: Record<string, unknown> & { width?: number; height?: number };
	credentials?: Record<string, { id: null; name: string }>;
}
type Connections = Record<string, Record<string, Array<Array<{ node: string }>>>>;

const examples = fs
	.readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.json'))
	.map((file) => ({ file, ...(JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8')) as { nodes: Node[]; connections: Connections }) }));

/** The package's node type of a workflow node (`n8n-nodes-wdm.wdmDevice`), if it is one. */
const wdmType = (node: Node) => NODE_TYPES[node.type.replace(/^n8n-nodes-wdm\./, 'CUSTOM.')];

test.each(examples)('$file: connections and expressions name nodes of the workflow', ({ nodes, connections }) => {
	const names = nodes.map((node) => node.name);
	const targets = Object.values(connections).flatMap((outputs) => Object.values(outputs).flat(2).map((target) => target.node));
	expect(Object.keys(connections).filter((name) => !names.includes(name))).toEqual([]);
	expect(targets.filter((name) => !names.includes(name))).toEqual([]);
	const referenced = [...JSON.stringify(nodes.map((node) => node.parameters)).matchAll(/\$\('([^']+)'\)/g)].map((match) => match[1]);
	expect(referenced.filter((name) => !names.includes(name))).toEqual([]);
});

test.each(examples)('$file: no WDM node bears the name of its Operation entry: the editor names nodes by their action', ({ nodes }) => {
	const named = nodes.filter((node) => {
		const type = wdmType(node);
		const operations = type?.description.properties.filter((property) => property.name === 'operation').flatMap((property) => property.options as INodePropertyOptions[]);
		return operations?.some((operation) => operation.name === node.name);
	});
	expect(named.map((node) => node.name)).toEqual([]);
});

test.each(examples)('$file: the WDM User API credential has the name the credential dialog proposes', ({ nodes }) => {
	// n8n's editor proposes the type's name without "API" (OAuth1, OAuth2, MCP), followed by "account".
	const type = CREDENTIAL_TYPES.find((credential) => credential.name === 'wdmUserApi')!;
	const proposed = `${type.displayName.split(' ').filter((word) => !['API', 'OAuth1', 'OAuth2', 'MCP'].includes(word)).join(' ')} account`;
	const names = nodes.flatMap((node) => (node.credentials?.wdmUserApi ? [node.credentials.wdmUserApi.name] : []));
	expect(names.filter((name) => name !== proposed)).toEqual([]);
});

test.each(examples)('$file: its sticky note covers no node', ({ nodes }) => {
	// n8n draws a node in a 100 x 100 square from its position; a note from its position, of its size.
	const notes = nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote');
	expect(notes.length).toBeGreaterThan(0);
	const covered = nodes.filter((node) => {
		const [x, y] = node.position;
		return !notes.includes(node) && notes.some(({ position: [nx, ny], parameters: { width = 240, height = 160 } }) => x < nx + width && x + 100 > nx && y < ny + height && y + 100 > ny);
	});
	expect(covered.map((node) => node.name)).toEqual([]);
});
