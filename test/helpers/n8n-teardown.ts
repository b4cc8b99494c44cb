// jest `setupFilesAfterEnv`: shares the test file's module registry, hence n8n's DI container.
import { rmSync } from 'node:fs';
import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

afterAll(() => {
	// Running a trigger creates n8n's SSH client manager, whose 60 s interval would keep jest from exiting.
	if (Container.has(SSHClientsManager)) Container.get(SSHClientsManager).onShutdown();
	rmSync(process.env.N8N_USER_FOLDER!, { recursive: true, force: true });
});
