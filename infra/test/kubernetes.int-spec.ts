import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  acceptedVariables,
  APPS,
  isAppName,
  METRICS_PORT,
  readYamlDocuments,
  REPOSITORY_ROOT,
  repositoryFileExists,
  yamlFilesUnder,
  type YamlObject,
} from './deployment-files';
import { parseRedisUrl } from '@fieldops/redis-connection';

interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: Array<{ name: string; containerPort: number }>;
  env?: Array<{
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
  }>;
  readinessProbe?: { httpGet?: { path: string; port: string } };
  livenessProbe?: { httpGet?: { path: string; port: string } };
}

interface PodSpec {
  volumes?: Array<{ name: string }>;
  initContainers?: Array<{ volumeMounts?: Array<{ name: string; mountPath?: string }> }>;
  containers: Array<{ volumeMounts?: Array<{ name: string; mountPath?: string }> }>;
}

interface KubernetesObject extends YamlObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec?: Record<string, unknown>;
}

const K8S_DIRECTORY = join(REPOSITORY_ROOT, 'infra/k8s');
const files = yamlFilesUnder(K8S_DIRECTORY);
// `config/` folders hold files that kustomize turns into ConfigMaps, not manifests.
const manifests = files.filter((file) => !file.endsWith('kustomization.yaml') && !file.includes('/config/'));
const objects = manifests.flatMap((file) =>
  readYamlDocuments(file).map((object) => ({ file, object: object as KubernetesObject })),
);
const byKind = (kind: string) =>
  objects.filter(({ object }) => object.kind === kind).map(({ object }) => object);

function podContainers(object: KubernetesObject): Container[] {
  const spec = object.spec as { template?: { spec?: { containers?: Container[] } } } | undefined;
  return spec?.template?.spec?.containers ?? [];
}

/** Variables the mounted platform configuration file reads secrets from (`{ env: NAME }`). */
const platformConfigVariables = [
  ...readFileSync(join(K8S_DIRECTORY, 'base/config/platform.yaml'), 'utf8').matchAll(
    /\{\s*env:\s*([A-Z0-9_]+)\s*\}/g,
  ),
].map((match) => match[1]);

const deploymentNames = new Set(byKind('Deployment').map((deployment) => deployment.metadata.name));

