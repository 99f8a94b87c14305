import { type BotFrameworkError } from '@fieldops/contracts';
import { validateClientActivity } from './activity-validation';

function failure(body: unknown, maxBytes = 1000): { status: number; code: string } {
  try {
    validateClientActivity(body, maxBytes);
  } catch (error) {
    const exception = error as BotFrameworkError;
    return { status: exception.status, code: exception.code };
  }
  throw new Error('expected a failure');
}

describe('validateClientActivity', () => {
  it('accepts an activity with type and from.id, keeping unknown fields', () => {
    const body = { type: 'message', from: { id: 'u' }, channelData: { a: 1 }, custom: true };
    expect(validateClientActivity(body, 1000)).toBe(body);
  });

  it('names what is wrong with the stable codes', () => {
    expect(failure([])).toEqual({ status: 400, code: 'BadSyntax' });
    expect(failure('text')).toEqual({ status: 400, code: 'BadSyntax' });
    expect(failure({ from: { id: 'u' } })).toEqual({ status: 400, code: 'MissingProperty' });
    expect(failure({ type: 'message' })).toEqual({ status: 400, code: 'MissingProperty' });
    expect(failure({ type: 'message', from: { name: 'x' } })).toEqual({
      status: 400,
      code: 'MissingProperty',
    });
    expect(failure({ type: 'conversationUpdate', from: { id: 'u' } })).toEqual({
      status: 400,
      code: 'BadArgument',
    });
    expect(failure({ type: 'message', from: { id: 'u' }, text: 'x'.repeat(2000) })).toEqual({
      status: 413,
      code: 'MessageSizeTooBig',
    });
  });
});
