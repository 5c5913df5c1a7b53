import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('identities')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('schema_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('state_changed_at', 'varchar(32)')
    .addColumn('traits', 'text', (c) => c.notNull())
    .addColumn('metadata_public', 'text')
    .addColumn('metadata_admin', 'text')
    .addColumn('external_id', 'varchar(255)', (c) => c.unique())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('identity_credentials')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('identity_id', 'varchar(36)', (c) => c.notNull().references('identities.id').onDelete('cascade'))
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_used_step', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('identity_credentials_identity_type_uq', ['identity_id', 'type'])
    .execute();

  await db.schema
    .createTable('identity_credential_identifiers')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('identity_id', 'varchar(36)', (c) => c.notNull().references('identities.id').onDelete('cascade'))
    .addColumn('credential_id', 'varchar(36)', (c) =>
      c.notNull().references('identity_credentials.id').onDelete('cascade'),
    )
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('identifier', 'varchar(400)', (c) => c.notNull())
    .addUniqueConstraint('identity_credential_identifiers_type_identifier_uq', ['type', 'identifier'])
    .execute();

  await db.schema
    .createTable('identity_verifiable_addresses')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('identity_id', 'varchar(36)', (c) => c.notNull().references('identities.id').onDelete('cascade'))
    .addColumn('value', 'varchar(400)', (c) => c.notNull())
    .addColumn('via', 'varchar(16)', (c) => c.notNull())
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('verified_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('identity_verifiable_addresses_via_value_uq', ['via', 'value'])
    .execute();

  await db.schema
    .createTable('identity_recovery_addresses')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('identity_id', 'varchar(36)', (c) => c.notNull().references('identities.id').onDelete('cascade'))
    .addColumn('value', 'varchar(400)', (c) => c.notNull())
    .addColumn('via', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('identity_recovery_addresses_via_value_uq', ['via', 'value'])
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('logout_token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('identity_id', 'varchar(36)', (c) => c.notNull().references('identities.id').onDelete('cascade'))
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('authentication_methods', 'text', (c) => c.notNull())
    .addColumn('authenticated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('issued_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_seen_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ip_address', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(512)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_identity_idx').on('sessions').column('identity_id').execute();

  await db.schema
    .createTable('selfservice_flows')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('type', 'varchar(8)', (c) => c.notNull())
    .addColumn('state', 'varchar(32)', (c) => c.notNull())
    .addColumn('request_url', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text')
    .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
    .addColumn('active', 'varchar(32)')
    .addColumn('requested_aal', 'varchar(8)')
    .addColumn('refresh', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('identity_id', 'varchar(36)', (c) => c.references('identities.id').onDelete('cascade'))
    .addColumn('session_id', 'varchar(36)')
    .addColumn('ui', 'text', (c) => c.notNull())
    .addColumn('internal_context', 'text', (c) => c.notNull())
    .addColumn('submit_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('issued_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('one_time_codes')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('flow_id', 'varchar(36)', (c) => c.references('selfservice_flows.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('identity_id', 'varchar(36)', (c) => c.references('identities.id').onDelete('cascade'))
    .addColumn('address', 'varchar(400)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('one_time_codes_flow_idx').on('one_time_codes').column('flow_id').execute();
  await db.schema.createIndex('one_time_codes_hash_idx').on('one_time_codes').column('code_hash').execute();

  await db.schema
    .createTable('courier_messages')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('recipient', 'varchar(400)', (c) => c.notNull())
    .addColumn('subject', 'varchar(400)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('template_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('send_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('courier_messages_status_idx')
    .on('courier_messages')
    .columns(['status', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('throttles')
    .addColumn('key', 'varchar(512)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('selfservice_errors')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'selfservice_errors',
    'throttles',
    'courier_messages',
    'one_time_codes',
    'selfservice_flows',
    'sessions',
    'identity_recovery_addresses',
    'identity_verifiable_addresses',
    'identity_credential_identifiers',
    'identity_credentials',
    'identities',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
