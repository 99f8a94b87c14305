import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { loadEnvironment } from '@fieldops/platform';
import { AuthSidecarEnvironment } from './auth-sidecar.environment';

/**
 * The Entra auth sidecar protocol (Microsoft.Identity.Web's sidecar, as the Microsoft 365 Agents SDK's
 * `authType=EntraAuthSideCar` calls it), served for one bot on loopback:
 * - `GET /AuthorizationHeaderUnauthenticated/{service}?optionsOverride.Scopes=…[&optionsOverride.RequestAppToken=true]`
 *   → 200 `{"authorizationHeader":"Bearer …"}`: the bot's app token for the scope, from connector-gateway's
 *   managed-identity endpoint with the bot's own identity header (as `SystemManagedIdentity` gets it);
 * - `GET /healthz` → 200.
 * Errors are RFC 9457 problem details. Requests for a user or an agent identity (`AgentIdentity`, `AgentUsername`,
 * `AgentUserId`) are refused (400): the sidecar holds one bot's app credential only. Any `{service}` name is served
 * the same way (the SDK's `serviceName`, default `default`).
 */

/** The managed-identity api-version connector-gateway serves. */
const MANAGED_IDENTITY_API_VERSION = '2019-08-01';
const USER_OR_AGENT_PARAMETERS = ['AgentIdentity', 'AgentUsername', 'AgentUserId'];

export interface RunningAuthSidecar {
  /** `http://host:port`, what the agent's `SIDECAR_URL` names. */
  url: string;
  close(): Promise<void>;
}

class SidecarProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

function answer(
  response: ServerResponse,
  status: number,
  body: unknown,
  contentType = 'application/json',
): void {
  response
    .writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store' })
    .end(JSON.stringify(body));
}

function problem(response: ServerResponse, { status, title, detail }: SidecarProblem): void {
  answer(response, status, { type: 'about:blank', title, status, detail }, 'application/problem+json');
}

/** The one scope asked for (the resource the connector mints for); 400 when none or several differ. */
function requestedScope(query: URLSearchParams): string {
  for (const name of USER_OR_AGENT_PARAMETERS) {
    if (query.has(name))
      throw new SidecarProblem(
        400,
        'Unsupported identity',
        `${name}: this sidecar serves the bot's app token only.`,
      );
  }
  const scopes = [...new Set(query.getAll('optionsOverride.Scopes').filter((scope) => scope.trim() !== ''))];
  if (scopes.length !== 1)
    throw new SidecarProblem(400, 'Invalid scopes', 'Exactly one optionsOverride.Scopes value is required.');
  return scopes[0];
}

async function bearerFor(environment: AuthSidecarEnvironment, scope: string): Promise<string> {
  const url = new URL('/msi/token', environment.AUTH_SIDECAR_CONNECTOR_URL);
  url.searchParams.set('api-version', MANAGED_IDENTITY_API_VERSION);
  url.searchParams.set('resource', scope);
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { 'X-IDENTITY-HEADER': environment.AUTH_SIDECAR_IDENTITY_HEADER },
      signal: AbortSignal.timeout(environment.AUTH_SIDECAR_TIMEOUT_MS),
    });
  } catch {
    throw new SidecarProblem(503, 'Token service unavailable', 'connector-gateway did not answer.');
  }
  const body = (await response.json().catch(() => undefined)) as
    { access_token?: unknown; error_description?: unknown } | undefined;
  if (response.ok && typeof body?.access_token === 'string') return `Bearer ${body.access_token}`;
  if (response.status >= 500 || response.ok)
    throw new SidecarProblem(
      503,
      'Token service unavailable',
      `connector-gateway answered ${response.status}.`,
    );
  const reason = typeof body?.error_description === 'string' ? `: ${body.error_description}` : '.';
  // A refused credential or scope is the operator's to fix: not transient, so the SDK does not retry it.
  throw new SidecarProblem(
    response.status === 401 ? 401 : 400,
    response.status === 401 ? 'Credential refused' : 'Token refused',
    `connector-gateway answered ${response.status}${reason}`,
  );
}

async function handle(
  environment: AuthSidecarEnvironment,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://sidecar');
  const isToken = /^\/AuthorizationHeaderUnauthenticated\/[^/]+$/.test(url.pathname);
  if (url.pathname !== '/healthz' && !isToken)
    throw new SidecarProblem(404, 'Not Found', `No route ${url.pathname}.`);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    throw new SidecarProblem(405, 'Method Not Allowed', `${request.method ?? ''} is not allowed here.`);
  }
  if (!isToken) return answer(response, 200, { status: 'Healthy' });
  const authorizationHeader = await bearerFor(environment, requestedScope(url.searchParams));
  answer(response, 200, { authorizationHeader });
}

/** Starts the sidecar from `environment` (validated here; a ConfigurationError names what is wrong). */
export async function startAuthSidecar(environment: NodeJS.ProcessEnv): Promise<RunningAuthSidecar> {
  const settings = loadEnvironment(AuthSidecarEnvironment, environment, 'auth-sidecar');
  const server: Server = createServer((request, response) => {
    handle(settings, request, response).catch((error: unknown) =>
      problem(
        response,
        error instanceof SidecarProblem
          ? error
          : new SidecarProblem(500, 'Internal Server Error', 'Unexpected error.'),
      ),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.AUTH_SIDECAR_PORT, settings.AUTH_SIDECAR_HOST, resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
