import { assertTokenForConversation } from './token-conversation';

describe('assertTokenForConversation', () => {
  it('accepts a token of the conversation', () => {
    expect(() => assertTokenForConversation('c1', 'c1')).not.toThrow();
  });

  it('refuses a token of another conversation, or of another kind, with 403 BadArgument', () => {
    for (const tokenConversation of ['c2', 'C1', undefined]) {
      let thrown: unknown;
      try {
        assertTokenForConversation(tokenConversation, 'c1');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({
        status: 403,
        code: 'BadArgument',
        message: 'Security token not valid for this conversation',
      });
    }
  });
});
