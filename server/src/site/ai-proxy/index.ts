import type { Route } from '../../http/route';
import { openAiRoutes } from './openai';
import { proxyRoutes } from './proxy';
import { settingsRoutes } from './settings';

/**
 * proxyext/v1: the AI key and model, and the forwarding proxy to the AI upstream; and the simulated
 * model as an OpenAI-compatible service in the sandbox (openai.ts).
 */
export const aiProxyRoutes: Route[] = [...settingsRoutes, ...proxyRoutes, ...openAiRoutes];
