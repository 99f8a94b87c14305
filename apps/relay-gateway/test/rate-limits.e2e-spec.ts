import {
  auth,
  type Fixture,
  type RelayGateway,
  SECRET,
  startFixture,
  startRelay,
} from './support/relay-harness';

interface Started {
  conversationId: string;
  token: string;
}

/** Three relay instances on one Redis, each with its own connections; requests go round-robin over them. */
describe('rate limits across three relay instances on one Redis', () => {
  const limits = {
    RELAY_RATE_LIMIT_PER_TOKEN: '9',
    RELAY_RATE_LIMIT_PER_CONVERSATION: '6',
    RELAY_UPLOAD_FILES_PER_CONVERSATION: '3',
  };
  let fixture: Fixture;
  let others: RelayGateway[];
  let bases: string[];

  beforeAll(async () => {
    fixture = await startFixture(limits);
    others = await Promise.all([1, 2].map(() => startRelay(fixture.configPath, limits)));
    bases = [fixture.base, ...others.map((relay) => `${relay.url}/v3/directline`)];
  });
  afterAll(async () => {
    await Promise.all(others.map((relay) => relay.close()));
    await fixture.close();
  });

  async function startConversation(): Promise<Started> {
    const response = await fetch(`${bases[0]}/conversations`, { method: 'POST', headers: auth(SECRET) });
    expect(response.status).toBe(201);
    return (await response.json()) as Started;
  }

  /** `count` requests, the n-th to instance n mod 3, one after another; their statuses and Retry-After. */
  async function roundRobin(
    count: number,
    request: (base: string, index: number) => Promise<Response>,
  ): Promise<Array<{ status: number; retryAfter: string | null; code?: string }>> {
    const outcomes: Array<{ status: number; retryAfter: string | null; code?: string }> = [];
    for (let index = 0; index < count; index += 1) {
      const response = await request(bases[index % bases.length], index);
      const body = (await response.json().catch(() => undefined)) as { error?: { code: string } } | undefined;
      outcomes.push({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        code: body?.error?.code,
      });
    }
    return outcomes;
  }

  it('sends per conversation: 6 per minute in total, whichever instance takes them', async () => {
    const { conversationId, token } = await startConversation();
    const outcomes = await roundRobin(9, (base, index) =>
      fetch(`${base}/conversations/${conversationId}/activities`, {
        method: 'POST',
        headers: auth(token),
        body: JSON.stringify({ type: 'message', from: { id: 'u1' }, text: `m${index}` }),
      }),
    );
    expect(outcomes.map(({ status }) => status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429]);
    for (const refused of outcomes.slice(6)) {
      expect(refused.code).toBe('TooManyRequests');
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    }
    expect(fixture.bot.messages(conversationId).filter(({ type }) => type === 'message')).toHaveLength(6);
  });

  it('requests per token: 9 per minute in total, whichever instance takes them', async () => {
    const { conversationId, token } = await startConversation();
    const outcomes = await roundRobin(12, (base) =>
      fetch(`${base}/conversations/${conversationId}/activities`, { headers: auth(token) }),
    );
    expect(outcomes.map(({ status }) => status)).toEqual([...Array<number>(9).fill(200), 429, 429, 429]);
    expect(outcomes[9]).toMatchObject({ code: 'TooManyRequests' });
    expect(Number(outcomes[9].retryAfter)).toBeGreaterThanOrEqual(1);
  });

  it('upload quota per conversation: 3 files in total, whichever instance takes them', async () => {
    const { conversationId, token } = await startConversation();
    const outcomes = await roundRobin(4, (base) => {
      const form = new FormData();
      form.append(
        'activity',
        new Blob([JSON.stringify({ type: 'message', from: { id: 'u1' }, text: 'file' })], {
          type: 'application/vnd.microsoft.activity',
        }),
        'blob',
      );
      form.append('file', new Blob(['a'], { type: 'text/plain' }), 'a.txt');
      return fetch(`${base}/conversations/${conversationId}/upload?userId=u1`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      });
    });
    expect(outcomes.map(({ status }) => status)).toEqual([200, 200, 200, 429]);
    expect(outcomes[3]).toMatchObject({ code: 'TooManyRequests' });
  });
});
