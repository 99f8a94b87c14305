import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  APPS,
  type AppName,
  readYamlDocuments,
  REPOSITORY_ROOT,
  repositoryFileExists,
  yamlFilesUnder,
} from './deployment-files';

interface Stage {
  name: string;
  base: string;
  lines: string[];
}

/** A Dockerfile's stages: `FROM <base> AS <name>` and the instructions up to the next FROM (continuations joined). */
function stagesOf(path: string): Stage[] {
  const instructions = readFileSync(path, 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of instructions) {
    const from = /^FROM\s+(\S+)\s+AS\s+(\S+)$/i.exec(line);
    if (from) stages.push({ base: from[1], name: from[2], lines: [] });
    else stages.at(-1)?.lines.push(line);
  }
  return stages;
}

const dockerfileOf = (app: AppName) => join(REPOSITORY_ROOT, 'infra/docker', `${app}.Dockerfile`);
const rootPackage = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};
const TURBO = join(REPOSITORY_ROOT, 'node_modules/.bin/turbo');

describe.each(Object.keys(APPS) as AppName[])('infra/docker/%s.Dockerfile', (app) => {
  const { port, portVariable } = APPS[app];
  const stages = stagesOf(dockerfileOf(app));
  const stage = (name: string) => stages.find((candidate) => candidate.name === name)?.lines ?? [];

  it('prunes with the repository’s turbo, builds, and runs on the .nvmrc Node version', () => {
    expect(stages.map(({ name }) => name)).toEqual(['prune', 'build', 'runtime']);
    const nodeVersion = readFileSync(join(REPOSITORY_ROOT, '.nvmrc'), 'utf8').trim();
    expect(readFileSync(dockerfileOf(app), 'utf8')).toContain(`ARG NODE_VERSION=${nodeVersion}`);
    for (const { base } of stages) expect(base).toBe('node:${NODE_VERSION}-bookworm-slim');
    expect(stage('prune')).toContain(
      `RUN npx --yes turbo@${rootPackage.devDependencies.turbo} prune @fieldops/${app} --docker`,
    );
    expect(stage('build').join('\n')).toContain(`npx turbo run build --filter=@fieldops/${app}`);
    expect(stage('build').join('\n')).toContain('npm prune --omit=dev');
    // `npm install`, never `npm ci` (the lockfile lacks other platforms' optional packages).
    expect(stage('build').join('\n')).not.toMatch(/npm ci\b/);
    // Files the build stage copies from the context besides the pruned tree.
    for (const line of stage('build').filter((text) => /^COPY (?!--from)/.test(text))) {
      const sources = line.split(/\s+/).slice(1, -1);
      for (const source of sources)
        expect({ source, exists: repositoryFileExists(source) }).toEqual({ source, exists: true });
    }
  });

  it('runs the app’s build output as the non-root node user, health-checked with Node on its port', () => {
    const runtime = stage('runtime');
    expect(runtime).toContain('USER node');
    expect(runtime.indexOf('USER node')).toBeGreaterThan(
      runtime.findLastIndex((line) => line.startsWith('RUN ')),
    );
    expect(runtime).toContain(`EXPOSE ${port}`);
    expect(runtime).toContain(`CMD ["node", "apps/${app}/dist/main.js"]`);
    expect(repositoryFileExists(`apps/${app}/src/main.ts`)).toBe(true);
    const healthcheck = runtime.find((line) => line.startsWith('HEALTHCHECK')) ?? '';
    expect(healthcheck).toContain(`CMD ["node", "-e"`);
    expect(healthcheck).toContain(`process.env.${portVariable}||${port}`);
    expect(healthcheck).toContain('/healthz');
    expect(healthcheck).not.toMatch(/curl|wget/);
    expect(
      runtime.filter((line) => line.startsWith('COPY')).every((line) => line.startsWith('COPY --from=build')),
    ).toBe(true);
  });
});

