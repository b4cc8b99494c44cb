// The words a user types in n8n's node panel find the WDM nodes: each codex file has aliases (n8n's
// node creator searches them beside the name), "whatsapp" for the messaging nodes and "wordpress" for
// the site's. Issue 39, point 3: "whatsapp" found only WDM Send and Wait for Reply.
import fs from 'node:fs';
import path from 'node:path';
import manifest from '../../package.json';
import { NODE_TYPES } from '../helpers/nodes';

const ROOT = path.join(__dirname, '..', '..');

/** The word a node's credential calls for: the gateway's nodes message, the site's nodes are WordPress's. */
const WORD: Record<string, string> = { wdmUserApi: 'whatsapp', wdmInstanceApi: 'whatsapp', wdmSiteApi: 'wordpress' };

test.each(manifest.n8n.nodes)('%s: its codex aliases hold the word its users type', (file) => {
	const node = Object.values(NODE_TYPES).find((type) => file.endsWith(`/${type.constructor.name}.node.js`))!;
	const codex = JSON.parse(fs.readFileSync(path.join(ROOT, file.replace(/^dist\//, '').replace(/\.js$/, '.json')), 'utf8'));
	const word = WORD[node.description.credentials![0].name];
	expect(word).toBeDefined();
	expect(codex.alias).toEqual(expect.arrayContaining([word]));
	// Lower case, as n8n's own codex files write them, and each once.
	expect(codex.alias).toEqual([...new Set(codex.alias.map((alias: string) => alias.toLowerCase()))]);
});
