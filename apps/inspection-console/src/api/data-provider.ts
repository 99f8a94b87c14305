import { type DataProvider, HttpError, type Identifier, type RaRecord } from 'react-admin';
import { type ItemInput, itemBody } from '../devices/item-body';
import { apiJson, apiRequest } from './http-client';
import {
  type ActionComment,
  type AuditEntry,
  type AuditResource,
  type CheckItem,
  type ConsoleUser,
  type Device,
  type DrfPage,
  type DueRow,
  type DueSummary,
  type NotificationPreferences,
  type RecordStatistics,
  type WebhookDelivery,
} from './resources';

/**
 * react-admin's data provider for inspection-api's DRF wire format: `page` / `page_size` paging over
 * `{count, next, previous, results}`, `q` → `search`, PATCH for updates, trailing slashes. Devices carry their check
 * items: create and update write the device, then its items (`/api/items/`), so the device form edits them inline.
 */

type Query = Record<string, unknown>;

/** Filter values as query parameters: empty values dropped, `q` → `search`, date ranges on whole local days. */
export function filterQuery(filter: Query): URLSearchParams {
  const query = new URLSearchParams();
  for (const [key, raw] of Object.entries(filter)) {
    if (raw === undefined || raw === null || raw === '') continue;
    const values = Array.isArray(raw) ? (raw as unknown[]) : [raw];
    const name = key === 'q' ? 'search' : key;
    for (const value of values) {
      let text = typeof value === 'object' ? JSON.stringify(value) : `${value as string | number | boolean}`;
      if (/^\d{4}-\d{2}-\d{2}$/.test(text) && (key === 'checked_after' || key === 'checked_before'))
        text = localDayBoundary(text, key === 'checked_before');
      query.append(name, text);
    }
  }
  return query;
}

/** `2026-11-24` → the start (or last second) of that day in the browser's time zone, with its UTC offset. */
function localDayBoundary(day: string, end: boolean): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const local = new Date(year, month - 1, date, end ? 23 : 0, end ? 59 : 0, end ? 59 : 0);
  const offset = -local.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const mm = String(Math.abs(offset) % 60).padStart(2, '0');
  return `${day}T${end ? '23:59:59' : '00:00:00'}${sign}${hh}:${mm}`;
}

/** Audit entries per page of a History section. */
export const AUDIT_PAGE_SIZE = 10;

/** Deliveries per page of a webhook endpoint's log. */
export const DELIVERY_PAGE_SIZE = 20;

/** Resources whose list takes DRF's `?ordering=`. */
const ORDERED = new Set(['records', 'actions']);

/** Resources whose list endpoint is not paged (a bare array). */
const UNPAGED = new Set(['items']);

const DEVICE_FIELDS = ['name', 'code', 'location', 'group'] as const;

function pick<T extends string>(data: Query, fields: readonly T[]): Partial<Record<T, unknown>> {
  return Object.fromEntries(fields.filter((f) => f in data).map((f) => [f, data[f] ?? ''])) as Partial<
    Record<T, unknown>
  >;
}

function dueRowId(row: DueRow): string {
  return `${row.plan.id}-${row.device.id}-${row.item?.id ?? 'device'}`;
}

/** Item errors keyed as the form's `check_items.<index>.<field>`. */
function itemError(error: unknown, index: number): unknown {
  if (error instanceof HttpError && error.body && typeof error.body === 'object') {
    const body = error.body as { errors?: Record<string, unknown> };
    if (body.errors) {
      return new HttpError(error.message, error.status, {
        errors: { check_items: { [index]: body.errors } },
      });
    }
  }
  return error;
}

async function saveItems(deviceId: Identifier, items: ItemInput[], previous: CheckItem[]): Promise<void> {
  const kept = new Set(items.map((item) => item.id).filter((id) => id !== undefined && id !== null));
  for (const old of previous) {
    if (!kept.has(old.id)) await apiRequest(`items/${old.id}/`, { method: 'DELETE' });
  }
  for (const [index, item] of items.entries()) {
    const body = itemBody(item);
    const before = previous.find((old) => old.id === item.id);
    try {
      if (!before) await apiRequest('items/', { method: 'POST', body: { ...body, device: deviceId } });
      else if (JSON.stringify(itemBody(before)) !== JSON.stringify(body))
        await apiRequest(`items/${before.id}/`, { method: 'PATCH', body });
    } catch (error) {
      throw itemError(error, index);
    }
  }
}

