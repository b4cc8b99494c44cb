import fs from 'node:fs';

/**
 * The server package's version. Resolved by the package's name, which finds it from src/, from dist/,
 * from a build elsewhere that shares the repository's node_modules, and from an installed copy.
 */
export const packageVersion = (): string => JSON.parse(fs.readFileSync(require.resolve('wdm-reference-server/package.json'), 'utf8')).version;
