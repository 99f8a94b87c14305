import { createScratchDatabase, type ScratchDatabase } from '@fieldops/database';
import { testDatabaseUrl } from '@fieldops/testing';
import { Client } from 'pg';
import { PLAN_PEOPLE_SQL, planPeople, planPersonSql } from './plan-assignment';

/** The SQL of the rule agrees with `planPeople` on the same assignments (PostgreSQL). */
describe("whose a plan's checks are, in SQL (PostgreSQL)", () => {
  let scratch: ScratchDatabase;
  let db: Client;
  beforeAll(async () => {
    scratch = await createScratchDatabase(testDatabaseUrl(), 'inspection_plan_assignment');
    db = new Client({ connectionString: scratch.url });
    await db.connect();
    await db.query(`CREATE TABLE "check_plan_assignees" ("plan_id" int, "user_id" int);
      CREATE TABLE "check_plan_teams" ("plan_id" int, "team_id" int);
      CREATE TABLE "team_members" ("team_id" int, "user_id" int)`);
  });
  afterAll(async () => {
    await db?.end();
    await scratch?.drop();
  });

  it('gives the same people per plan as planPeople, for every person asked', async () => {
    const teams: Record<number, number[]> = { 1: [2, 5], 2: [], 3: [5, 9, 4] };
    const plans: Record<number, { assignees: number[]; teams: number[] }> = {
      10: { assignees: [], teams: [] },
      11: { assignees: [4, 1], teams: [] },
      12: { assignees: [], teams: [1, 2] },
      13: { assignees: [4], teams: [1, 3] },
    };
    for (const [team, members] of Object.entries(teams))
      for (const member of members)
        await db.query('INSERT INTO "team_members" VALUES ($1, $2)', [team, member]);
    for (const [plan, { assignees, teams: planTeams }] of Object.entries(plans)) {
      for (const user of assignees)
        await db.query('INSERT INTO "check_plan_assignees" VALUES ($1, $2)', [plan, user]);
      for (const team of planTeams)
        await db.query('INSERT INTO "check_plan_teams" VALUES ($1, $2)', [plan, team]);
    }
    const { rows } = await db.query<{ plan_id: number; people: number[] }>(
      `SELECT p."plan_id", array_agg(p."user_id" ORDER BY p."user_id") AS "people" FROM ${PLAN_PEOPLE_SQL} p GROUP BY p."plan_id"`,
    );
    for (const [plan, { assignees, teams: planTeams }] of Object.entries(plans)) {
      const expected = planPeople({
        assignees,
        assigneeTeams: planTeams.map((team) => ({ members: teams[team] ?? [] })),
      });
      expect([plan, rows.find((row) => row.plan_id === Number(plan))?.people ?? []]).toEqual([
        plan,
        expected,
      ]);
      for (const person of [1, 2, 3, 4, 5, 9]) {
        const { rows: asked } = await db.query<{ mine: boolean }>(
          `SELECT ${planPersonSql('$1::int', '$2::int')} AS "mine"`,
          [plan, person],
        );
        expect([plan, person, asked[0]?.mine]).toEqual([plan, person, expected.includes(person)]);
      }
    }
  });
});
