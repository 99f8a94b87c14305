import { type Logger } from '@fieldops/platform';
import { InspectionApiRefusal, InspectionApiUnavailable, plainReasons } from './inspection-api.errors';
import {
  type ActionComment,
  type CheckItem,
  type CheckPlan,
  type CheckRecord,
  type CheckStatus,
  type CorrectiveAction,
  type Device,
  type DueCheck,
  type DueToday,
  type InspectionApi,
  type InspectionUser,
  type NewCheckItem,
  type NotificationPreferences,
  type NewCheckPlan,
  type NewCheckRecord,
  type NewDevice,
  type Page,
  type PhotoFile,
  type Team,
  type WriteOptions,
} from './inspection-api.types';

export interface InspectionApiClientOptions {
  /** inspection-api's base URL (routes under `/api`), without a trailing slash. */
  baseUrl: string;
  username: string;
  password: string;
  logger?: Logger;
  /** Refresh the access token this long before it expires. */
  refreshMarginSeconds?: number;
  /** Deadline of each request. */
  timeoutMs?: number;
}

interface TokenPair {
  access: string;
  refresh: string;
  /** Epoch seconds at which the access token expires. */
  accessExpiresAt: number;
}

const MAX_PAGE_SIZE = 100;

function expiryOf(jwt: string): number {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' ? payload.exp : 0;
  } catch {
    return 0;
  }
}

/**
 * inspection-api over HTTP with the bot's service account: a token pair from `POST /api/token/`, the access token
 * renewed with `POST /api/token/refresh/` shortly before it expires or when a request answers 401 (a refused
 * refresh falls back to logging in again), one retry after a 401. 4xx answers become `InspectionApiRefusal` (DRF
 * errors in plain sentences), network failures and 5xx `InspectionApiUnavailable`.
 */
/** How one request is sent besides its method, path and JSON body. */
interface RequestOptions {
  form?: () => FormData;
  idempotencyKey?: string;
  /** The user id the service account acts for (`X-On-Behalf-Of`). */
  onBehalfOf?: number;
}

/** The actions "my actions" reads at once (one page). */
const MY_ACTIONS_PAGE = 50;