/** The resources with a PDF report: one record, a device's history, a plan's round. */
export type ReportKind = 'records' | 'devices' | 'plans';

export interface ConsoleDataProvider extends DataProvider {
  me(): Promise<ConsoleUser>;
  dueSummary(filter?: Query): Promise<DueSummary>;
  recordStatistics(filter?: Query): Promise<RecordStatistics>;
  /** The records export of a filter, as the API streams it (`/api/records/export.csv`). */
  exportRecords(filter: Query): Promise<Blob>;
  /** A PDF report (`/api/{kind}/{id}/report.pdf`) and the file name the API gives it. */
  downloadReport(
    kind: ReportKind,
    id: Identifier,
    query: Record<string, string>,
  ): Promise<{ blob: Blob; filename: string }>;
  setPassword(id: Identifier, password: string): Promise<void>;
  /** An action's comments, oldest first (`/api/actions/{id}/comments/`). */
  actionComments(id: Identifier): Promise<ActionComment[]>;
  addActionComment(id: Identifier, text: string): Promise<ActionComment>;
  /** The distinct device groups (`/api/devices/groups/`). */
  deviceGroups(): Promise<string[]>;
  /** One page of a resource's audit trail, newest first (`/api/audit/?resource=&resource_id=`). */
  auditTrail(resource: AuditResource, id: Identifier, page: number): Promise<DrfPage<AuditEntry>>;
  /** One page of a webhook endpoint's delivery log, newest first (`/api/webhooks/{id}/deliveries/`). */
  webhookDeliveries(id: Identifier, page: number): Promise<DrfPage<WebhookDelivery>>;
  /** A person's notification preferences: the signed-in one's (`'me'`) or, for supervisors, anyone's (an id). */
  notificationPreferences(user: Identifier): Promise<NotificationPreferences>;
  /** Replaces them (`PUT`): the fields left null go back to none. */
  saveNotificationPreferences(
    user: Identifier,
    body: Omit<NotificationPreferences, 'user' | 'updated_at'>,
  ): Promise<NotificationPreferences>;
}

