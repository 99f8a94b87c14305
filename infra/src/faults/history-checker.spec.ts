import { checkHistory, type ClientHistory, type ConversationHistory } from './history-checker';

const entry = (seq: number, text: string) => ({ id: `c|${String(seq).padStart(7, '0')}`, text });

function client(overrides: Partial<ClientHistory> = {}): ClientHistory {
  return { name: 'a', received: [], acknowledged: new Map(), unknown: [], open: true, ...overrides };
}

function conversation(log: ConversationHistory['log'], clients: ClientHistory[]): ConversationHistory {
  return { conversationId: 'c', log, clients };
}

describe('checkHistory', () => {
  const log = [entry(0, 'm0'), entry(1, 'm1'), entry(3, 'm3')];

  it('finds nothing in a clean history (a voided seq is a gap in ids, not a skipped activity)', () => {
    const result = checkHistory(
      [
        conversation(log, [
          client({
            received: log,
            acknowledged: new Map([
              [log[0].id, 'm0'],
              [log[2].id, 'm3'],
            ]),
            unknown: ['m2', 'm1'],
          }),
        ]),
      ],
      [
        { status: 200, count: 10 },
        { status: 503, count: 2 },
      ],
    );
    expect(result.violations).toEqual([]);
    expect(result.counts).toMatchObject({
      logActivities: 3,
      acknowledged: 2,
      unknownOutcomes: 2,
      unknownOutcomesStored: 1,
    });
  });

  it('reports an acknowledged id lost or reused by a failover, as the lagging-replica promotion did', () => {
    // Acknowledged m1 as seq 1 and m2 as seq 2; the promoted replica lost both and gave seq 1 to m5.
    const promoted = [entry(0, 'm0'), entry(1, 'm5')];
    const result = checkHistory([
      conversation(promoted, [
        client({
          name: 'a',
          received: [entry(0, 'm0'), entry(1, 'm1'), entry(2, 'm2')],
          acknowledged: new Map([
            [entry(1, 'm1').id, 'm1'],
            [entry(2, 'm2').id, 'm2'],
          ]),
        }),
        client({ name: 'b', received: promoted, acknowledged: new Map([[entry(1, 'm5').id, 'm5']]) }),
      ]),
    ]);
    const kinds = result.violations.map((violation) => violation.kind).sort();
    expect(kinds).toEqual(['id-reused', 'lost', 'lost', 'phantom', 'phantom']);
  });

  it('reports skipped, repeated and reordered deliveries and unknown outcomes stored twice', () => {
    const twice = [...log, { id: 'c|0000004', text: 'm1' }];
    const result = checkHistory([
      conversation(twice, [
        client({ name: 'skips', received: [log[0], log[2], twice[3]] }),
        client({ name: 'repeats', received: [log[0], log[1], log[1], log[2], twice[3]] }),
        client({ name: 'reorders', received: [log[1], log[0], log[2], twice[3]] }),
        client({ name: 'retried', received: twice, unknown: ['m1'] }),
        client({ name: 'closed', received: [log[0]], open: false }),
      ]),
    ]);
    expect(result.violations.map((violation) => [violation.kind, violation.client])).toEqual([
      ['not-delivered', 'skips'],
      ['delivered-twice', 'repeats'],
      ['out-of-order', 'repeats'],
      ['out-of-order', 'reorders'],
      ['unknown-twice', 'retried'],
    ]);
  });

  it("reports every 5xx answer other than 503, a gateway's 502 and 504 included, naming examples", () => {
    const result = checkHistory(
      [],
      [
        { status: 500, count: 1 },
        { status: 502, count: 3, examples: ['POST /a → 502', 'POST /b → 502'] },
        { status: 503, count: 4, examples: ['POST /c → 503'] },
        { status: 504, count: 1 },
        { status: 200, count: 9 },
      ],
    );
    expect(result.violations).toEqual([
      { kind: 'server-error', detail: '1 answer(s) with status 500' },
      { kind: 'server-error', detail: '3 answer(s) with status 502: POST /a → 502; POST /b → 502' },
      { kind: 'server-error', detail: '1 answer(s) with status 504' },
    ]);
    expect(result.counts.statuses).toEqual({ '200': 9, '500': 1, '502': 3, '503': 4, '504': 1 });
  });
});
