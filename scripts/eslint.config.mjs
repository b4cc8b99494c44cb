// Scripts are not part of the n8n package: linted by the repository's own config.
export { default } from '../eslint.dev.config.mjs';
