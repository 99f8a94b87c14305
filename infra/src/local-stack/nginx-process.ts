import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { residentSetBytesWithChildren } from './process-memory';
import { waitUntil } from './ports';

/** Debian's nginx binary, when installed. */
export const NGINX_BINARY = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));

/** A test-only entrance that sends every request to one relay instance first, the others being backups. */
export interface PinnedRelayEntrance {
  listenPort: number;
  /** `host:port` tried first. */
  primary: string;
  /** `host:port` used only while the primary is down. */
  backups: string[];
  /** Access log of this entrance (JSON lines with the upstream and the time in ms). */
  accessLog: string;
}

export interface NginxConfigurationOptions {
  repositoryRoot: string;
  /** Throw-away directory: pid, logs, temp paths, the rendered files. */
  prefix: string;
  listenPort: number;
  /** `host:port` of every instance of each service. */
  inspectionApi: string[];
  relayGateway: string[];
  connectorGateway: string[];
  /** `host:port` of the supervisor console's static files (default: inspection-api's, which serves them when
   * INSPECTION_CONSOLE_DIR is set). */
  inspectionConsole?: string[];
  pinnedRelayEntrances?: PinnedRelayEntrance[];
  /**
   * Also run the inspection-console image's server (infra/nginx/inspection-console.conf) on `listenPort`, its
   * document root `htmlRoot` holding `console/` (the console's built files) as the image's /usr/share/nginx/html does.
   */
  consoleStatic?: { listenPort: number; htmlRoot: string };
}

/** The `server` lines of an upstream, substituted for the template's `${…_UPSTREAM}` (one line per instance). */
function upstreamServers(addresses: string[]): string {
  if (addresses.length === 0) throw new Error('an upstream needs at least one address');
  return addresses.join(' max_fails=3 fail_timeout=5s;\n    server ');
}

/**
 * The template's Bot Framework 503 answer for a relay that is away (its `error_page` and named location), which the
 * pinned entrances repeat so that they answer as the public entrance does.
 */
function botFrameworkUnavailable(template: string): string {
  const match =
    /^ *error_page 502 504 = @bot_framework_unavailable;\n *location @bot_framework_unavailable \{(?:[^{}]|\{[^{}]*\})*\}\n/m.exec(
      template,
    );
  if (!match)
    throw new Error('infra/nginx/fieldops.conf.template has no @bot_framework_unavailable location');
  return match[0];
}

function pinnedEntrance(entrance: PinnedRelayEntrance, index: number, unavailable: string): string {
  const upstream = `relay_pinned_${index}`;
  return `
upstream ${upstream} {
    server ${entrance.primary} max_fails=1 fail_timeout=5s;
${entrance.backups.map((backup) => `    server ${backup} backup;`).join('\n')}
    keepalive 16;
}
server {
    listen ${entrance.listenPort};
    access_log ${entrance.accessLog} fieldops_pinned;
    proxy_http_version 1.1;
    proxy_next_upstream error timeout http_502 http_503;
${unavailable}    location / {
        proxy_pass http://${upstream};
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-Host $http_host;
        proxy_set_header X-Forwarded-Port $server_port;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_read_timeout 300s;
        proxy_buffering off;
    }
}
`;
}

/** The hard open-files limit of this process (what an unprivileged setrlimit can reach), from /proc. */
function hardOpenFilesLimit(): number {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8');
    const hard = /^Max open files\s+\S+\s+(\S+)/m.exec(limits)?.[1];
    return hard === undefined || hard === 'unlimited' ? Infinity : Number(hard);
  } catch {
    return Infinity;
  }
}

/**
 * infra/nginx/nginx.conf (the image's main configuration) with what belongs to the image moved into `prefix`: no
 * `user` (nginx's default when started as root), one worker in the foreground, pid and error log in the prefix, the
 * workers' open-files limit (and worker_connections) capped at this process's hard limit (a container without
 * CAP_SYS_RESOURCE cannot go above it), and `httpIncludes` in place of the image's conf.d.
 */