describe('turbo prune on this repository (what the prune stage runs)', () => {
  const out = mkdtempSync(join(tmpdir(), 'fieldops-prune-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it.each(Object.keys(APPS) as AppName[])(
    'gives %s a self-contained tree: its workspaces, manifests and lockfile, nothing of the other apps',
    (app) => {
      const target = join(out, app);
      execFileSync(TURBO, ['prune', `@fieldops/${app}`, '--docker', '--out-dir', target], {
        cwd: REPOSITORY_ROOT,
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
        stdio: 'pipe',
      });
      const manifest = JSON.parse(readFileSync(join(target, 'json/package.json'), 'utf8')) as {
        workspaces: string[];
      };
      expect(manifest.workspaces).toContain(`apps/${app}`);
      // Other apps only as the app's test-only workspace dev dependencies (the runtime stage copies this app alone).
      const appDevWorkspaces = Object.keys(
        (
          JSON.parse(readFileSync(join(REPOSITORY_ROOT, `apps/${app}/package.json`), 'utf8')) as {
            devDependencies?: Record<string, string>;
          }
        ).devDependencies ?? {},
      )
        .filter(
          (name) =>
            name.startsWith('@fieldops/') && repositoryFileExists(`apps/${name.slice(10)}/package.json`),
        )
        .map((name) => `apps/${name.slice(10)}`);
      expect(manifest.workspaces.filter((workspace) => workspace.startsWith('apps/')).sort()).toEqual(
        [`apps/${app}`, ...appDevWorkspaces].sort(),
      );
      expect(existsSync(join(target, 'json/package-lock.json'))).toBe(true);
      expect(existsSync(join(target, `full/apps/${app}/src/main.ts`))).toBe(true);
      // Every workspace the app depends on is in the tree, manifest and sources.
      const appManifest = JSON.parse(
        readFileSync(join(REPOSITORY_ROOT, `apps/${app}/package.json`), 'utf8'),
      ) as {
        dependencies: Record<string, string>;
      };
      const lock = JSON.parse(readFileSync(join(target, 'json/package-lock.json'), 'utf8')) as {
        packages: Record<string, unknown>;
      };
      for (const dependency of Object.keys(appManifest.dependencies)) {
        if (dependency.startsWith('@fieldops/')) {
          const directory = dependency.replace('@fieldops/', 'libs/');
          expect(manifest.workspaces).toContain(directory);
          expect(existsSync(join(target, 'full', directory, 'src'))).toBe(true);
        } else {
          const locked = Object.keys(lock.packages).some((path) =>
            path.endsWith(`node_modules/${dependency}`),
          );
          expect({ dependency, locked }).toEqual({ dependency, locked: true });
        }
      }
    },
    60_000,
  );
});

describe('deployments use the per-app images', () => {
  it('builds each compose app service from its own Dockerfile, the relay scalable', () => {
    const compose = readYamlDocuments(join(REPOSITORY_ROOT, 'docker-compose.yml'))[0] as {
      services: Record<
        string,
        { image?: string; build?: { dockerfile: string }; container_name?: string; ports?: unknown[] }
      >;
    };
    for (const [name, service] of Object.entries(compose.services)) {
      if (!service.build) continue;
      // One-shot jobs run an app's image: the migration and the inspection bot's service account.
      const app = name === 'migrate' || name === 'inspection-bot-account' ? 'inspection-api' : name;
      expect({ name, dockerfile: service.build.dockerfile, image: service.image }).toEqual({
        name,
        dockerfile: `infra/docker/${app}.Dockerfile`,
        image: `fieldops/${app}`,
      });
    }
    const relay = compose.services['relay-gateway'];
    expect(relay.container_name).toBeUndefined();
    expect(relay.ports).toBeUndefined();
  });

  it('references only fieldops images that have a Dockerfile in Kubernetes', () => {
    const images = yamlFilesUnder(join(REPOSITORY_ROOT, 'infra/k8s')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/image:\s*(fieldops\/[a-z-]+)/g)].map((match) => match[1]),
    );
    expect(images.length).toBeGreaterThanOrEqual(4);
    for (const image of new Set(images)) {
      expect(repositoryFileExists(`infra/docker/${image.replace('fieldops/', '')}.Dockerfile`)).toBe(true);
    }
  });

  it('keeps dependencies and build output out of the build context', () => {
    const ignored = readFileSync(join(REPOSITORY_ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const pattern of ['**/node_modules', '**/dist', '.git', '.data']) expect(ignored).toContain(pattern);
  });
});

