import { notFound } from './drf-exceptions';

/** A path id as the URL route and PostgreSQL `integer` accept it; anything else is a 404 (never a 500). */
export function parseId(text: string): number {
  if (!/^\d{1,10}$/.test(text)) throw notFound();
  const id = Number(text);
  if (id < 1 || id > 2_147_483_647) throw notFound();
  return id;
}
