// jest `setupFiles`: runs before each test file, before n8n's modules load.
import { mkdirSync, mkdtempSync } from 'node:fs';
import path from 'node:path';

// n8n-core's instance settings write <N8N_USER_FOLDER>/.n8n/config: give each test file its own
// folder under the ignored cache (removed again by n8n-teardown.ts).
const base = path.join(__dirname, '..', '..', 'node_modules', '.cache', 'n8n-test-user');
mkdirSync(base, { recursive: true });
process.env.N8N_USER_FOLDER = mkdtempSync(path.join(base, 'u-'));
process.env.N8N_ENCRYPTION_KEY = 'test-encryption-key';
process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS = 'false';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
// The engine's logger would print every expected node error of the error-path tests.
process.env.N8N_LOG_LEVEL ??= 'silent';
