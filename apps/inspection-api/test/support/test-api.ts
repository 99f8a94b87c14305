import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, type ScratchDatabase } from '@fieldops/database';
import { startInspectionApi } from '../../src';

export const SIGNING_KEY = 'test-signing-key-with-at-least-32-characters';
export const ADMIN = { username: 'admin', password: 'admin secret' };

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body (undefined when empty or not JSON). */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface CallOptions {
  /** A value sent as JSON, unless `raw` is given. */
  json?: unknown;
  raw?: string | FormData | Uint8Array;
  headers?: Record<string, string>;
  /** Bearer token; `false` sends none. Defaults to the admin's access token. */
  token?: string | false;
}

export class TestApi {
  private accessToken: string | undefined;

  private constructor(
    readonly url: string,
    readonly database: ScratchDatabase,
    readonly mediaRoot: string,
    private readonly closeApp: () => Promise<void>,
    readonly environment: Record<string, string>,
    /** The running Nest app (its Express instance serves the framework path alone in parity tests). */
    readonly app: Awaited<ReturnType<typeof startInspectionApi>>['app'],
  ) {}

  static async start(prefix: string, extra: Record<string, string> = {}): Promise<TestApi> {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error('DATABASE_URL is set by the Jest global setup');
    const database = await createScratchDatabase(adminUrl, prefix);
    const mediaRoot = await mkdtemp(join(tmpdir(), 'inspection-media-'));
    const environment = {
      INSPECTION_API_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      INSPECTION_JWT_SIGNING_KEY: SIGNING_KEY,
      INSPECTION_ADMIN_USERNAME: ADMIN.username,
      INSPECTION_ADMIN_PASSWORD: ADMIN.password,
      INSPECTION_MEDIA_ROOT: mediaRoot,
      // Django's local defaults plus the example domain tests send as a trusted proxy's X-Forwarded-Host.
      INSPECTION_ALLOWED_HOSTS: '.localhost,127.0.0.1,[::1],.example.test',
      // The event runner (pg-boss) is off unless a test is about delivery: it passes INSPECTION_EVENTS_RUNNER=true.
      INSPECTION_EVENTS_RUNNER: 'false',
      ...extra,
    };
    const api = await startInspectionApi({ environment });
    return new TestApi(api.url, database, mediaRoot, () => api.close(), environment, api.app);
  }

  /** Starts another copy of the app on the same database and media directory. */
  async restartLike(): Promise<{ url: string; close: () => Promise<void> }> {
    const api = await startInspectionApi({ environment: this.environment });
    return { url: api.url, close: () => api.close() };
  }

  async close(): Promise<void> {
    await this.closeApp();
    await this.database.drop();
    await rm(this.mediaRoot, { recursive: true, force: true });
  }

  async tokens(
    username = ADMIN.username,
    password = ADMIN.password,
  ): Promise<{ access: string; refresh: string }> {
    const response = await this.call('POST', '/api/token/', { json: { username, password }, token: false });
    if (response.status !== 201) throw new Error(`token: ${response.status} ${response.text}`);
    return response.body as { access: string; refresh: string };
  }

  async token(): Promise<string> {
    this.accessToken ??= (await this.tokens()).access;
    return this.accessToken;
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? await this.token() : options.token;
    if (token !== false && !('authorization' in headers)) headers.authorization = `Bearer ${token}`;
    let body: string | FormData | Uint8Array | undefined = options.raw;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.url}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  get = (path: string, options?: CallOptions) => this.call('GET', path, options);
  post = (path: string, json: unknown, options?: CallOptions) =>
    this.call('POST', path, { ...options, json });
  put = (path: string, json: unknown, options?: CallOptions) => this.call('PUT', path, { ...options, json });
  patch = (path: string, json: unknown, options?: CallOptions) =>
    this.call('PATCH', path, { ...options, json });
  delete = (path: string, options?: CallOptions) => this.call('DELETE', path, options);

  async createDevice(fields: Record<string, unknown> = {}): Promise<{ id: number; code: string }> {
    const code = `D-${Math.random().toString(36).slice(2)}`;
    const response = await this.post('/api/devices/', { name: 'Pump', code, ...fields });
    if (response.status !== 201) throw new Error(`device: ${response.status} ${response.text}`);
    return response.body as { id: number; code: string };
  }
}
