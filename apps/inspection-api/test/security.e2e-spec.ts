import { TestApi } from './support/test-api';

/** JSON text of `"x"` nested `depth` lists deep (JSON.stringify itself would overflow the stack). */
const nested = (depth: number): string => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;

/** Probes of the outside security review (issue 15), replayed against inspection-api so none can come back. */
describe('inspection-api security', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start('inspection_security');
  });
  afterAll(() => api?.close());

  describe('finding 4: text conversion of any input', () => {
    it('10,000-deep nesting in a text or choice field is a 400, never a 500', async () => {
      const json = { 'content-type': 'application/json' };
      const device = await api.call('POST', '/api/devices/', {
        raw: `{"name":${nested(10_000)},"code":"DEEP-1"}`,
        headers: json,
      });
      expect(device.status).toBe(400);
      const plan = await api.call('POST', '/api/plans/', {
        raw: `{"name":"p","frequency":${nested(10_000)},"devices":[1]}`,
        headers: json,
      });
      expect(plan.status).toBe(400);
    });
  });
});
