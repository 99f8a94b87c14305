import { withProcessEnvironment } from './process-environment';

describe('withProcessEnvironment', () => {
  it('sets the values, then restores what was there (and removes what was not)', () => {
    process.env.FIELDOPS_TEST_KEPT = 'before';
    delete process.env.FIELDOPS_TEST_NEW;
    const restore = withProcessEnvironment({ FIELDOPS_TEST_KEPT: 'during', FIELDOPS_TEST_NEW: 'new' });
    expect([process.env.FIELDOPS_TEST_KEPT, process.env.FIELDOPS_TEST_NEW]).toEqual(['during', 'new']);
    restore();
    expect(process.env.FIELDOPS_TEST_KEPT).toBe('before');
    expect('FIELDOPS_TEST_NEW' in process.env).toBe(false);
    delete process.env.FIELDOPS_TEST_KEPT;
  });
});
