/** What a user may do: inspectors read and record checks; supervisors also manage the inventory and the users. */
export const ROLES = ['inspector', 'supervisor'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);
