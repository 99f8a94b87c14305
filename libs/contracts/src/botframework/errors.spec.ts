import {
  BOT_FRAMEWORK_DEFAULT_CODES,
  BOT_FRAMEWORK_ERROR_CODES,
  badArgument,
  badSyntax,
  botError,
  BotFrameworkError,
  forbidden,
  isBotError,
  isBotFrameworkErrorCode,
  messageSizeTooBig,
  missingProperty,
  notFound,
  serviceError,
  tokenExpired,
  tooManyRequests,
  unauthorized,
} from './errors';

function wire(error: BotFrameworkError) {
  return { status: error.status, code: error.code, message: error.message, extra: error.extra };
}

describe('Bot Framework error catalogue', () => {
  it('builds each code with its status and message', () => {
    expect(wire(badArgument('Invalid watermark'))).toEqual({
      status: 400,
      code: 'BadArgument',
      message: 'Invalid watermark',
      extra: {},
    });
    expect(wire(badSyntax('Malformed multipart body'))).toMatchObject({ status: 400, code: 'BadSyntax' });
    expect(wire(missingProperty('type: required'))).toMatchObject({ status: 400, code: 'MissingProperty' });
    expect(wire(messageSizeTooBig('too big'))).toMatchObject({ status: 413, code: 'MessageSizeTooBig' });
    expect(wire(tokenExpired())).toEqual({
      status: 403,
      code: 'TokenExpired',
      message: 'Token expired',
      extra: {},
    });
    expect(wire(forbidden('not yours'))).toMatchObject({ status: 403, code: 'Forbidden', extra: {} });
    expect(wire(notFound())).toEqual({ status: 404, code: 'NotFound', message: 'Not found', extra: {} });
    expect(wire(serviceError('Stream could not be opened'))).toMatchObject({
      status: 500,
      code: 'ServiceError',
    });
  });

  it('are plain errors carrying their status, which the gateways’ filters render as {error:{code,message}}', () => {
    const error = notFound('Conversation not found');
    expect(error).toBeInstanceOf(BotFrameworkError);
    expect(error).toBeInstanceOf(Error);
    expect(Object.getPrototypeOf(BotFrameworkError.prototype)).toBe(Error.prototype);
    expect({ name: error.name, status: error.status, code: error.code }).toEqual({
      name: 'BotFrameworkError',
      status: 404,
      code: 'NotFound',
    });
  });

  it('answers BadArgument with the statuses the real service uses it with', () => {
    expect(badArgument('Invalid token or secret', 403).status).toBe(403);
    expect(badArgument('File not found', 404).status).toBe(404);
  });

  it('gives every 401 a Bearer challenge', () => {
    expect(unauthorized('A valid internal key is required.').extra.headers).toEqual({
      'WWW-Authenticate': 'Bearer',
    });
    expect(wire(badArgument('Missing token or secret', 401))).toEqual({
      status: 401,
      code: 'BadArgument',
      message: 'Missing token or secret',
      extra: { headers: { 'WWW-Authenticate': 'Bearer' } },
    });
  });

  it('sends Retry-After in seconds with TooManyRequests', () => {
    expect(wire(tooManyRequests('Too many requests', 7))).toEqual({
      status: 429,
      code: 'TooManyRequests',
      message: 'Too many requests',
      extra: { headers: { 'Retry-After': '7' } },
    });
  });

  it('adds the bot outcome as httpStatusCode to BotError', () => {
    expect(wire(botError(502, 'Failed to send activity: bot returned an error', 500))).toEqual({
      status: 502,
      code: 'BotError',
      message: 'Failed to send activity: bot returned an error',
      extra: { httpStatusCode: 500 },
    });
    expect(botError(504, 'Failed to send activity: bot timed out').extra).toEqual({ httpStatusCode: 504 });
  });

  it('tells a failed delivery from other errors', () => {
    expect(isBotError(botError(504, 'Failed to send activity: bot timed out'))).toBe(true);
    expect(isBotError(badArgument('Invalid watermark'))).toBe(false);
    expect(isBotError(new Error('BotError'))).toBe(false);
  });

  it('knows its own codes and nothing else', () => {
    expect(isBotFrameworkErrorCode('BotError')).toBe(true);
    expect(isBotFrameworkErrorCode('PayloadTooLarge')).toBe(false);
  });

  it('names a catalogued code for every status an unnamed error can get', () => {
    const codes = [
      ...Object.values(BOT_FRAMEWORK_DEFAULT_CODES.byStatus),
      BOT_FRAMEWORK_DEFAULT_CODES.unparsableBody,
      BOT_FRAMEWORK_DEFAULT_CODES.clientError,
      BOT_FRAMEWORK_DEFAULT_CODES.serverError,
    ];
    for (const code of codes) expect(BOT_FRAMEWORK_ERROR_CODES).toContain(code);
    expect(BOT_FRAMEWORK_DEFAULT_CODES.byStatus[413]).toBe('MessageSizeTooBig');
    expect(BOT_FRAMEWORK_DEFAULT_CODES.unparsableBody).toBe('BadSyntax');
  });
});