export const dataProvider: ConsoleDataProvider = {
  async getList(resource, params) {
    const filter = { ...(params.filter as Query) };
    if (UNPAGED.has(resource)) {
      const all = await apiJson<RaRecord[]>(`${resource}/`, { query: filterQuery(filter) });
      const { page = 1, perPage = all.length || 1 } = params.pagination ?? {};
      return { data: all.slice((page - 1) * perPage, page * perPage) as never[], total: all.length };
    }
    const query = filterQuery(filter);
    // DRF's OrderingFilter on records (`-checked_at`: newest first) and actions; the other lists are by id.
    if (ORDERED.has(resource) && params.sort?.field)
      query.set('ordering', `${params.sort.order === 'DESC' ? '-' : ''}${params.sort.field}`);
    if (params.pagination) {
      query.set('page', String(params.pagination.page));
      query.set('page_size', String(params.pagination.perPage));
    }
    try {
      const page = await apiJson<DrfPage<RaRecord>>(`${resource}/`, { query });
      const data =
        resource === 'due'
          ? (page.results as unknown as DueRow[]).map((row) => ({ ...row, id: dueRowId(row) }))
          : page.results;
      return { data: data as never[], total: page.count };
    } catch (error) {
      // DRF answers 404 "Invalid page." past the last page (e.g. after a filter shrank the list): an empty page.
      if (error instanceof HttpError && error.status === 404 && params.pagination?.page !== 1)
        return { data: [], total: 0 };
      throw error;
    }
  },

  async getOne(resource, params) {
    return { data: await apiJson(`${resource}/${params.id}/`) };
  },

  async getMany(resource, params) {
    return { data: await Promise.all(params.ids.map((id) => apiJson<never>(`${resource}/${id}/`))) };
  },

  getManyReference(resource, params) {
    return this.getList(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } });
  },

  async create(resource, params) {
    const data = params.data as Query;
    if (resource === 'devices') {
      const device = await apiJson<Device>('devices/', { method: 'POST', body: pick(data, DEVICE_FIELDS) });
      try {
        await saveItems(device.id, (data.check_items as ItemInput[] | undefined) ?? [], []);
      } catch (error) {
        // Keep create atomic for the form: a refused item leaves no half-made device behind.
        await apiRequest(`devices/${device.id}/`, { method: 'DELETE' }).catch(() => undefined);
        throw error;
      }
      return { data: await apiJson(`devices/${device.id}/`) };
    }
    return { data: await apiJson(`${resource}/`, { method: 'POST', body: data }) };
  },

  async update(resource, params) {
    const data = params.data as Query;
    if (resource === 'devices') {
      await apiRequest(`devices/${params.id}/`, { method: 'PATCH', body: pick(data, DEVICE_FIELDS) });
      const previous: CheckItem[] = (params.previousData as Partial<Device> | undefined)?.check_items ?? [];
      await saveItems(params.id as Identifier, (data.check_items as ItemInput[] | undefined) ?? [], previous);
      return { data: await apiJson(`devices/${params.id}/`) };
    }
    return { data: await apiJson(`${resource}/${params.id}/`, { method: 'PATCH', body: data }) };
  },

  async updateMany(resource, params) {
    await Promise.all(
      params.ids.map((id) => apiRequest(`${resource}/${id}/`, { method: 'PATCH', body: params.data })),
    );
    return { data: params.ids };
  },

  async delete(resource, params) {
    await apiRequest(`${resource}/${params.id}/`, { method: 'DELETE' });
    return { data: params.previousData as never };
  },

  async deleteMany(resource, params) {
    for (const id of params.ids) await apiRequest(`${resource}/${id}/`, { method: 'DELETE' });
    return { data: params.ids };
  },

  me: () => apiJson<ConsoleUser>('users/me/'),
  deviceGroups: () => apiJson<string[]>('devices/groups/'),
  dueSummary: (filter = {}) => apiJson<DueSummary>('due/summary/', { query: filterQuery(filter) }),
  recordStatistics: (filter = {}) =>
    apiJson<RecordStatistics>('statistics/records/', { query: filterQuery(filter) }),
  async exportRecords(filter) {
    const response = await apiRequest('records/export.csv', { query: filterQuery(filter) });
    return response.blob();
  },
  async downloadReport(kind, id, query) {
    const response = await apiRequest(`${kind}/${id}/report.pdf`, { query: new URLSearchParams(query) });
    const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
    return { blob: await response.blob(), filename: name ?? `${kind}-${id}.pdf` };
  },
  auditTrail: (resource, id, page) =>
    apiJson<DrfPage<AuditEntry>>('audit/', {
      query: new URLSearchParams({
        resource,
        resource_id: String(id),
        page: String(page),
        page_size: String(AUDIT_PAGE_SIZE),
      }),
    }),
  webhookDeliveries: (id, page) =>
    apiJson<DrfPage<WebhookDelivery>>(`webhooks/${id}/deliveries/`, {
      query: new URLSearchParams({ page: String(page), page_size: String(DELIVERY_PAGE_SIZE) }),
    }),
  notificationPreferences: (user) => apiJson<NotificationPreferences>(`users/${user}/notifications/`),
  saveNotificationPreferences: (user, body) =>
    apiJson<NotificationPreferences>(`users/${user}/notifications/`, { method: 'PUT', body }),
  actionComments: (id) => apiJson<ActionComment[]>(`actions/${id}/comments/`),
  addActionComment: (id, text) =>
    apiJson<ActionComment>(`actions/${id}/comments/`, { method: 'POST', body: { text } }),
  async setPassword(id, password) {
    await apiRequest(`users/${id}/set_password/`, { method: 'POST', body: { password } });
  },
};