function kubectlAvailable(): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('Kubernetes manifests', () => {
  it('are well-formed objects with apiVersion, kind and a name', () => {
    expect(objects.length).toBeGreaterThan(10);
    for (const { file, object } of objects) {
      expect({
        file,
        apiVersion: typeof object.apiVersion,
        kind: typeof object.kind,
        name: typeof object.metadata?.name,
      }).toEqual({
        file,
        apiVersion: 'string',
        kind: 'string',
        name: 'string',
      });
    }
  });

  it('deploy every app with its port, the variables it reads, and /readyz + /healthz probes', () => {
    for (const app of Object.keys(APPS)) expect(deploymentNames).toContain(app);
    for (const deployment of byKind('Deployment')) {
      const app = deployment.metadata.name;
      if (!isAppName(app)) continue;
      const [container] = podContainers(deployment);
      expect(container.image).toBe(`fieldops/${app}`);
      // METRICS_PORT (issue 15, finding 13): /metrics on a port of its own, `metrics`, beside `http`.
      expect(container.ports).toEqual([
        { name: 'http', containerPort: APPS[app].port },
        { name: 'metrics', containerPort: METRICS_PORT },
      ]);
      expect(container.env).toContainEqual({ name: 'METRICS_PORT', value: String(METRICS_PORT) });
      const accepted = new Set([...acceptedVariables(app), ...platformConfigVariables]);
      const unknown = (container.env ?? [])
        .map((variable) => variable.name)
        .filter((name) => !accepted.has(name));
      expect({ app, unknown }).toEqual({ app, unknown: [] });
      expect(container.env).toContainEqual({ name: APPS[app].portVariable, value: String(APPS[app].port) });
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    }
  });

  it("names each gateway's public URL, so no request's Host header becomes a streamUrl or jwks_uri (issue 22)", () => {
    const variable = (app: string, name: string): string | undefined => {
      const deployment = byKind('Deployment').find((candidate) => candidate.metadata.name === app);
      if (!deployment) throw new Error(`no ${app} Deployment`);
      return podContainers(deployment)[0]?.env?.find((entry) => entry.name === name)?.value;
    };
    // Clients reach the relay at the Ingress host (inspection-api's public URL); bots reach the connector where
    // the relay sends them (its serviceUrl), and read its OpenID metadata there.
    expect(variable('relay-gateway', 'RELAY_PUBLIC_URL')).toBe(
      variable('inspection-api', 'INSPECTION_PUBLIC_URL'),
    );
    const connector = variable('connector-gateway', 'CONNECTOR_PUBLIC_URL');
    expect(connector).toBe(variable('relay-gateway', 'RELAY_BOT_SERVICE_URL')?.replace(/\/$/, ''));
    expect(variable('inspection-bot', 'ToBotFromChannelOpenIdMetadataUrl')?.startsWith(`${connector}/`)).toBe(
      true,
    );
  });

  it('keeps the metrics port out of every Service (so out of the Ingress too): Prometheus scrapes the pods', () => {
    for (const service of byKind('Service')) {
      const ports = (service.spec as { ports: Array<{ name?: string; port: number; targetPort?: unknown }> })
        .ports;
      for (const port of ports) {
        expect({ service: service.metadata.name, port }).not.toMatchObject({
          port: { targetPort: 'metrics' },
        });
        expect({ service: service.metadata.name, port }).not.toMatchObject({
          port: { targetPort: METRICS_PORT },
        });
        expect({ service: service.metadata.name, port }).not.toMatchObject({ port: { port: METRICS_PORT } });
      }
    }
    for (const ingress of byKind('Ingress')) {
      expect(JSON.stringify(ingress.spec)).not.toContain(String(METRICS_PORT));
      expect(JSON.stringify(ingress.spec)).not.toContain('"metrics"');
    }
  });

  it('points Services, PodDisruptionBudgets, the autoscaler and the Ingress at what exists', () => {
    for (const service of byKind('Service')) {
      const selector = (service.spec as { selector: Record<string, string> }).selector[
        'app.kubernetes.io/name'
      ];
      expect(
        objects.some(
          ({ object }) =>
            ['Deployment', 'StatefulSet'].includes(object.kind) && object.metadata.name === selector,
        ),
      ).toBe(true);
    }
    for (const budget of byKind('PodDisruptionBudget')) {
      const selector = (budget.spec as { selector: { matchLabels: Record<string, string> } }).selector
        .matchLabels['app.kubernetes.io/name'];
      expect(deploymentNames).toContain(selector);
    }
    const autoscalers = byKind('HorizontalPodAutoscaler');
    expect(
      autoscalers.map(
        (autoscaler) => (autoscaler.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name,
      ),
    ).toEqual(['relay-gateway']);
    const serviceNames = new Set(byKind('Service').map((service) => service.metadata.name));
    for (const ingress of byKind('Ingress')) {
      const rules = (
        ingress.spec as {
          rules: Array<{ http: { paths: Array<{ backend: { service: { name: string } } }> } }>;
        }
      ).rules;
      for (const path of rules.flatMap((rule) => rule.http.paths))
        expect(serviceNames).toContain(path.backend.service.name);
    }
  });

  it('autoscales the relay on CPU and open streams, budgets disruptions, and drains within the grace period', () => {
    const [autoscaler] = byKind('HorizontalPodAutoscaler');
    const metrics = (autoscaler.spec as { metrics: Array<Record<string, unknown>> }).metrics;
    expect(metrics).toContainEqual({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
    });
    expect(metrics).toContainEqual({
      type: 'Pods',
      pods: {
        metric: { name: 'relay_open_streams' },
        target: { type: 'AverageValue', averageValue: '5000' },
      },
    });
    // The metric the HPA reads is the gauge the relay exports.
    expect(
      readFileSync(join(REPOSITORY_ROOT, 'apps/relay-gateway/src/stream/stream.service.ts'), 'utf8'),
    ).toContain("name: 'relay_open_streams'");

    const budgeted = byKind('PodDisruptionBudget').map(
      (budget) =>
        (budget.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels[
          'app.kubernetes.io/name'
        ],
    );
    expect(budgeted).toEqual(
      expect.arrayContaining(['relay-gateway', 'connector-gateway', 'inspection-api']),
    );

    const relay = byKind('Deployment').find((object) => object.metadata.name === 'relay-gateway')!;
    const pod = (
      relay.spec as {
        template: {
          spec: {
            terminationGracePeriodSeconds: number;
            containers: Array<
              Container & {
                lifecycle?: { preStop?: { sleep?: { seconds: number } } };
                readinessProbe?: { periodSeconds?: number; failureThreshold?: number };
              }
            >;
          };
        };
      }
    ).template.spec;
    const [container] = pod.containers;
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    const shutdownMs = Number(container.env?.find(({ name }) => name === 'SHUTDOWN_TIMEOUT_MS')?.value);
    const preStopSeconds = container.lifecycle?.preStop?.sleep?.seconds ?? 0;
    expect(preStopSeconds).toBeGreaterThan(0);
    expect(preStopSeconds + shutdownMs / 1000).toBeLessThan(pod.terminationGracePeriodSeconds);
  });

  it('serves the supervisor console from its image on 8080 behind the Ingress’s /console/, non-root', () => {
    const deployment = byKind('Deployment').find((object) => object.metadata.name === 'inspection-console');
    const [container] = podContainers(deployment as KubernetesObject);
    expect(container.image).toBe('fieldops/inspection-console');
    expect(container.ports).toEqual([{ name: 'http', containerPort: 8080 }]);
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(
      (deployment?.spec as { template: { spec: { securityContext: { runAsNonRoot: boolean } } } }).template
        .spec.securityContext.runAsNonRoot,
    ).toBe(true);
    const paths = byKind('Ingress').flatMap((ingress) =>
      (
        ingress.spec as {
          rules: Array<{ http: { paths: Array<{ path: string; backend: { service: { name: string } } }> } }>;
        }
      ).rules.flatMap((rule) => rule.http.paths),
    );
    expect(paths.find((path) => path.path === '/console/')?.backend.service.name).toBe('inspection-console');
    expect(paths.find((path) => path.path === '/api/')?.backend.service.name).toBe('inspection-api');
  });

  it('mounts only declared volumes, and every mount has a path (no env entry misplaced among them)', () => {
    for (const { object } of objects) {
      const spec = object.spec as
        | { template?: { spec?: PodSpec }; volumeClaimTemplates?: Array<{ metadata: { name: string } }> }
        | undefined;
      const pod = spec?.template?.spec;
      if (!pod) continue;
      // A StatefulSet's claim templates are volumes of its pods too.
      const volumes = new Set([
        ...(pod.volumes ?? []).map((volume) => volume.name),
        ...(spec.volumeClaimTemplates ?? []).map((claim) => claim.metadata.name),
      ]);
      for (const container of [...(pod.initContainers ?? []), ...pod.containers]) {
        for (const mount of container.volumeMounts ?? []) {
          expect({ object: object.metadata.name, mount }).toEqual({
            object: object.metadata.name,
            mount: expect.objectContaining({
              name: expect.any(String),
              mountPath: expect.any(String),
            }) as unknown,
          });
          expect({
            object: object.metadata.name,
            volume: mount.name,
            declared: volumes.has(mount.name),
          }).toEqual({
            object: object.metadata.name,
            volume: mount.name,
            declared: true,
          });
        }
      }
    }
  });

  it('runs migrations as a Job with the command the image has', () => {
    const [job] = byKind('Job');
    const [container] = podContainers(job);
    expect(container.image).toBe('fieldops/inspection-api');
    expect(container.command?.slice(0, 2)).toEqual(['node', 'apps/inspection-api/dist/database/migrate.js']);
    expect(repositoryFileExists('apps/inspection-api/src/database/migrate.ts')).toBe(true);
  });

  it('reads every secret key the dev overlay generates', () => {
    const devKustomization = readYamlDocuments(join(K8S_DIRECTORY, 'overlays/dev/kustomization.yaml'))[0] as {
      secretGenerator: Array<{ name: string; literals: string[] }>;
    };
    const generated = new Set(
      devKustomization.secretGenerator.flatMap((secret) =>
        secret.literals.map((literal) => `${secret.name}/${literal.split('=')[0]}`),
      ),
    );
    const referenced = objects.flatMap(({ object }) =>
      podContainers(object).flatMap((container) =>
        (container.env ?? []).flatMap((variable) =>
          variable.valueFrom?.secretKeyRef && !variable.valueFrom.secretKeyRef.optional
            ? [`${variable.valueFrom.secretKeyRef.name}/${variable.valueFrom.secretKeyRef.key}`]
            : [],
        ),
      ),
    );
    for (const key of referenced) expect(generated).toContain(key);
  });

  it('lists only files that exist in each kustomization', () => {
    for (const kustomization of files.filter((file) => file.endsWith('kustomization.yaml'))) {
      const { resources = [] } = readYamlDocuments(kustomization)[0] as { resources?: string[] };
      for (const resource of resources)
        expect(
          repositoryFileExists(join(dirname(kustomization), resource).slice(REPOSITORY_ROOT.length + 1)),
        ).toBe(true);
    }
  });

  (kubectlAvailable() ? it : it.skip)(
    'renders the dev and prod overlays with kustomize (kubectl on PATH)',
    () => {
      for (const overlay of ['dev', 'prod', 'redis-cluster']) {
        const rendered = execFileSync('kubectl', ['kustomize', join(K8S_DIRECTORY, 'overlays', overlay)], {
          encoding: 'utf8',
        });
        expect(rendered).toContain('kind: Deployment');
        expect(rendered).toContain(`namespace: fieldops${overlay === 'prod' ? '' : '-dev'}`);
      }
    },
  );

  it('runs the redis-cluster overlay on a 6-pod Redis Cluster named by seed nodes in REDIS_URL', () => {
    const overlayDirectory = join(K8S_DIRECTORY, 'overlays/redis-cluster');
    const kustomization = readYamlDocuments(join(overlayDirectory, 'kustomization.yaml'))[0] as {
      resources: string[];
      secretGenerator: Array<{ name: string; behavior?: string; literals: string[] }>;
      patches: Array<{ patch: string }>;
    };
    // The dev overlay, its single Redis deleted, REDIS_URL replaced in the same Secret.
    expect(kustomization.resources).toEqual(['../dev', 'redis-cluster.yaml']);
    for (const kind of ['StatefulSet', 'Service'])
      expect(
        kustomization.patches.some(
          ({ patch }) =>
            patch.includes('$patch: delete') &&
            patch.includes(`kind: ${kind}`) &&
            patch.includes('name: redis }'),
        ),
      ).toBe(true);
    const [secret] = kustomization.secretGenerator;
    expect({ name: secret.name, behavior: secret.behavior }).toEqual({
      name: 'fieldops-secrets',
      behavior: 'merge',
    });
    const redisUrl = secret.literals
      .find((literal) => literal.startsWith('REDIS_URL='))!
      .slice('REDIS_URL='.length);
    const topology = parseRedisUrl(redisUrl);
    expect(topology.kind).toBe('cluster');

    const clusterObjects = readYamlDocuments(
      join(overlayDirectory, 'redis-cluster.yaml'),
    ) as KubernetesObject[];
    const statefulSet = clusterObjects.find((object) => object.kind === 'StatefulSet')!;
    const service = clusterObjects.find((object) => object.kind === 'Service')!;
    const init = clusterObjects.find((object) => object.kind === 'Job')!;
    expect(statefulSet.spec).toMatchObject({ replicas: 6, serviceName: service.metadata.name });
    expect(service.spec).toMatchObject({ clusterIP: 'None' });
    expect(podContainers(statefulSet)[0].image).toBe('redis:7');
    const args = (podContainers(statefulSet)[0] as Container & { args: string[] }).args;
    expect(args).toEqual(expect.arrayContaining(['--cluster-enabled', '--cluster-announce-hostname']));
    // Seed nodes are pods of the StatefulSet by their stable DNS names.
    for (const node of (topology as { nodes: Array<{ host: string; port: number }> }).nodes)
      expect(node).toEqual({
        host: expect.stringMatching(
          new RegExp(`^${statefulSet.metadata.name}-[0-5]\\.${service.metadata.name}$`),
        ),
        port: 6379,
      });
    const initScript = (podContainers(init)[0].command ?? []).join(' ');
    expect(initScript).toContain('--cluster-replicas 1');
  });
});
