import createClient from 'openapi-fetch';
import type { paths } from './generated/wdm-api';

/**
 * A client of the server as an integrator generates it: `openapi-typescript` types from the OpenAPI
 * document, `openapi-fetch` calls. Everything here is typed by the document alone, with no casts
 * (the typed-client test compiles this file with `tsc` and refuses `as` and `!`).
 */
export const typedClient = (baseUrl: string) => createClient<paths>({ baseUrl: `${baseUrl}/wp-json` });

type Client = ReturnType<typeof typedClient>;

/** A device created on the user's API key: its name, status and instance token, as typed. */
export async function createDevice(api: Client, apiKey: string, name: string) {
	const { data, error, response } = await api.POST('/wdm/v1/devices', { body: { name }, headers: { authorization: `Bearer ${apiKey}` } });
	if (error) throw new Error(`create device: ${response.status} ${error.message}`);
	const device: { name: string; status: 'disconnected' | 'connecting' | 'connected'; token?: string } = data.data;
	return { status: response.status, device };
}
