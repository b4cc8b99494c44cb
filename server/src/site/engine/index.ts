import type { Route } from '../../http/route';
import { mcpRoutes } from './mcp';
import { modelRoutes } from './model';
import { queryRoutes } from './queries';

/** The dynamic-content engine: `engine/v1` (MCP) and `engine/v2` (content model, queries, search). */
export const engineRoutes: Route[] = [...mcpRoutes, ...modelRoutes, ...queryRoutes];
