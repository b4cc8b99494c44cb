// Run by jest's `floor` project only (jest.config.js): n8n-workflow and n8n-core are the floor's.
import { readFileSync } from 'node:fs';
import { NodeConnectionTypes, NodeHelpers } from 'n8n-workflow';
import { n8n as manifest } from '../../package.json';
import { CREDENTIAL_TYPES, NODE_TYPES } from '../helpers/nodes';

const versionOf = (module: string) => JSON.parse(readFileSync(require.resolve(`${module}/package.json`), 'utf8')).version as string;

test('this project runs on the floor: n8n-workflow 1.83.0 and n8n-core 1.84.0, as n8n 1.85.x ships them', () => {
	expect(versionOf('n8n-workflow')).toBe('1.83.0');
	expect(versionOf('n8n-core')).toBe('1.84.0');
});

test('every node and credential class loads with complete descriptions', () => {
	expect(Object.keys(NODE_TYPES)).toHaveLength(manifest.nodes.length);
	const connections = Object.values(NodeConnectionTypes);
	for (const [type, node] of Object.entries(NODE_TYPES)) {
		const { inputs, outputs, properties, credentials = [] } = node.description;
		// A constant n8n-workflow 1.83 lacks reads as undefined here (what n8n 1.82 showed as "reading 'Main'").
		for (const connection of [inputs, outputs].flat()) expect([type, typeof connection === 'string' ? connections.includes(connection as never) : connection]).toEqual([type, true]);
		for (const property of properties) expect([type, property.name, typeof property.type]).toEqual([type, property.name, 'string']);
		// n8n's loader reads the parameters' defaults with the floor's NodeHelpers.
		expect(() => NodeHelpers.getNodeParameters(properties, {}, true, false, null, node.description)).not.toThrow();
		for (const credential of credentials) expect(CREDENTIAL_TYPES.map((c) => c.name)).toContain(credential.name);
	}
	for (const credential of CREDENTIAL_TYPES) expect(credential.properties.length).toBeGreaterThan(0);
});
