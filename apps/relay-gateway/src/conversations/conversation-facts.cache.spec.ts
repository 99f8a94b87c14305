import { ConversationFactsCache } from './conversation-facts.cache';

describe('ConversationFactsCache', () => {
  it('remembers a conversation’s bot and claimed milestones until the entry expires', () => {
    let now = 1_000;
    const cache = new ConversationFactsCache(60_000, 10, () => now);
    expect(cache.botOf('c1')).toBeUndefined();
    expect(cache.isClaimed('c1', 'userJoined')).toBe(false);
    cache.rememberBot('c1', 'bot-a');
    cache.rememberClaimed('c1', 'userJoined');
    expect(cache.botOf('c1')).toBe('bot-a');
    expect(cache.isClaimed('c1', 'userJoined')).toBe(true);
    expect(cache.isClaimed('c1', 'started')).toBe(false);
    now += 60_000;
    expect(cache.botOf('c1')).toBeUndefined();
    expect(cache.isClaimed('c1', 'userJoined')).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries conversations, dropping the oldest', () => {
    const cache = new ConversationFactsCache(60_000, 2);
    cache.rememberBot('c1', 'a');
    cache.rememberBot('c2', 'a');
    cache.rememberBot('c3', 'a');
    expect(cache.size).toBe(2);
    expect(cache.botOf('c1')).toBeUndefined();
    expect(cache.botOf('c2')).toBe('a');
    expect(cache.botOf('c3')).toBe('a');
  });
});
