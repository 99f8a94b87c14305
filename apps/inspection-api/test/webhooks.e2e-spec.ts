import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createScratchDatabase, type ScratchDatabase } from '@fieldops/database';
import { startInspectionApi } from '../src';
import { verify } from '../src/webhooks/webhook-signature';
import { ADMIN, SIGNING_KEY, TestApi } from './support/test-api';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

interface Delivery {
  id: string;
  event: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string;
}

/** Short retries for tests: 1 s, then about 2 s, 4 s … (INSPECTION_WEBHOOK_RETRY_DELAY_SECONDS). */
const FAST = {
  INSPECTION_EVENTS_RUNNER: 'true',
  INSPECTION_EVENTS_POLL_MS: '100',
  INSPECTION_WEBHOOK_RETRY_DELAY_SECONDS: '1',
  INSPECTION_WEBHOOK_RETRY_WINDOW_SECONDS: '60',
  INSPECTION_WEBHOOK_TIMEOUT_MS: '5000',
  INSPECTION_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
};

async function register(
  api: TestApi,
  url: string,
  events = ['record.failed'],
): Promise<{ id: number; secret: string }> {
  const created = await api.post('/api/webhooks/', { url, events });
  expect(created.status).toBe(201);
  return created.body as { id: number; secret: string };
}

async function deliveriesOf(api: TestApi, endpoint: number): Promise<Delivery[]> {
  const response = await api.get(`/api/webhooks/${endpoint}/deliveries/?page_size=100`);
  expect(response.status).toBe(200);
  return (response.body as { results: Delivery[] }).results;
}

async function failRecord(api: TestApi, device: number): Promise<number> {
  const created = await api.post('/api/records/', { status: 'fail', device });
  expect(created.status).toBe(201);
  return (created.body as { id: number }).id;
}

