/** The page chrome's words, in the two languages the bot speaks. `{name}`-style placeholders are filled on the page. */
export const CHAT_PAGE_TEXT = {
  en: {
    title: 'FieldOps Inspections',
    signInHeading: 'Sign in to start an inspection',
    signInHint: 'Use your inspection account.',
    username: 'User name',
    password: 'Password',
    signIn: 'Sign in',
    signingIn: 'Signing in…',
    wrongPassword: 'Wrong user name or password. Please try again.',
    throttled: 'Too many sign-in attempts. Please try again in {minutes} min.',
    unavailable: 'The chat service is not available right now. Please try again shortly.',
    signOut: 'Sign out',
    signedInAs: 'Signed in as {name}',
    loading: 'Loading…',
    connecting: 'Connecting to the inspection bot…',
    reconnecting: 'Connection lost. Reconnecting…',
    connectionError: 'Cannot reach the chat service. Check your connection, then reload the page.',
    empty: 'Waiting for the inspection bot to say hello…',
    signedOut: 'You have signed out.',
    sessionEnded: 'Your session has ended. Please sign in again.',
    chatLabel: 'Chat with the inspection bot',
    offline: 'Offline. Answers and photos stay on this phone and are sent when the connection returns.',
    offlineSignIn: 'Offline. Sign-in needs a connection.',
    pendingCount: '{count} to send',
    unseenCount: '{count} new',
    waitingToSend: 'Waiting to send',
    sent: 'Sent',
    answered: 'Answered:',
    notSent: 'Not sent.',
    retry: 'Retry',
    remove: 'Remove',
    photoTooLarge: 'Photo too large: {size} MB, limit {limit} MB. Not sent.',
    notAPhoto: 'This file is not a photo the page can send.',
    refused: 'Not sent: the chat service refused it ({code}).',
    signInWith: 'Sign in with {name}',
    or: 'or',
    providerDenied: 'Your company account may not use inspections: ask to be added to an inspection group.',
    providerFailed: 'Sign-in with your company account did not complete. Please try again.',
  },
  'zh-CN': {
    title: 'FieldOps 巡检',
    signInHeading: '登录后开始巡检',
    signInHint: '请使用您的巡检账号。',
    username: '用户名',
    password: '密码',
    signIn: '登录',
    signingIn: '正在登录…',
    wrongPassword: '用户名或密码错误，请重试。',
    throttled: '登录尝试次数过多，请在 {minutes} 分钟后重试。',
    unavailable: '聊天服务暂时不可用，请稍后再试。',
    signOut: '退出登录',
    signedInAs: '已登录：{name}',
    loading: '正在加载…',
    connecting: '正在连接巡检机器人…',
    reconnecting: '连接已中断，正在重新连接…',
    connectionError: '无法连接聊天服务。请检查网络后刷新页面。',
    empty: '正在等待巡检机器人的问候…',
    signedOut: '您已退出登录。',
    sessionEnded: '会话已结束，请重新登录。',
    chatLabel: '与巡检机器人对话',
    offline: '离线。答复和照片保存在本机，恢复连接后自动发送。',
    offlineSignIn: '离线。登录需要网络连接。',
    pendingCount: '待发送 {count} 条',
    unseenCount: '{count} 条新消息',
    waitingToSend: '等待发送',
    sent: '已发送',
    answered: '已答复：',
    notSent: '未发送。',
    retry: '重试',
    remove: '移除',
    photoTooLarge: '照片过大：{size} MB，上限 {limit} MB。未发送。',
    notAPhoto: '此文件不是可发送的照片。',
    refused: '未发送：聊天服务拒绝了该消息（{code}）。',
    signInWith: '使用 {name} 登录',
    or: '或',
    providerDenied: '您的公司账号无权使用巡检：请联系管理员把您加入巡检用户组。',
    providerFailed: '公司账号登录未完成，请重试。',
  },
} as const;

export type PageLanguage = keyof typeof CHAT_PAGE_TEXT;
export type PageText = { [Key in keyof (typeof CHAT_PAGE_TEXT)['en']]: string };

/**
 * The page's language, chosen as the bot's is: `?locale=` first, else the browser's first language
 * (Accept-Language); `zh*` → Simplified Chinese, anything else English (`fallback` when neither names one).
 */
export function pageLanguage(
  queryLocale: unknown,
  acceptLanguage: string | undefined,
  fallback: PageLanguage,
): PageLanguage {
  const named =
    typeof queryLocale === 'string' && queryLocale.trim() !== ''
      ? queryLocale
      : acceptLanguage?.split(',')[0]?.split(';')[0]?.trim();
  if (!named) return fallback;
  return named.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}
