import type { Route } from '../../http/route';
import { mcpRoutes } from './mcp';
import { modelRoutes } from './model';
import { queryRoutes } from './queries';

/**
 * The dynamic-content engine: `engine/v1` (MCP, whose tools run the routes of `table`) and `engine/v2`
 * (content model, queries, search).
 */
export const engineRoutes = (table: () => Route[]): Route[] => [...mcpRoutes(table), ...modelRoutes, ...queryRoutes];
