import { type Request } from 'express';
import { pageLinks, pageRequest, parseQuery } from './pagination';
import { pythonJsonError } from './python-json-error';

const request = (url: string): Request =>
  ({ originalUrl: url, protocol: 'http', host: 'example.test:9999' }) as unknown as Request;
const settings = { defaultSize: 20, maxSize: 100 };

describe('pagination', () => {
  it('reads page and page_size like PageNumberPagination (last value wins, clamped, invalid size ignored)', () => {
    expect(pageRequest(parseQuery(request('/x?page=2&page=3&page_size=500')), settings)).toEqual({
      page: 3,
      size: 100,
    });
    expect(pageRequest(parseQuery(request('/x?page_size=abc')), settings)).toEqual({ page: 1, size: 20 });
    expect(pageRequest(parseQuery(request('/x?page=last')), settings).page).toBe('last');
    for (const page of ['0', '-1', 'abc', '2.0', '', '1e3'])
      expect(() => pageRequest(parseQuery(request(`/x?page=${page}`)), settings)).toThrow();
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
