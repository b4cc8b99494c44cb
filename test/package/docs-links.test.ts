// Every documentation link of the package (the credentials' documentationUrl, the codex files'
// resources) points to a heading that exists in the repository file it names, by GitHub's anchor rules.
import fs from 'node:fs';
import path from 'node:path';
import manifest from '../../package.json';
import { CREDENTIAL_TYPES, NODE_TYPES } from '../helpers/nodes';

const ROOT = path.join(__dirname, '..', '..');

/**
 * The anchors GitHub gives a Markdown file's headings: the heading's text as rendered (no code
 * marks, emphasis or link syntax), in lower case, without punctuation, spaces made hyphens; a
 * repeated anchor gets `-1`, `-2`... Headings inside code fences do not count.
 */
export function headingAnchors(markdown: string): string[] {
	const anchors: string[] = [];
	let inFence = false;
	for (const line of markdown.split('\n')) {
		if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
		const heading = !inFence && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const text = heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
		const slug = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
		const repeats = anchors.filter((anchor) => anchor === slug || new RegExp(`^${slug}-\\d+$`).test(anchor)).length;
		anchors.push(repeats ? `${slug}-${repeats}` : slug);
	}
	return anchors;
}

/** The repository file and anchor of a documentation URL (`<homepage>#a`: the README; `<homepage>/blob/main/<file>#a`). */
function target(url: string) {
	const [address, anchor] = url.split('#');
	expect(address.startsWith(manifest.homepage)).toBe(true);
	const rest = address.slice(manifest.homepage.length);
	const file = rest === '' ? 'README.md' : /^\/blob\/main\/(.+)$/.exec(rest)?.[1];
	return { file: file ?? `(not a file of the repository: ${url})`, anchor };
}

/** Each codex file of the package (`dist/nodes/X/X.node.js` -> `nodes/X/X.node.json`), with its node. */
const codexFiles = manifest.n8n.nodes.map((file) => {
	const source = file.replace(/^dist\//, '').replace(/\.js$/, '.json');
	const node = Object.values(NODE_TYPES).find((type) => file.endsWith(`/${type.constructor.name}.node.js`))!;
	return { source, node, codex: JSON.parse(fs.readFileSync(path.join(ROOT, source), 'utf8')) };
});

test("the anchors are GitHub's", () => {
	const markdown = ['# Using it', '## Install the package in n8n', '### By hand, in ~/.n8n/nodes', "### From n8n's settings (Settings > Community Nodes)", '```', '# not a heading', '```', '## `code` and [a link](x)', '## Using it'].join('\n');
	expect(headingAnchors(markdown)).toEqual(['using-it', 'install-the-package-in-n8n', 'by-hand-in-n8nnodes', 'from-n8ns-settings-settings--community-nodes', 'code-and-a-link', 'using-it-1']);
});

test('every documentation URL of the credentials and codex files points to an existing heading', () => {
	const urls = [
		...CREDENTIAL_TYPES.map((credential) => ({ from: credential.name, url: credential.documentationUrl! })),
		...codexFiles.flatMap(({ source, codex }) =>
			Object.values<Array<{ url: string }>>(codex.resources ?? {}).flatMap((links) => links.map(({ url }) => ({ from: source, url }))),
		),
	];
	expect(urls.length).toBeGreaterThan(manifest.n8n.nodes.length);
	const broken = urls.filter(({ url }) => {
		const { file, anchor } = target(url);
		const markdown = path.join(ROOT, file);
		return !fs.existsSync(markdown) || !headingAnchors(fs.readFileSync(markdown, 'utf8')).includes(anchor);
	});
	expect(broken).toEqual([]);
});

test("each codex file's credential documentation is its node's credential's own", () => {
	for (const { source, node, codex } of codexFiles) {
		const credential = CREDENTIAL_TYPES.find((type) => type.name === node.description.credentials![0].name)!;
		expect({ source, urls: codex.resources.credentialDocumentation.map((link: { url: string }) => link.url) }).toEqual({ source, urls: [credential.documentationUrl] });
	}
});
