import { type ApiResponse, TestApi } from './support/test-api';

interface RecordBody {
  id: number;
  status: string;
  checked_by: string;
  checked_at: string;
  item: number | null;
}

/**
 * `if_unanswered_since` on `POST /api/records/` against a real PostgreSQL and two app replicas on one database: of
 * concurrent conditional answers to one item exactly one is recorded, the others get 409 with the record that won;
 * a retry under the winner's Idempotency-Key replays it; an unconditional create ("record … as well") still goes.
 */
describe('conditional record create (if_unanswered_since)', () => {
  let api: TestApi;
  let replica: { url: string; close: () => Promise<void> };
  let token: string;
  let device: number;

  beforeAll(async () => {
    api = await TestApi.start('inspection_conditional');
    replica = await api.restartLike();
    token = await api.token();
    device = (await api.createDevice()).id;
  });
  afterAll(async () => {
    await replica?.close();
    await api?.close();
  });

  const newItem = async (name: string): Promise<number> => {
    const created = await api.post('/api/items/', { name, device });
    expect(created.status).toBe(201);
    return (created.body as { id: number }).id;
  };
  const records = async (item: number): Promise<RecordBody[]> =>
    ((await api.get(`/api/records/?item=${item}&page_size=100`)).body as { results: RecordBody[] }).results;
  /** A create sent to the first app or the replica. */
  const create = async (
    onReplica: boolean,
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> => {
    if (!onReplica) return api.post('/api/records/', body, { headers });
    const response = await fetch(`${replica.url}/api/records/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: JSON.parse(text) as unknown };
  };

  it('of 12 concurrent conditional answers to one item over two replicas, exactly one is recorded', async () => {
    const item = await newItem('Pressure');
    const since = new Date(Date.now() - 60_000).toISOString();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        create(index % 2 === 1, {
          device,
          item,
          status: index % 3 === 0 ? 'fail' : 'ok',
          checked_by: `inspector-${index}`,
          if_unanswered_since: since,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(11).fill(409)]);
    const stored = await records(item);
    expect(stored).toHaveLength(1);
    const winner = answers.find((answer) => answer.status === 201)?.body as RecordBody;
    expect(stored[0]?.id).toBe(winner.id);
    for (const refused of answers.filter((answer) => answer.status === 409)) {
      expect(refused.body).toEqual({
        detail: expect.stringContaining('already has a record since') as unknown,
        code: 'already_answered',
        record: expect.objectContaining({ id: winner.id, checked_by: winner.checked_by }) as unknown,
      });
    }
  });

  it('counts only records since the instant, and only of that item', async () => {
    const item = await newItem('Temperature');
    const other = await newItem('Noise');
    expect((await create(false, { device, item: other, status: 'ok' })).status).toBe(201);
    expect((await create(false, { device, item, status: 'ok' })).status).toBe(201);
    // A later instant: the earlier record is of another round.
    const later = new Date(Date.now() + 1000).toISOString();
    expect((await create(true, { device, item, status: 'warn', if_unanswered_since: later })).status).toBe(
      201,
    );
    expect(await records(item)).toHaveLength(2);
    // A date alone is the start of that day in the API's time zone (UTC here), as /api/due/ gives period_start.
    const [newest] = await records(item);
    const day = newest?.checked_at.slice(0, 10);
    const refused = await create(false, { device, item, status: 'fail', if_unanswered_since: day });
    expect(refused.status).toBe(409);
    expect((refused.body as { record: RecordBody }).record.id).toBe(newest?.id);
  });

  it('a retry under the winning Idempotency-Key replays it; the confirmed answer goes without the condition', async () => {
    const item = await newItem('Valve');
    const since = new Date(Date.now() - 60_000).toISOString();
    const body = { device, item, status: 'ok', if_unanswered_since: since };
    const first = await create(false, body, { 'idempotency-key': '"tap-1"' });
    expect(first.status).toBe(201);
    const retry = await create(true, body, { 'idempotency-key': '"tap-1"' });
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const second = await create(true, { ...body, status: 'fail' }, { 'idempotency-key': '"tap-2"' });
    expect(second.status).toBe(409);
    // Refused, nothing kept under its key: the same tap confirmed without the condition is another request.
    const asWell = await create(false, { device, item, status: 'fail' }, { 'idempotency-key': '"tap-2b"' });
    expect(asWell.status).toBe(201);
    expect((await records(item)).map((record) => record.status).sort()).toEqual(['fail', 'ok']);
  });

  it('bad conditions are 400 in DRF format, a multipart create takes the condition too', async () => {
    const item = await newItem('Filter');
    expect(
      (await create(false, { device, item, status: 'ok', if_unanswered_since: 'yesterday' })).body,
    ).toEqual({
      if_unanswered_since: [
        'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
      ],
    });
    // With other bad fields: every field's error in one body, the condition's in its place (the last field).
    const many = await create(false, {
      device,
      item: 999_999,
      status: 'bogus',
      value: 'x'.repeat(201),
      if_unanswered_since: 'yesterday',
    });
    expect(many.status).toBe(400);
    expect(Object.keys(many.body as object)).toEqual(['status', 'value', 'item', 'if_unanswered_since']);
    expect(many.body).toMatchObject({
      status: ['"bogus" is not a valid choice.'],
      if_unanswered_since: [expect.stringMatching(/^Datetime has wrong format/) as unknown],
    });
    const noItem = await create(false, { device, status: 'ok', if_unanswered_since: '2026-01-01T00:00:00Z' });
    expect(noItem.status).toBe(400);
    expect(noItem.body).toEqual({ if_unanswered_since: ['Requires an item.'] });
    const form = (status: string) => {
      const data = new FormData();
      data.append('device', String(device));
      data.append('item', String(item));
      data.append('status', status);
      data.append('if_unanswered_since', '2026-01-01T00:00:00Z');
      return data;
    };
    expect((await api.call('POST', '/api/records/', { raw: form('ok') })).status).toBe(201);
    expect((await api.call('POST', '/api/records/', { raw: form('warn') })).status).toBe(409);
    expect(await records(item)).toHaveLength(1);
  });
});