export class InspectionApiClient implements InspectionApi {
  private tokens: TokenPair | undefined;
  private pendingTokens: Promise<TokenPair> | undefined;
  private readonly refreshMarginSeconds: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: InspectionApiClientOptions) {
    this.refreshMarginSeconds = options.refreshMarginSeconds ?? 30;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  // --- the InspectionApi port --------------------------------------------------------------------------------

  async findUser(id: number): Promise<InspectionUser | undefined> {
    try {
      return await this.json<InspectionUser>('GET', `users/${id}/`);
    } catch (error) {
      if (error instanceof InspectionApiRefusal && error.status === 404) return undefined;
      throw error;
    }
  }

  listDevices({ search, pageSize = 20 }: { search?: string; pageSize?: number } = {}): Promise<Page<Device>> {
    const query = new URLSearchParams({ page_size: String(pageSize) });
    if (search) query.set('search', search);
    return this.json<Page<Device>>('GET', `devices/?${query.toString()}`);
  }

  async findDeviceByCode(code: string): Promise<Device | undefined> {
    const wanted = code.trim().toLowerCase();
    const page = await this.listDevices({ search: code.trim(), pageSize: MAX_PAGE_SIZE });
    return page.results.find((device) => device.code.toLowerCase() === wanted);
  }

  notificationPreferences(userId: number): Promise<NotificationPreferences> {
    return this.json<NotificationPreferences>('GET', `users/${userId}/notifications/`);
  }

  changeNotificationPreferences(
    userId: number,
    change: Partial<Omit<NotificationPreferences, 'user' | 'updated_at'>>,
  ): Promise<NotificationPreferences> {
    return this.json<NotificationPreferences>('PATCH', `users/${userId}/notifications/`, change);
  }

  getDevice(id: number): Promise<Device> {
    return this.json<Device>('GET', `devices/${id}/`);
  }

  async listActivePlans(): Promise<CheckPlan[]> {
    const plans: CheckPlan[] = [];
    for (let page = 1; ; page += 1) {
      const result = await this.json<Page<CheckPlan>>(
        'GET',
        `plans/?active=true&page_size=${MAX_PAGE_SIZE}&page=${page}`,
      );
      plans.push(...result.results);
      if (!result.next) return plans;
    }
  }

  async dueChecks(at: Date): Promise<DueToday> {
    // The API's time zone decides what "the day" is: ask it, then name the day of `at` there.
    const summary = await this.json<{ time_zone: string; plans: unknown[] }>('GET', 'due/summary/');
    const date = calendarDate(at, summary.time_zone);
    const open: DueCheck[] = [];
    for (const status of ['overdue', 'due']) {
      for (let page = 1; ; page += 1) {
        const query = new URLSearchParams({
          date,
          status,
          page_size: String(MAX_PAGE_SIZE),
          page: String(page),
        });
        const result = await this.json<Page<DueCheck>>('GET', `due/?${query.toString()}`);
        open.push(...result.results);
        if (!result.next) break;
      }
    }
    open.sort(
      (a, b) => a.plan.id - b.plan.id || a.device.id - b.device.id || (a.item?.id ?? 0) - (b.item?.id ?? 0),
    );
    return { hasPlans: summary.plans.length > 0, open };
  }

  async periodChecks({ device, plan }: { device: number; plan: number }, at: Date): Promise<DueCheck[]> {
    const filter = { plan: String(plan), device: String(device) };
    const summary = await this.json<{ time_zone: string }>(
      'GET',
      `due/summary/?${new URLSearchParams(filter).toString()}`,
    );
    const date = calendarDate(at, summary.time_zone);
    const checks: DueCheck[] = [];
    for (let page = 1; ; page += 1) {
      const query = new URLSearchParams({
        ...filter,
        date,
        page_size: String(MAX_PAGE_SIZE),
        page: String(page),
      });
      const result = await this.json<Page<DueCheck>>('GET', `due/?${query.toString()}`);
      checks.push(...result.results);
      if (!result.next) return checks;
    }
  }

  async recordsSince(device: number, checkedAfter: string): Promise<CheckRecord[]> {
    const query = new URLSearchParams({
      device: String(device),
      checked_after: checkedAfter,
      ordering: '-checked_at',
      page_size: String(MAX_PAGE_SIZE),
    });
    return (await this.json<Page<CheckRecord>>('GET', `records/?${query.toString()}`)).results;
  }

  async recordsBy(checkedBy: string, checkedAfter: string): Promise<CheckRecord[]> {
    const query = new URLSearchParams({
      checked_by: checkedBy,
      checked_after: checkedAfter,
      ordering: '-checked_at',
      page_size: String(MAX_PAGE_SIZE),
    });
    return (await this.json<Page<CheckRecord>>('GET', `records/?${query.toString()}`)).results;
  }

  async countRecords({ device, checkedAfter }: { device: number; checkedAfter?: Date }): Promise<number> {
    const query = new URLSearchParams({ device: String(device), page_size: '1' });
    if (checkedAfter) query.set('checked_after', checkedAfter.toISOString());
    return (await this.json<Page<CheckRecord>>('GET', `records/?${query.toString()}`)).count;
  }

  async lastRecords(device: number, count: number): Promise<CheckRecord[]> {
    // Newest first: DRF's OrderingFilter on records (also the list's default).
    const query = new URLSearchParams({
      device: String(device),
      ordering: '-checked_at',
      page_size: String(count),
    });
    return (await this.json<Page<CheckRecord>>('GET', `records/?${query.toString()}`)).results;
  }

  createRecord(record: NewCheckRecord, options: WriteOptions = {}): Promise<CheckRecord> {
    return this.json<CheckRecord>(
      'POST',
      'records/',
      record,
      undefined,
      options.idempotencyKey,
      options.accessToken,
    );
  }

  /** Changes a record's status (the chat's "mark as fail" after an out-of-range value). */
  setRecordStatus(recordId: number, status: CheckStatus): Promise<CheckRecord> {
    return this.json<CheckRecord>('PATCH', `records/${recordId}/`, { status });
  }

  attachPhoto(recordId: number, photo: PhotoFile, options: WriteOptions = {}): Promise<CheckRecord> {
    return this.json<CheckRecord>(
      'PATCH',
      `records/${recordId}/`,
      undefined,
      () => {
        const form = new FormData();
        form.append('photo', new Blob([new Uint8Array(photo.data)], { type: photo.contentType }), photo.name);
        return form;
      },
      options.idempotencyKey,
    );
  }

  // --- corrective actions, as the person in the chat (X-On-Behalf-Of) --------------------------------------------

  async myActions(person: number): Promise<{ actions: CorrectiveAction[]; more: boolean }> {
    // Assigned to the person or to a team of theirs.
    const query = new URLSearchParams({
      assigned_to: String(person),
      ordering: 'status,-overdue,due_date',
      page_size: String(MY_ACTIONS_PAGE),
    });
    const page = await this.json<Page<CorrectiveAction>>('GET', `actions/?${query.toString()}`, undefined, {
      onBehalfOf: person,
    });
    const actions = page.results.filter(
      (action) => action.status !== 'verified' && action.status !== 'cancelled',
    );
    return { actions, more: page.next !== null && actions.length === page.results.length };
  }

  /** A team, as the person reads it (inspectors read teams). */
  getTeam(id: number, person: number): Promise<Team> {
    return this.json<Team>('GET', `teams/${id}/`, undefined, { onBehalfOf: person });
  }

  getAction(id: number, person: number): Promise<CorrectiveAction> {
    return this.json<CorrectiveAction>('GET', `actions/${id}/`, undefined, { onBehalfOf: person });
  }

  actionComments(id: number, person: number): Promise<ActionComment[]> {
    return this.json<ActionComment[]>('GET', `actions/${id}/comments/`, undefined, { onBehalfOf: person });
  }

  commentOnAction(id: number, text: string, person: number): Promise<ActionComment> {
    return this.json<ActionComment>('POST', `actions/${id}/comments/`, { text }, { onBehalfOf: person });
  }

  closeAction(
    id: number,
    closeOut: { note: string; photo: PhotoFile },
    person: number,
    options: WriteOptions = {},
  ): Promise<CorrectiveAction> {
    return this.json<CorrectiveAction>('PATCH', `actions/${id}/`, undefined, {
      onBehalfOf: person,
      idempotencyKey: options.idempotencyKey,
      form: () => {
        const form = new FormData();
        form.append('status', 'done');
        form.append('close_out_note', closeOut.note);
        const { data, contentType, name } = closeOut.photo;
        form.append('close_out_photo', new Blob([new Uint8Array(data)], { type: contentType }), name);
        return form;
      },
    });
  }

  // --- set-up helpers (demo data) ----------------------------------------------------------------------------

  createDevice(device: NewDevice): Promise<Device> {
    return this.json<Device>('POST', 'devices/', device);
  }

  createItem(item: NewCheckItem): Promise<CheckItem> {
    return this.json<CheckItem>('POST', 'items/', item);
  }

  createPlan(plan: NewCheckPlan): Promise<CheckPlan> {
    return this.json<CheckPlan>('POST', 'plans/', plan);
  }

  getRecord(id: number): Promise<CheckRecord> {
    return this.json<CheckRecord>('GET', `records/${id}/`);
  }

  /** Obtains (or renews) the access token; readiness uses it to prove the API and the account work. */
  async accessToken(): Promise<string> {
    const now = Date.now() / 1000;
    if (this.tokens && this.tokens.accessExpiresAt - this.refreshMarginSeconds > now)
      return this.tokens.access;
    return (await this.renewTokens()).access;
  }

  /** A fresh access token (the one held was refused, e.g. the API's signing key changed). */
  async renewedAccessToken(): Promise<string> {
    this.forceRenewal();
    return this.accessToken();
  }

  // --- HTTP --------------------------------------------------------------------------------------------------

  private renewTokens(): Promise<TokenPair> {
    // One renewal at a time, shared by concurrent callers.
    this.pendingTokens ??= (async () => {
      try {
        this.tokens = await this.refreshOrObtain();
        return this.tokens;
      } finally {
        this.pendingTokens = undefined;
      }
    })();
    return this.pendingTokens;
  }

  private async refreshOrObtain(): Promise<TokenPair> {
    if (this.tokens) {
      const response = await this.send('POST', 'token/refresh/', { refresh: this.tokens.refresh });
      if (response.ok) {
        const { access } = (await response.json()) as { access: string };
        return { access, refresh: this.tokens.refresh, accessExpiresAt: expiryOf(access) };
      }
      this.options.logger?.info(
        { status: response.status },
        'inspection-api refresh refused; logging in again',
      );
    }
    const response = await this.send('POST', 'token/', {
      username: this.options.username,
      password: this.options.password,
    });
    if (!response.ok) throw await this.failure(response);
    const pair = (await response.json()) as { access: string; refresh: string };
    return { ...pair, accessExpiresAt: expiryOf(pair.access) };
  }

  private async json<T>(
    method: string,
    path: string,
    body?: unknown,
    formOrOptions?: (() => FormData) | RequestOptions,
    idempotencyKey?: string,
    personsToken?: string,
  ): Promise<T> {
    const options: RequestOptions =
      typeof formOrOptions === 'object' ? formOrOptions : { form: formOrOptions, idempotencyKey };
    if (personsToken !== undefined) {
      const response = await this.send(method, path, body, personsToken, options);
      if (!response.ok) throw await this.failure(response);
      return (await response.json()) as T;
    }
    let response = await this.send(method, path, body, await this.accessToken(), options);
    if (response.status === 401) {
      await response.body?.cancel();
      this.forceRenewal();
      response = await this.send(method, path, body, await this.accessToken(), options);
    }
    if (!response.ok) throw await this.failure(response);
    return (await response.json()) as T;
  }

  private forceRenewal(): void {
    if (this.tokens) this.tokens = { ...this.tokens, accessExpiresAt: 0 };
  }

  private async send(
    method: string,
    path: string,
    body?: unknown,
    accessToken?: string,
    { form, idempotencyKey, onBehalfOf }: RequestOptions = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (accessToken) headers.authorization = `Bearer ${accessToken}`;
    // The person in the chat: the API applies their rights and writes their name (its on-behalf-of.ts).
    if (onBehalfOf !== undefined) headers['x-on-behalf-of'] = String(onBehalfOf);
    // A Structured Field string, as the IETF draft writes it (the key is printable ASCII: see answer-identity.ts).
    if (idempotencyKey) headers['idempotency-key'] = `"${idempotencyKey}"`;
    let payload: string | FormData | undefined;
    if (form) payload = form();
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    try {
      return await fetch(`${this.options.baseUrl}/api/${path}`, {
        method,
        headers,
        body: payload,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new InspectionApiUnavailable(`inspection-api ${method} /api/${path} failed`, { cause: error });
    }
  }

  private async failure(response: Response): Promise<Error> {
    const text = await response.text().catch(() => '');
    if (response.status >= 500) {
      return new InspectionApiUnavailable(
        `inspection-api answered ${response.status}: ${text.slice(0, 200)}`,
      );
    }
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the generic sentence
    }
    return new InspectionApiRefusal(response.status, plainReasons(response.status, body), body);
  }
}

/** `YYYY-MM-DD` of an instant in an IANA time zone. */
function calendarDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}
