import { type DrfRequest } from './drf-request';
import { DrfException } from './exceptions';
import { pageLinks, paginate, pageRequest, parseQuery } from './pagination';
import { pythonJsonError } from './python-json-error';

/** What both paths give the helpers: Node's request line and the origin the host check fixed. */
const request = (url: string): DrfRequest =>
  ({ url, originalUrl: url, fieldopsOrigin: 'http://example.test:9999' }) as DrfRequest;
const settings = { defaultSize: 20, maxSize: 100 };

describe('pagination', () => {
  it('reads page and page_size like PageNumberPagination (last value wins, clamped, invalid size ignored)', () => {
    expect(pageRequest(parseQuery(request('/x?page=2&page=3&page_size=500')), settings)).toEqual({
      page: 3,
      size: 100,
    });
    expect(pageRequest(parseQuery(request('/x?page_size=abc')), settings)).toEqual({ page: 1, size: 20 });
    expect(pageRequest(parseQuery(request('/x?page=last')), settings).page).toBe('last');
    for (const page of ['0', '-1', 'abc', '2.0', '', '1e3']) {
      let thrown: unknown;
      try {
        pageRequest(parseQuery(request(`/x?page=${page}`)), settings);
      } catch (error) {
        thrown = error;
      }
      // DRF's PageNumberPagination: 404 {"detail": "Invalid page."}.
      expect(thrown).toBeInstanceOf(DrfException);
      expect((thrown as DrfException).getStatus()).toBe(404);
      expect((thrown as DrfException).getResponse()).toEqual({ detail: 'Invalid page.' });
    }
  });

  it('builds DRF links: sorted, re-encoded, previous of page 2 without page', () => {
    const url = '/api/devices/?zzz=1&page=2&page_size=2&q=a%20b&q=%21';
    const links = pageLinks(request(url), parseQuery(request(url)), 2, 5);
    expect(links).toEqual({
      next: 'http://example.test:9999/api/devices/?page=3&page_size=2&q=a+b&q=%21&zzz=1',
      previous: 'http://example.test:9999/api/devices/?page_size=2&q=a+b&q=%21&zzz=1',
    });
  });

  it('words JSON errors like Python', () => {
    const message = (text: string): string => {
      try {
        JSON.parse(text);
        return '';
      } catch (error) {
        return pythonJsonError(error as Error, text);
      }
    };
    expect(message('{"name":')).toBe('Expecting value: line 1 column 9 (char 8)');
    expect(message('{"a":1}x')).toBe('Extra data: line 1 column 8 (char 7)');
    expect(message('{a')).toBe('Expecting property name enclosed in double quotes: line 1 column 2 (char 1)');
  });
});

describe('paginate', () => {
  /** A statement over `total` rows whose results are the row numbers; records each (limit, offset) it ran. */
  const rows = (total: number) => {
    const calls: Array<[number, number]> = [];
    const fetch = (limit: number, offset: number) => {
      calls.push([limit, offset]);
      const results = Array.from(
        { length: Math.max(0, Math.min(limit, total - offset)) },
        (_, i) => offset + i + 1,
      );
      return Promise.resolve({ count: total, results });
    };
    return { calls, fetch };
  };
  const invalidPage = async (work: Promise<unknown>): Promise<unknown> =>
    work.then(
      () => 'no error',
      (error: unknown) => (error instanceof DrfException ? [error.getStatus(), error.getResponse()] : error),
    );

  it('runs one statement for a numbered page', async () => {
    const { calls, fetch } = rows(5);
    expect(await paginate({ page: 2, size: 2 }, fetch)).toEqual({ count: 5, page: 2, results: [3, 4] });
    expect(calls).toEqual([[2, 2]]);
  });

  it('resolves "last" with a count-only statement first', async () => {
    const { calls, fetch } = rows(5);
    expect(await paginate({ page: 'last', size: 2 }, fetch)).toEqual({ count: 5, page: 3, results: [5] });
    expect(calls).toEqual([
      [0, 0],
      [2, 4],
    ]);
    expect(await paginate({ page: 'last', size: 2 }, rows(0).fetch)).toEqual({
      count: 0,
      page: 1,
      results: [],
    });
  });

  it('answers page 1 of nothing, and "Invalid page." past the last page or beyond an exact offset', async () => {
    expect(await paginate({ page: 1, size: 20 }, rows(0).fetch)).toEqual({ count: 0, page: 1, results: [] });
    const gone = [404, { detail: 'Invalid page.' }];
    expect(await invalidPage(paginate({ page: 2, size: 20 }, rows(0).fetch))).toEqual(gone);
    expect(await invalidPage(paginate({ page: 4, size: 2 }, rows(5).fetch))).toEqual(gone);
    const huge = rows(5);
    expect(await invalidPage(paginate({ page: Number.MAX_SAFE_INTEGER, size: 100 }, huge.fetch))).toEqual(
      gone,
    );
    expect(huge.calls).toEqual([]);
  });
});