describe('webhooks (/api/webhooks/)', () => {
  let api: TestApi;
  let receiver: WebhookReceiver;
  let device: number;

  beforeAll(async () => {
    api = await TestApi.start('inspection_webhooks', FAST);
    receiver = await WebhookReceiver.start();
    device = (await api.createDevice()).id;
  });
  afterAll(async () => {
    await api?.close();
    await receiver?.close();
  });

  it('shows the event runner in /readyz as an advisory check', async () => {
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).toBe(200);
    const report = (await ready.json()) as { checks: Record<string, { status: string; advisory?: boolean }> };
    expect(report.checks.events).toEqual({ status: 'up', advisory: true });
  });

  it('registers an endpoint in DRF form, its secret shown once', async () => {
    const created = await api.post('/api/webhooks/', {
      url: 'https://hooks.example.com/in',
      events: ['action.done', 'record.failed'],
    });
    expect(created.status).toBe(201);
    const body = created.body as Record<string, unknown>;
    expect(body).toMatchObject({
      url: 'https://hooks.example.com/in',
      events: ['record.failed', 'action.done'],
      active: true,
      created_by: 'admin',
      failing_since: null,
      disabled_reason: '',
    });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const shown = await api.get(`/api/webhooks/${String(body.id)}/`);
    expect(shown.body).not.toHaveProperty('secret');
    expect((await api.patch(`/api/webhooks/${String(body.id)}/`, { active: false })).body).toMatchObject({
      active: false,
    });
    expect((await api.get('/api/webhooks/')).body).toMatchObject({ count: 1, next: null, previous: null });
    expect((await api.delete(`/api/webhooks/${String(body.id)}/`)).status).toBe(204);
    expect((await api.get(`/api/webhooks/${String(body.id)}/`)).status).toBe(404);
  });

  it('answers bad input with DRF field errors', async () => {
    expect((await api.post('/api/webhooks/', {})).body).toEqual({
      url: ['This field is required.'],
      events: ['This field is required.'],
    });
    expect(
      (await api.post('/api/webhooks/', { url: 'ftp://x.example.com/', events: ['nope'], secret: 'short' }))
        .body,
    ).toEqual({
      url: ['Enter a valid URL.'],
      events: ['"nope" is not a valid choice.'],
      secret: ['Enter a Standard Webhooks secret: "whsec_" followed by the base64 of 24 to 64 random bytes.'],
    });
    expect((await api.post('/api/webhooks/', { url: 'https://x.example.com/', events: [] })).body).toEqual({
      events: ['This selection may not be empty.'],
    });
  });

  it('is for supervisors only', async () => {
    await api.post('/api/users/', { username: 'ivy', password: 'ivy password', role: 'inspector' });
    const token = (await api.tokens('ivy', 'ivy password')).access;
    expect((await api.get('/api/webhooks/', { token })).status).toBe(403);
  });

  it('delivers a failed record once, signed (Standard Webhooks), with its log', async () => {
    const endpoint = await register(api, receiver.url);
    const record = await failRecord(api, device);
    const [delivery] = await eventually(async () => {
      const log = await deliveriesOf(api, endpoint.id);
      return log[0]?.status === 'delivered' ? log : undefined;
    });
    expect(delivery).toMatchObject({
      event_type: 'record.failed',
      status: 'delivered',
      attempts: 1,
      last_status_code: 200,
      last_error: '',
    });
    const [received] = receiver.received.filter((item) => item.id === delivery?.event);
    expect(received).toBeDefined();
    expect(verify(endpoint.secret, received, received.body)).toBe(true);
    expect(JSON.parse(received.body)).toMatchObject({
      id: delivery?.event,
      type: 'record.failed',
      data: { id: record, status: 'fail', device },
    });
    expect(receiver.received.filter((item) => item.id === delivery?.event)).toHaveLength(1);
    await api.delete(`/api/webhooks/${endpoint.id}/`);
  });

  it('retries a receiver that fails 3 times, which then gets the event once, validly signed', async () => {
    const flaky = await WebhookReceiver.start();
    flaky.answer = (attempt) => (attempt <= 3 ? 503 : 200);
    try {
      const endpoint = await register(api, flaky.url);
      await failRecord(api, device);
      const [delivery] = await eventually(async () => {
        const log = await deliveriesOf(api, endpoint.id);
        return log[0]?.status === 'delivered' ? log : undefined;
      });
      expect(delivery).toMatchObject({
        status: 'delivered',
        attempts: 4,
        last_status_code: 200,
        last_error: '',
      });
      expect(flaky.received.map((item) => item.answered)).toEqual([503, 503, 503, 200]);
      expect(new Set(flaky.received.map((item) => item.id))).toEqual(new Set([delivery?.event]));
      expect(flaky.accepted()).toHaveLength(1);
      const last = flaky.received[3];
      expect(verify(endpoint.secret, last, last.body)).toBe(true);
      await api.delete(`/api/webhooks/${endpoint.id}/`);
    } finally {
      await flaky.close();
    }
  }, 120_000);

  it('does not follow a redirect', async () => {
    const redirecting = await WebhookReceiver.start();
    redirecting.answer = () => 302;
    try {
      const endpoint = await register(api, redirecting.url);
      await failRecord(api, device);
      const [delivery] = await eventually(async () => {
        const log = await deliveriesOf(api, endpoint.id);
        return log[0]?.attempts ? log : undefined;
      });
      expect(delivery).toMatchObject({
        last_status_code: 302,
        last_error: 'answered 302: redirects are not followed',
      });
      await api.delete(`/api/webhooks/${endpoint.id}/`);
    } finally {
      await redirecting.close();
    }
  });

  it('two replicas deliver each event once', async () => {
    const second = await api.restartLike();
    const many = await WebhookReceiver.start();
    try {
      const endpoint = await register(api, many.url);
      const records = [];
      for (let index = 0; index < 20; index += 1) records.push(await failRecord(api, device));
      const log = await eventually(async () => {
        const deliveries = await deliveriesOf(api, endpoint.id);
        return deliveries.length === 20 && deliveries.every((delivery) => delivery.status === 'delivered')
          ? deliveries
          : undefined;
      });
      expect(log.every((delivery) => delivery.attempts === 1)).toBe(true);
      expect(many.received).toHaveLength(20);
      expect(new Set(many.received.map((item) => item.id)).size).toBe(20);
      expect(
        many
          .accepted()
          .map((event) => event.data.id)
          .sort((a, b) => Number(a) - Number(b)),
      ).toEqual(records);
      await api.delete(`/api/webhooks/${endpoint.id}/`);
    } finally {
      await second.close();
      await many.close();
    }
  }, 120_000);
});

