import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { type Role } from './role';

/** An account that obtains JWTs (Django's auth_user, the columns simplejwt needs). */
@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar', length: 150, unique: true }) username: string;
  /** argon2id PHC string. */
  @Column({ type: 'varchar', length: 255 }) password: string;
  @Column({ name: 'is_active', type: 'boolean', default: true }) isActive: boolean;
  @Column({ name: 'is_staff', type: 'boolean', default: false }) isStaff: boolean;
  @Column({ name: 'date_joined', type: 'timestamptz' }) dateJoined: Date;
  @Column({ type: 'varchar', length: 10, default: 'inspector' }) role: Role;
  @Column({ name: 'last_login', type: 'timestamptz', nullable: true }) lastLogin: Date | null;
  /** Tokens issued before this instant are refused (password change or reset, deactivation, sign out everywhere). */
  @Column({ name: 'tokens_valid_after', type: 'timestamptz', nullable: true }) tokensValidAfter: Date | null;
  /** The OpenID Connect provider (issuer) and person (subject) the account belongs to; null: a local account. */
  @Column({ name: 'oidc_issuer', type: 'varchar', length: 255, nullable: true }) oidcIssuer: string | null;
  @Column({ name: 'oidc_subject', type: 'varchar', length: 255, nullable: true }) oidcSubject: string | null;
}