export function renderMainConfiguration(
  repositoryRoot: string,
  prefix: string,
  httpIncludes: string,
): string {
  let main = readFileSync(join(repositoryRoot, 'infra/nginx/nginx.conf'), 'utf8');
  const replace = (pattern: RegExp, replacement: (match: string, ...groups: string[]) => string) => {
    if (!pattern.test(main)) throw new Error(`infra/nginx/nginx.conf has no ${String(pattern)}`);
    main = main.replace(pattern, replacement);
  };
  replace(/^user .*;$/m, () => '');
  replace(/^worker_processes .*;$/m, () => 'worker_processes 1;\ndaemon off;');
  const files = Math.min(Number(/^worker_rlimit_nofile\s+(\d+);$/m.exec(main)?.[1]), hardOpenFilesLimit());
  replace(/^worker_rlimit_nofile\s+(\d+);$/m, () => `worker_rlimit_nofile ${files};`);
  replace(
    /^(\s*)worker_connections\s+(\d+);$/m,
    (_match, indent, connections) => `${indent}worker_connections ${Math.min(Number(connections), files)};`,
  );
  replace(/^pid .*;$/m, () => `pid ${prefix}/nginx.pid;`);
  replace(/^error_log .*;$/m, () => `error_log ${prefix}/error.log warn;`);
  replace(/^\s*include \/etc\/nginx\/conf\.d\/\*\.conf;$/m, () => `    ${httpIncludes}`);
  return main;
}

/**
 * Renders infra/nginx/fieldops.conf.template as the nginx image would (envsubst), with every instance of a service
 * in its upstream, plus test-only pinned relay entrances, and the repository's main configuration (infra/nginx/nginx.conf)
 * keeping everything in `prefix`.
 * Returns the path of the main configuration.
 */
export function renderNginxConfiguration(options: NginxConfigurationOptions): string {
  const { prefix } = options;
  const template = readFileSync(join(options.repositoryRoot, 'infra/nginx/fieldops.conf.template'), 'utf8');
  const site = template
    .replaceAll('${INSPECTION_API_UPSTREAM}', upstreamServers(options.inspectionApi))
    .replaceAll('${RELAY_GATEWAY_UPSTREAM}', upstreamServers(options.relayGateway))
    .replaceAll('${CONNECTOR_GATEWAY_UPSTREAM}', upstreamServers(options.connectorGateway))
    .replaceAll(
      '${INSPECTION_CONSOLE_UPSTREAM}',
      upstreamServers(options.inspectionConsole ?? options.inspectionApi),
    )
    .replaceAll('${LISTEN_PORT}', String(options.listenPort))
    .replaceAll('/dev/stdout', join(prefix, 'access.log'));
  writeFileSync(join(prefix, 'fieldops.conf'), site);
  const consoleStatic = options.consoleStatic
    ? readFileSync(join(options.repositoryRoot, 'infra/nginx/inspection-console.conf'), 'utf8')
        .replace('listen 8080;', `listen ${options.consoleStatic.listenPort};`)
        .replace('root /usr/share/nginx/html;', `root ${options.consoleStatic.htmlRoot};`)
    : '';
  writeFileSync(join(prefix, 'inspection-console.conf'), consoleStatic);
  const unavailable = botFrameworkUnavailable(template);
  const pinned = (options.pinnedRelayEntrances ?? [])
    .map((entrance, index) => pinnedEntrance(entrance, index, unavailable))
    .join('\n');
  writeFileSync(
    join(prefix, 'pinned.conf'),
    `log_format fieldops_pinned escape=json '{"msec":$msec,"method":"$request_method","uri":"$request_uri",'
    '"status":$status,"upstream":"$upstream_addr"}';
${pinned}`,
  );
  const main = renderMainConfiguration(
    options.repositoryRoot,
    prefix,
    `client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy; fastcgi_temp_path ${prefix}/fastcgi;
    uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
    include ${prefix}/fieldops.conf;
    include ${prefix}/pinned.conf;
    include ${prefix}/inspection-console.conf;`,
  );
  const path = join(prefix, 'nginx.conf');
  writeFileSync(path, main);
  return path;
}

/** Debian's nginx in the foreground on a rendered configuration. */
export class NginxProcess {
  private child: ChildProcess | undefined;

  constructor(
    private readonly prefix: string,
    private readonly configuration: string,
    private readonly binary: string = NGINX_BINARY ?? 'nginx',
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The master and its workers. */
  residentSetBytes(): number | undefined {
    return residentSetBytesWithChildren(this.child?.pid);
  }

  /** `nginx -t`, then starts it and waits until `healthUrl` answers. */
  async start(healthUrl: string): Promise<void> {
    execFileSync(this.binary, ['-t', '-q', '-p', this.prefix, '-c', this.configuration]);
    this.child = spawn(this.binary, ['-p', this.prefix, '-c', this.configuration], { stdio: 'ignore' });
    await waitUntil(
      async () => (await fetch(healthUrl).catch(() => undefined))?.status === 200,
      `nginx at ${healthUrl}`,
      15_000,
    );
  }

  /** Graceful stop (SIGQUIT), then waits for the exit. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGQUIT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
