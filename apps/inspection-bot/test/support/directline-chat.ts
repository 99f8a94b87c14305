import { waitFor } from '@fieldops/testing';
import {
  fetchAjax,
  type PlainActivity as Activity,
  RecordingClient,
} from '@fieldops/testing/directline-client';
import { INSPECTOR, type RunningInspectionPlatform } from './platform';

/** The stock DirectLineJS client in a conversation the chat page's routes gave a signed-in inspector. */
export interface SignedInChat {
  client: RecordingClient<Activity>;
  /** The `dl_<id>` the relay stamps on what the client sends. */
  userId: string;
}

/**
 * Signs in on the chat page's routes (`POST /api/session`, then `POST /api/directline/token`) and connects the
 * stock client to the conversation the token names, as Web Chat does; resolves after the bot's welcome.
 */
export async function signedInChat(
  platform: RunningInspectionPlatform,
  account: { username: string; password: string } = INSPECTOR,
): Promise<SignedInChat> {
  const session = await fetch(`${platform.bot.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (session.status !== 200) throw new Error(`sign-in: ${session.status}`);
  const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const issued = await fetch(`${platform.bot.url}/api/directline/token`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: '{}',
  });
  if (issued.status !== 200) throw new Error(`Direct Line token: ${issued.status}`);
  const { token, domain, userId } = (await issued.json()) as Record<string, string>;
  const client = new RecordingClient<Activity>({
    token: token ?? '',
    domain: domain ?? '',
    webSocket: true,
    ajax: fetchAjax,
  });
  const welcome = new RegExp(`^Hello ${account.username.replace(/\./g, '\\.')}!`);
  await waitFor(
    () => client.activities.some((activity) => welcome.test(activity.text ?? '')),
    'the welcome',
    20_000,
  ).catch((error: unknown) => {
    client.end();
    throw error;
  });
  return { client, userId: userId ?? '' };
}

/**
 * Sends an activity and waits for the bot's replies to it: the messages after it, until `expected` of them (a
 * number) or until one of them satisfies `expected` (a predicate).
 */
export async function exchange(
  { client, userId }: SignedInChat,
  activity: Partial<Activity>,
  expected: number | ((reply: Activity) => boolean),
): Promise<Activity[]> {
  const before = client.activities.length;
  await client.post({ type: 'message', from: { id: userId }, locale: 'en-US', ...activity });
  return waitFor(
    () => {
      const replies = client.activities
        .slice(before)
        .filter((reply) => reply.type === 'message' && reply.from.id !== userId);
      const done = typeof expected === 'number' ? replies.length >= expected : replies.some(expected);
      return done && replies;
    },
    `the replies to ${JSON.stringify(activity.text ?? activity.value ?? 'a photo')}`,
    20_000,
  );
}
