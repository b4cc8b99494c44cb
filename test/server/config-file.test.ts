import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, readConfigFile } from '../../server/src/config';

/** `--config FILE`: the settings as JSON keyed by the flags' names, under flags and the environment. */
let dir: string;
beforeAll(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wdm-config-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (name: string, content: string) => {
	const file = path.join(dir, name);
	fs.writeFileSync(file, content);
	return file;
};

test('a file gives settings of every kind; the environment wins over it, a flag over both', () => {
	const file = readConfigFile(write('wdm.json', JSON.stringify({ port: 8081, 'pair-delay-ms': 500, 'allow-private-fetch': true, pairing: 'manual', host: '0.0.0.0' })));
	expect(loadConfig({}, {}, file)).toMatchObject({ port: 8081, pairDelayMs: 500, allowPrivateFetch: true, pairing: 'manual', host: '0.0.0.0' });
	expect(loadConfig({}, { WDM_PORT: '9000' }, file).port).toBe(9000);
	expect(loadConfig({ port: '9100' }, { WDM_PORT: '9000' }, file).port).toBe(9100);
	// Whatever the file leaves out keeps its default.
	expect(loadConfig({}, {}, file).qrTtlMs).toBe(60000);
});

test('a bad file is refused, naming the file and the setting', () => {
	expect(() => readConfigFile(path.join(dir, 'missing.json'))).toThrow(/^--config .*missing\.json: ENOENT/);
	expect(() => readConfigFile(write('broken.json', '{"port": 80'))).toThrow(/^--config .*broken\.json: .*JSON/);
	expect(() => readConfigFile(write('list.json', '[1]'))).toThrow(/must be a JSON object whose keys are the settings' flag names/);
	expect(() => readConfigFile(write('camel.json', '{"pairDelayMs": 5, "prot": 1}'))).toThrow(/unknown settings "pairDelayMs", "prot" \(the keys are the flags' names/);
	const badValue = readConfigFile(write('bad.json', '{"port": "eighty", "admin-key": "short"}'));
	expect(() => loadConfig({}, {}, badValue)).toThrow(/"port" in .*bad\.json must be a number.*"admin-key" in .*bad\.json/);
	// The same value from a flag is named as the flag.
	expect(() => loadConfig({ port: 'eighty' }, {}, badValue)).toThrow(/^--port \(WDM_PORT\) must be a number/);
});
