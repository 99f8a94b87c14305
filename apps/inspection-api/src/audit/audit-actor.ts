import { type DataSource, type EntityManager } from 'typeorm';

/** Who makes a change, as the audit trail records it (a principal, or nobody for the system's own writes). */
export interface AuditActor {
  userId: number;
  username: string;
}

/**
 * Names who makes the changes of the current transaction: the audit triggers (migration
 * `1732922000000-create-audit-trail`) read it for every row they record. Local to the transaction (`set_config(…,
 * true)`), so a pooled connection never carries it over to another request. The one call a write path makes.
 */
export async function auditActor(manager: EntityManager, actor: AuditActor | undefined): Promise<void> {
  if (!actor) return;
  await manager.query(`SELECT set_config('fieldops.audit_actor', $1, true)`, [
    JSON.stringify({ id: actor.userId, username: actor.username }),
  ]);
}

/** A write in its own transaction, audited as `actor`'s (the write path's single audit call). */
export function audited<T>(
  db: DataSource | EntityManager,
  actor: AuditActor | undefined,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  return db.transaction(async (manager) => {
    await auditActor(manager, actor);
    return work(manager);
  });
}
