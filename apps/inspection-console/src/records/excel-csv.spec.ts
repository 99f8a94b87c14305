import Papa from 'papaparse';
import { BYTE_ORDER_MARK, excelCsv, localDateTime } from './excel-csv';

/** The API's export (`records-export.service.ts`): its header and two rows, one with a quoted, multi-line note. */
const API_CSV = [
  'id,checked_at,device_code,device_name,item,plan,status,value,note,checked_by,photo,attachment,source',
  '2,2026-11-27T16:30:00.000Z,PUMP-1,一号泵,出口压力,每日巡检,fail,3.1 bar,"漏水, 需要更换\n密封圈",王伟,,,chat',
  "1,2026-03-31T23:59:59.000Z,PUMP-1,一号泵,,,ok,'=SUM(A1),,insp,http://x/media/p.png,,api",
  '',
].join('\n');

const words = {
  column: (name: string) => ({ checked_at: '检查时间', status: '结果', note: '备注' })[name] ?? name,
  status: (status: string) => ({ ok: '正常', warn: '警告', fail: '故障' })[status] ?? status,
  source: (source: string) => ({ chat: '聊天', qr: '二维码', api: 'API' })[source] ?? source,
};

describe('the records export for Excel', () => {
  const text = excelCsv(API_CSV, words, 'Asia/Shanghai');
  const rows = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;

  it('starts with a UTF-8 byte order mark and ends its lines with CRLF', () => {
    expect(text.startsWith(BYTE_ORDER_MARK)).toBe(true);
    expect(new TextEncoder().encode(text).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    expect(text.endsWith('\r\n')).toBe(true);
    // The header and two rows; the note's own line break stays inside its quoted cell.
    expect(text.split('\r\n')).toHaveLength(3 + 1);
  });

  it('titles the columns in the reader’s language, the time column with its time zone', () => {
    expect(rows[0]?.slice(0, 3)).toEqual(['id', '检查时间 (Asia/Shanghai)', 'device_code']);
    expect(rows[0]?.[6]).toBe('结果');
  });

  it('writes status and source in words and times in the local zone, and keeps every other cell as it was', () => {
    expect(rows[1]).toEqual([
      '2',
      '2026-11-28 00:30:00',
      'PUMP-1',
      '一号泵',
      '出口压力',
      '每日巡检',
      '故障',
      '3.1 bar',
      '漏水, 需要更换\n密封圈',
      '王伟',
      '',
      '',
      '聊天',
    ]);
    // The API's neutralised formula stays neutralised; an empty item stays empty.
    expect(rows[2]?.slice(1, 8)).toEqual([
      '2026-04-01 07:59:59',
      'PUMP-1',
      '一号泵',
      '',
      '',
      '正常',
      "'=SUM(A1)",
    ]);
    expect(rows[2]?.[12]).toBe('API');
  });

  it('crosses days, months and DST boundaries by the time zone’s rules', () => {
    expect(localDateTime('2026-03-29T00:59:59Z', 'Europe/Berlin')).toBe('2026-03-29 01:59:59');
    expect(localDateTime('2026-03-29T01:00:00Z', 'Europe/Berlin')).toBe('2026-03-29 03:00:00');
    expect(localDateTime('2028-02-29T04:00:00Z', 'America/New_York')).toBe('2028-02-28 23:00:00');
    expect(localDateTime('2026-12-31T16:00:00Z', 'Asia/Shanghai')).toBe('2027-01-01 00:00:00');
    expect(localDateTime('not a time', 'UTC')).toBe('not a time');
  });

  it('refuses text that is not CSV rather than exporting nonsense', () => {
    expect(() => excelCsv('a,"b\n', words, 'UTC')).toThrow(/records export/);
  });
});
