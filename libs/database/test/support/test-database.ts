/** The server the suite runs against: set by CI, or by src/testing/global-setup.ts (embedded). */
export function adminDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: the Jest globalSetup should have provided it');
  return url;
}
