import { createScratchDatabase } from '@fieldops/database';
import { Client } from 'pg';
import { INSPECTION_MIGRATIONS, startInspectionApi } from '../src';

const adminUrl = (): string => {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is set by the Jest global setup');
  return url;
};

function environmentFor(databaseUrl: string) {
  return { INSPECTION_API_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl };
}

async function appliedMigrations(databaseUrl: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

describe('inspection-api service', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let api: Awaited<ReturnType<typeof startInspectionApi>>;
  beforeAll(async () => {
    database = await createScratchDatabase(adminUrl(), 'inspection_e2e');
    api = await startInspectionApi({ environment: environmentFor(database.url) });
  });
  afterAll(async () => {
    await api?.close();
    await database?.drop();
  });

  it('migrates its database at start-up and reports it ready', async () => {
    expect(await appliedMigrations(database.url)).toEqual(
      INSPECTION_MIGRATIONS.map((migration) => migration.name),
    );
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ok',
      checks: { database: { status: 'up' }, events: { status: 'up', advisory: true } },
    });
  });

  it('answers in the DRF wire format and fails closed without credentials', async () => {
    const unknown = await fetch(`${api.url}/api/nothing-here/`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: 'Not found.' });
  });

  it('serves Prometheus metrics labelled with its service name', async () => {
    expect(await (await fetch(`${api.url}/metrics`)).text()).toContain('service="inspection-api"');
  });
});

describe('inspection-api replicas', () => {
  it('two copies started together against one empty database run each migration exactly once', async () => {
    const database = await createScratchDatabase(adminUrl(), 'inspection_replicas');
    try {
      const replicas = await Promise.all(
        [1, 2].map(() => startInspectionApi({ environment: environmentFor(database.url) })),
      );
      try {
        expect(await appliedMigrations(database.url)).toEqual(
          INSPECTION_MIGRATIONS.map((migration) => migration.name),
        );
        for (const replica of replicas) expect((await fetch(`${replica.url}/readyz`)).status).toBe(200);
      } finally {
        await Promise.all(replicas.map((replica) => replica.close()));
      }
    } finally {
      await database.drop();
    }
  });
});

describe('inspection-api configuration', () => {
  it('refuses to start with an invalid setting, naming it', async () => {
    await expect(
      startInspectionApi({ environment: { ...environmentFor('postgres://x'), DATABASE_POOL_SIZE: '0' } }),
    ).rejects.toThrow(/DATABASE_POOL_SIZE/);
  });
});

describe('inspection-api documentation', () => {
  it('serves OpenAPI 3 at /api/schema/ with the spec fields, bounds and the multipart upload, and a UI', async () => {
    const database = await createScratchDatabase(adminUrl(), 'inspection_openapi');
    const api = await startInspectionApi({ environment: environmentFor(database.url) });
    try {
      const response = await fetch(`${api.url}/api/schema/`);
      expect(response.status).toBe(200);
      const document = (await response.json()) as {
        openapi: string;
        paths: Record<
          string,
          Record<
            string,
            {
              requestBody?: { content: Record<string, unknown> };
              parameters?: Array<{ name: string; in: string }>;
              responses?: Record<string, unknown>;
            }
          >
        >;
        components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
      };
      expect(document.openapi).toMatch(/^3\./);
      for (const path of [
        '/api/devices/',
        '/api/devices/{id}/',
        '/api/items/',
        '/api/items/{id}/',
        '/api/plans/',
        '/api/plans/{id}/',
        '/api/records/',
        '/api/records/{id}/',
        '/api/token/',
        '/api/token/refresh/',
      ])
        expect(document.paths[path]).toBeDefined();
      // The spec's 26 operations (issue 14 adds more paths: users, due checks, statistics, export).
      const SPEC_PATHS = /^\/api\/(devices|items|plans|records|token)\/(\{id\}\/|refresh\/)?$/;
      const operations = Object.entries(document.paths)
        .filter(([path]) => SPEC_PATHS.test(path))
        .flatMap(([, item]) => Object.keys(item));
      expect(operations).toHaveLength(26);
      expect(Object.keys(document.paths['/api/records/']?.post?.requestBody?.content ?? {})).toContain(
        'multipart/form-data',
      );
      // Record writes take an Idempotency-Key (422: the key was used for another request).
      for (const [path, method] of [
        ['/api/records/', 'post'],
        ['/api/records/{id}/', 'put'],
        ['/api/records/{id}/', 'patch'],
      ] as const) {
        const operation = document.paths[path]?.[method];
        expect(operation?.parameters).toContainEqual(
          expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
        );
        expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['409', '422']));
      }
      // Corrective actions: list, detail (no DELETE: actions are never deleted), comments, and the restore route.
      expect(Object.keys(document.paths['/api/actions/'] ?? {})).toEqual(['get', 'post']);
      expect(Object.keys(document.paths['/api/actions/{id}/'] ?? {})).toEqual(['get', 'put', 'patch']);
      expect(Object.keys(document.paths['/api/actions/{id}/comments/'] ?? {})).toEqual(['get', 'post']);
      expect(Object.keys(document.paths['/api/devices/{id}/restore/'] ?? {})).toEqual(['post']);
      expect(document.components.schemas.ActionDto?.properties.status).toMatchObject({
        enum: ['open', 'in_progress', 'done', 'verified', 'cancelled'],
      });
      expect(document.paths['/api/devices/']?.post?.parameters ?? []).not.toContainEqual(
        expect.objectContaining({ name: 'Idempotency-Key' }),
      );
      const device = document.components.schemas.DeviceDto?.properties;
      expect(device?.name).toMatchObject({ minLength: 1, maxLength: 200 });
      expect(device?.code).toMatchObject({ minLength: 1, maxLength: 100 });
      expect(document.components.schemas.CheckRecordMultipartDto?.properties.photo).toMatchObject({
        format: 'binary',
      });
      const ui = await fetch(`${api.url}/api/docs/`);
      expect(ui.status).toBe(200);
      expect(await ui.text()).toContain('swagger');
    } finally {
      await api.close();
      await database.drop();
    }
  });
});