describe('webhook addresses (SSRF)', () => {
  let api: TestApi;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    api = await TestApi.start('inspection_webhooks_ssrf', {
      INSPECTION_EVENTS_RUNNER: 'true',
      INSPECTION_EVENTS_POLL_MS: '100',
      INSPECTION_WEBHOOK_RETRY_DELAY_SECONDS: '1',
      INSPECTION_WEBHOOK_RETRY_WINDOW_SECONDS: '1',
    });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await api?.close();
    await receiver?.close();
  });

  it.each([
    'http://127.0.0.1:9/',
    'http://[::1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://localhost/',
    'http://[::ffff:127.0.0.1]/',
  ])('refuses %s unless an operator allows it', async (url) => {
    const refused = await api.post('/api/webhooks/', { url, events: ['record.failed'] });
    expect(refused.status).toBe(400);
    expect((refused.body as { url: string[] }).url[0]).toMatch(
      /^Refused: .* address \(webhooks reach public addresses only/,
    );
  });

  it('checks the address at connect time too (a name that resolves to loopback later)', async () => {
    // As if the endpoint's name had resolved to a public address when it was registered.
    const db = new Client({ connectionString: api.database.url });
    await db.connect();
    try {
      const url = receiver.url.replace('127.0.0.1', 'localhost');
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO "webhook_endpoints" ("url", "events", "secret") VALUES ($1, '{record.failed}', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw') RETURNING "id"`,
        [url],
      );
      const endpoint = rows[0].id;
      const device = (await api.createDevice()).id;
      await failRecord(api, device);
      const [delivery] = await eventually(async () => {
        const log = await deliveriesOf(api, endpoint);
        return log[0]?.status === 'failed' ? log : undefined;
      });
      expect(delivery?.last_error).toMatch(/^refused: .* is a loopback address/);
      expect(delivery?.last_status_code).toBeNull();
      expect(receiver.received).toEqual([]);
    } finally {
      await db.end();
    }
  });
});

describe('a crash between the commit and the delivery', () => {
  let database: ScratchDatabase;
  let receiver: WebhookReceiver;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    database = await createScratchDatabase(process.env.DATABASE_URL!, 'inspection_webhooks_crash');
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await receiver?.close();
    await database?.drop();
  });

  it('loses nothing: the event is delivered after the restart, once', async () => {
    const environment = {
      ...FAST,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      INSPECTION_JWT_SIGNING_KEY: SIGNING_KEY,
      INSPECTION_ADMIN_USERNAME: ADMIN.username,
      INSPECTION_ADMIN_PASSWORD: ADMIN.password,
      INSPECTION_MEDIA_ROOT: await mkdtemp(join(tmpdir(), 'inspection-media-')),
    };
    // The first process runs no event runner: the record's event waits in the outbox when it dies.
    const port = 7511;
    child = spawn(process.execPath, [join(__dirname, '..', 'dist', 'main.js')], {
      env: {
        ...process.env,
        ...environment,
        INSPECTION_API_PORT: String(port),
        INSPECTION_EVENTS_RUNNER: 'false',
      },
      stdio: 'ignore',
    });
    const url = `http://127.0.0.1:${port}`;
    await eventually(
      async () => ((await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200 ? true : undefined),
      200,
    );
    const call = async (method: string, path: string, token: string | undefined, json?: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const token = (await call('POST', '/api/token/', undefined, ADMIN)).body.access as string;
    const endpoint = await call('POST', '/api/webhooks/', token, {
      url: receiver.url,
      events: ['record.failed'],
    });
    expect(endpoint.status).toBe(201);
    const device = await call('POST', '/api/devices/', token, { name: 'Pump', code: 'P-crash' });
    const record = await call('POST', '/api/records/', token, { status: 'fail', device: device.body.id });
    expect(record.status).toBe(201);

    const killed = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await killed;
    child = undefined;
    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      const { rows } = await db.query<{ pending: number }>(
        `SELECT count(*)::int AS "pending" FROM "events" WHERE "dispatched_at" IS NULL`,
      );
      expect(rows[0]?.pending).toBe(1);
    } finally {
      await db.end();
    }
    expect(receiver.received).toEqual([]);

    const restarted = await startInspectionApi({ environment: { ...environment, INSPECTION_API_PORT: '0' } });
    try {
      const [delivered] = await eventually(() =>
        receiver.accepted().length ? receiver.accepted() : undefined,
      );
      expect(delivered).toMatchObject({ type: 'record.failed', data: { id: record.body.id } });
      // Once: a second replica starting now finds nothing left to send.
      const another = await startInspectionApi({ environment: { ...environment, INSPECTION_API_PORT: '0' } });
      await another.close();
      expect(receiver.received).toHaveLength(1);
    } finally {
      await restarted.close();
    }
  }, 120_000);
});
