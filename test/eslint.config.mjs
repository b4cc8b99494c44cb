// Tests are not part of the n8n package: linted by the repository's own config.
import dev from '../eslint.dev.config.mjs';

export default [
	...dev,
	// Tests read JSON answers whose shape each assertion spells out.
	{ files: ['**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
];