describe('infra/docker/inspection-console.Dockerfile (static files behind nginx)', () => {
  const dockerfile = join(REPOSITORY_ROOT, 'infra/docker/inspection-console.Dockerfile');
  const stages = stagesOf(dockerfile);
  const stage = (name: string) => stages.find((candidate) => candidate.name === name)?.lines ?? [];

  it('prunes and builds the console on the .nvmrc Node version, then serves dist/ from non-root nginx on 8080', () => {
    expect(stages.map(({ name }) => name)).toEqual(['prune', 'build', 'runtime']);
    const nodeVersion = readFileSync(join(REPOSITORY_ROOT, '.nvmrc'), 'utf8').trim();
    expect(readFileSync(dockerfile, 'utf8')).toContain(`ARG NODE_VERSION=${nodeVersion}`);
    expect(stages.slice(0, 2).map(({ base }) => base)).toEqual([
      'node:${NODE_VERSION}-bookworm-slim',
      'node:${NODE_VERSION}-bookworm-slim',
    ]);
    expect(stage('prune')).toContain(
      `RUN npx --yes turbo@${rootPackage.devDependencies.turbo} prune @fieldops/inspection-console --docker`,
    );
    expect(stage('build').join('\n')).toContain('npx turbo run build --filter=@fieldops/inspection-console');
    expect(stage('build').join('\n')).not.toMatch(/npm ci\b/);
    // The runtime is nginx alone: the build output and the server configuration, run as nginx's own user.
    expect(stages[2]?.base).toBe('nginxinc/nginx-unprivileged:${NGINX_VERSION}-bookworm');
    const runtime = stage('runtime');
    expect(runtime).toContain(
      'COPY --from=build /repo/apps/inspection-console/dist /usr/share/nginx/html/console',
    );
    expect(runtime).toContain('COPY infra/nginx/inspection-console.conf /etc/nginx/conf.d/default.conf');
    expect(repositoryFileExists('infra/nginx/inspection-console.conf')).toBe(true);
    expect(runtime).toContain('USER nginx');
    expect(runtime).toContain('EXPOSE 8080');
    // The console's build writes dist/ (vite.config.mjs) from index.html.
    expect(readFileSync(join(REPOSITORY_ROOT, 'apps/inspection-console/vite.config.mjs'), 'utf8')).toContain(
      "outDir: 'dist'",
    );
    expect(repositoryFileExists('apps/inspection-console/index.html')).toBe(true);
  });

  it('serves /console/ on 8080 with /healthz, as the Kubernetes probes and the proxy expect', () => {
    const configuration = readFileSync(join(REPOSITORY_ROOT, 'infra/nginx/inspection-console.conf'), 'utf8');
    expect(configuration).toContain('listen 8080;');
    expect(configuration).toContain('root /usr/share/nginx/html;');
    expect(configuration).toMatch(/location \/console\/ \{/);
    expect(configuration).toMatch(/location = \/healthz \{/);
  });

  it('gets a self-contained tree from turbo prune: the console, its manifests and lockfile', () => {
    const out = mkdtempSync(join(tmpdir(), 'fieldops-prune-console-'));
    try {
      execFileSync(TURBO, ['prune', '@fieldops/inspection-console', '--docker', '--out-dir', out], {
        cwd: REPOSITORY_ROOT,
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
        stdio: 'pipe',
      });
      const manifest = JSON.parse(readFileSync(join(out, 'json/package.json'), 'utf8')) as {
        workspaces: string[];
      };
      expect(manifest.workspaces).toContain('apps/inspection-console');
      expect(existsSync(join(out, 'json/package-lock.json'))).toBe(true);
      for (const file of ['src/main.tsx', 'index.html', 'vite.config.mjs'])
        expect(existsSync(join(out, 'full/apps/inspection-console', file))).toBe(true);
      const lock = JSON.parse(readFileSync(join(out, 'json/package-lock.json'), 'utf8')) as {
        packages: Record<string, unknown>;
      };
      for (const dependency of ['react-admin', 'vite', 'recharts'])
        expect(Object.keys(lock.packages).some((path) => path.endsWith(`node_modules/${dependency}`))).toBe(
          true,
        );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
