// The identity provider of the sign-in tests: panva's oidc-provider (OpenID certified), the party outside the
// platform, in its own process (it is an ES module). argv[2]: JSON {port, redirectUris, clients: [{id, secret?,
// accessTokenSeconds?}], accounts?: {login: extra claims}}. Prints {"issuer": …} once listening. Its development
// interactions take any login name and password (the account id is the login name).
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const { port, redirectUris, clients, accounts = {} } = JSON.parse(process.argv[2]);
const issuer = `http://127.0.0.1:${port}`;
const accessTokenSeconds = Object.fromEntries(clients.map((c) => [c.id, c.accessTokenSeconds ?? 3600]));

const provider = new Provider(issuer, {
  clients: clients.map((c) => ({
    client_id: c.id,
    ...(c.secret
      ? { client_secret: c.secret, token_endpoint_auth_method: 'client_secret_basic' }
      : { token_endpoint_auth_method: 'none' }),
    redirect_uris: redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  })),
  findAccount: (_ctx, id) => ({
    accountId: id,
    claims: () => ({ sub: id, name: id, preferred_username: id, ...accounts[id] }),
  }),
  claims: {
    acr: null,
    sid: null,
    auth_time: null,
    iss: null,
    openid: ['sub'],
    profile: ['name', 'preferred_username'],
    email: ['email', 'email_verified'],
    groups: ['groups'],
  },
  cookies: { keys: ['oidc-provider-test-cookie-key-0001'] },
  pkce: { required: () => true },
  ttl: {
    AccessToken: (_ctx, _token, client) => accessTokenSeconds[client.clientId] ?? 3600,
    Grant: 3600,
    Interaction: 600,
    Session: 3600,
    IdToken: 3600,
    RefreshToken: 86400,
    AuthorizationCode: 60,
  },
  features: { devInteractions: { enabled: true }, revocation: { enabled: true } },
});
provider.proxy = false;
const server = createServer(provider.callback());
server.listen(port, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ issuer })}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
