// ESLint for the code around the n8n package (server/, test/, bench/): each of those folders has an
// eslint.config.mjs that re-exports this one. The root eslint.config.mjs is n8n's own config, exactly
// as `n8n-node cloud-support enable` writes it (strict mode checks that it is unchanged), and applies
// to the package: nodes/, credentials/, package.json. `npm run lint` runs `n8n-node lint` with ESLint's
// per-file config lookup (ESLINT_FLAGS=unstable_config_lookup_from_file, the default from ESLint 10),
// so each file is linted by the config nearest to it. See docs/decisions/contract-and-tooling.md,
// "Package: n8n's lint and scanner".
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{
		ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**'],
	},
	{
		files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		languageOptions: { globals: { ...globals.node, ...globals.jest } },
		rules: {
			'prefer-spread': 'off',
			// `const { a, ...rest } = x` is how a field is dropped from a copy.
			'@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
		},
	},
	{
		files: ['**/*.js', '**/*.cjs'],
		languageOptions: { sourceType: 'commonjs' },
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
);
