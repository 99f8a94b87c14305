import { createScratchDatabase, type ScratchDatabase } from '@fieldops/database';
import { testDatabaseUrl } from '@fieldops/testing';
import { Client } from 'pg';
import { actionPeople, actionPeopleSql, actionPersonSql } from './action-assignment';

/** The SQL of the rule agrees with `actionPeople` on the same assignments (PostgreSQL). */
describe('whose an action is, in SQL (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: Client;
  beforeAll(async () => {
    scratch = await createScratchDatabase(testDatabaseUrl(), 'inspection_action_assignment');
    db = new Client({ connectionString: scratch.url });
    await db.connect();
    await db.query(`CREATE TABLE "actions" ("id" int, "assignee_id" int, "assignee_team_id" int);
      CREATE TABLE "team_members" ("team_id" int, "user_id" int)`);
  });
  afterAll(async () => {
    await db?.end();
    await scratch?.drop();
  });

  it('gives the same people per action as actionPeople, for every person asked', async () => {
    const teams: Record<number, number[]> = { 1: [2, 5], 2: [], 3: [5, 9, 4] };
    const actions: Record<number, { assignee: number | null; team: number | null }> = {
      10: { assignee: null, team: null },
      11: { assignee: 4, team: null },
      12: { assignee: null, team: 1 },
      13: { assignee: null, team: 2 },
      14: { assignee: null, team: 3 },
    };
    for (const [team, members] of Object.entries(teams))
      for (const member of members)
        await db.query('INSERT INTO "team_members" VALUES ($1, $2)', [team, member]);
    for (const [action, { assignee, team }] of Object.entries(actions))
      await db.query('INSERT INTO "actions" VALUES ($1, $2, $3)', [action, assignee, team]);
    const people = async (relation: string) =>
      (
        await db.query<{ action_id: number; people: number[] }>(
          `SELECT p."action_id", array_agg(p."user_id" ORDER BY p."user_id") AS "people" FROM ${relation} p GROUP BY p."action_id"`,
        )
      ).rows;
    const rows = await people(actionPeopleSql());
    // Over a relation of action rows, as the due summary asks it of the actions it counts.
    const some = await people(actionPeopleSql('(SELECT * FROM "actions" WHERE "id" IN (11, 14))'));
    for (const [action, { assignee, team }] of Object.entries(actions)) {
      const expected = actionPeople(
        { assigneeId: assignee, assigneeTeamId: team },
        team === null ? [] : (teams[team] ?? []),
      );
      const id = Number(action);
      expect([id, rows.find((row) => row.action_id === id)?.people ?? []]).toEqual([id, expected]);
      expect([id, some.find((row) => row.action_id === id)?.people ?? []]).toEqual([
        id,
        id === 11 || id === 14 ? expected : [],
      ]);
      for (const person of [1, 2, 3, 4, 5, 9]) {
        const { rows: asked } = await db.query<{ mine: boolean }>(
          `SELECT ${actionPersonSql('$1::int', '$2::int', '$3::int')} AS "mine"`,
          [assignee, team, person],
        );
        expect([id, person, asked[0]?.mine === true]).toEqual([id, person, expected.includes(person)]);
      }
    }
  });
});
