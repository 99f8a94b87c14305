import { actionOverdueSql } from '../actions/action-transitions';
import { actionPageSql } from '../actions/actions.service';
import { actionStatisticsSql } from './statistics.service';

describe('overdue actions in statistics and ordering', () => {
  it('the statistics count overdue by the one rule (actionOverdueSql), with today as a parameter', () => {
    const { sql, parameters } = actionStatisticsSql('2026-03-01', { device: 7, group: 'pumps' });
    expect(parameters).toEqual(['2026-03-01', 7, 'pumps']);
    expect(sql).toContain(actionOverdueSql('$1'));
    expect(sql).toContain('a."device_id" = $2');
    expect(sql).toContain('d."group" = $3');
  });

  it('without filters the statistics read every action', () => {
    const { sql, parameters } = actionStatisticsSql('2026-03-01', {});
    expect(parameters).toEqual(['2026-03-01']);
    expect(sql).not.toContain('WHERE a."device_id"');
  });

  it("?ordering=-overdue orders by the same rule on the list statement's today ($2), then by id", () => {
    const { sql, parameters } = actionPageSql(
      'http://x/media/',
      '2026-03-01',
      { ordering: [{ field: 'overdue', descending: true }] },
      20,
      0,
    );
    expect(parameters.slice(0, 2)).toEqual(['http://x/media/', '2026-03-01']);
    expect(sql).toContain(`ORDER BY ${actionOverdueSql('$2')} DESC, a."id" DESC`);
  });
});
