import type { SQL } from 'bun'

/*
 * The head-office schema `lobby` (contract §14), created and migrated by Lobby. Every row is
 * keyed by its branch's queue unit ID and its own ID, so any number of branches share one
 * database. Migrations are numbered, recorded in `lobby.schema_version`, applied in one
 * transaction under an advisory lock (300 branches may start at once), and ADDITIVE ONLY (new
 * tables, new nullable columns): a branch still on an older Lobby keeps replicating into a
 * schema a newer one migrated (docs/replication.md).
 *
 * Row-level security: a role that is not the tables' owner writes and reads only the rows of
 * the queue units `lobby.branch_roles` lists for it (README: a role per branch).
 */
export const HEAD_OFFICE_MIGRATIONS: { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'tickets and their events',
    sql: `
CREATE TABLE lobby.branch_roles (
  role_name name NOT NULL,
  queue_unit_id text NOT NULL,
  PRIMARY KEY (role_name, queue_unit_id)
);
COMMENT ON TABLE lobby.branch_roles IS 'Which PostgreSQL role may write which queue unit''s rows (row-level security); filled by the head office';

-- Whether the role may read and write the queue unit's rows. SECURITY DEFINER, so branch roles
-- need no grant on branch_roles itself.
CREATE FUNCTION lobby.writes_unit(role_name name, unit text) RETURNS boolean
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, lobby
  AS $$ SELECT EXISTS (SELECT 1 FROM lobby.branch_roles b WHERE b.role_name = $1 AND b.queue_unit_id = $2) $$;

CREATE TABLE lobby.tickets (
  queue_unit_id text NOT NULL,
  id text NOT NULL,
  location_id text NOT NULL,
  service_id text NOT NULL,
  business_day date NOT NULL,
  prefix text NOT NULL,
  seq integer NOT NULL,
  ticket_number text NOT NULL,
  priority boolean NOT NULL DEFAULT false,
  status text NOT NULL,
  source text NOT NULL,
  external_reference text,
  counter_id text,
  call_count integer NOT NULL,
  created_at timestamptz NOT NULL,
  called_at timestamptz,
  serving_at timestamptz,
  completed_at timestamptz,
  version bigint NOT NULL,
  replicated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (queue_unit_id, id)
);
COMMENT ON COLUMN lobby.tickets.version IS 'The branch''s id of the ticket''s latest event: an update with a smaller one is ignored';
CREATE INDEX tickets_day ON lobby.tickets (business_day, queue_unit_id);

CREATE TABLE lobby.ticket_events (
  queue_unit_id text NOT NULL,
  id bigint NOT NULL,
  ticket_id text NOT NULL,
  type text NOT NULL,
  from_status text,
  to_status text NOT NULL,
  counter_id text,
  actor text NOT NULL,
  at timestamptz NOT NULL,
  detail jsonb,
  replicated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (queue_unit_id, id)
);
CREATE INDEX ticket_events_ticket ON lobby.ticket_events (queue_unit_id, ticket_id, id);

ALTER TABLE lobby.tickets ENABLE ROW LEVEL SECURITY;
CREATE POLICY branch_rows ON lobby.tickets
  USING (lobby.writes_unit(current_user, queue_unit_id)) WITH CHECK (lobby.writes_unit(current_user, queue_unit_id));
ALTER TABLE lobby.ticket_events ENABLE ROW LEVEL SECURITY;
CREATE POLICY branch_rows ON lobby.ticket_events
  USING (lobby.writes_unit(current_user, queue_unit_id)) WITH CHECK (lobby.writes_unit(current_user, queue_unit_id));
`,
  },
  {
    version: 2,
    name: 'report roll-ups',
    sql: `
-- Contract §12's daily roll-ups as the branch keeps them; a row is replaced whole by a later
-- reading of it (version: the branch's replication cursor when it was read).
CREATE TABLE lobby.report_daily (
  queue_unit_id text NOT NULL,
  location_id text NOT NULL,
  service_id text NOT NULL,
  business_day date NOT NULL,
  issued integer NOT NULL,
  served integer NOT NULL,
  no_show integer NOT NULL,
  cancelled integer NOT NULL,
  transferred_out integer NOT NULL,
  wait_count integer NOT NULL,
  wait_sum bigint NOT NULL,
  wait_max integer,
  wait_p50 integer,
  wait_p90 integer,
  within_target integer NOT NULL,
  service_count integer NOT NULL,
  service_sum bigint NOT NULL,
  service_p50 integer,
  service_p90 integer,
  issued_by_hour integer[] NOT NULL,
  served_by_hour integer[] NOT NULL,
  wait_histogram jsonb NOT NULL,
  service_histogram jsonb NOT NULL,
  version bigint NOT NULL,
  replicated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (queue_unit_id, location_id, service_id, business_day)
);
COMMENT ON COLUMN lobby.report_daily.wait_histogram IS '[[seconds, tickets], ...]: waits by bucket (every second below one hour, then every minute, then every hour), for percentiles across branches';
CREATE INDEX report_daily_day ON lobby.report_daily (business_day);

CREATE TABLE lobby.report_counter_daily (
  queue_unit_id text NOT NULL,
  counter_id text NOT NULL,
  business_day date NOT NULL,
  location_id text NOT NULL,
  served integer NOT NULL,
  no_show integer NOT NULL,
  service_count integer NOT NULL,
  service_sum bigint NOT NULL,
  service_p50 integer,
  service_p90 integer,
  busy_seconds bigint NOT NULL,
  service_histogram jsonb NOT NULL,
  version bigint NOT NULL,
  replicated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (queue_unit_id, counter_id, business_day)
);
CREATE INDEX report_counter_daily_day ON lobby.report_counter_daily (business_day);

ALTER TABLE lobby.report_daily ENABLE ROW LEVEL SECURITY;
CREATE POLICY branch_rows ON lobby.report_daily
  USING (lobby.writes_unit(current_user, queue_unit_id)) WITH CHECK (lobby.writes_unit(current_user, queue_unit_id));
ALTER TABLE lobby.report_counter_daily ENABLE ROW LEVEL SECURITY;
CREATE POLICY branch_rows ON lobby.report_counter_daily
  USING (lobby.writes_unit(current_user, queue_unit_id)) WITH CHECK (lobby.writes_unit(current_user, queue_unit_id));
`,
  },
  {
    version: 3,
    name: 'staff roll-ups',
    sql: `
-- Contract §16: a clerk's figures per queue unit and business day (the branch's report_staff_daily),
-- replaced like the other roll-ups by a later reading of them (version: the branch's cursor).
CREATE TABLE lobby.report_staff_daily (
  queue_unit_id text NOT NULL,
  username text NOT NULL,
  business_day date NOT NULL,
  served integer NOT NULL,
  no_show integer NOT NULL,
  service_count integer NOT NULL,
  service_sum bigint NOT NULL,
  service_p50 integer,
  service_p90 integer,
  service_histogram jsonb NOT NULL,
  version bigint NOT NULL,
  replicated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (queue_unit_id, username, business_day)
);
CREATE INDEX report_staff_daily_day ON lobby.report_staff_daily (business_day);
ALTER TABLE lobby.report_staff_daily ENABLE ROW LEVEL SECURITY;
CREATE POLICY branch_rows ON lobby.report_staff_daily
  USING (lobby.writes_unit(current_user, queue_unit_id)) WITH CHECK (lobby.writes_unit(current_user, queue_unit_id));
`,
  },
  {
    version: 4,
    name: 'head office: profiles, branches, users (contract §26)',
    sql: `
-- Head office's own people and sessions live in their own schema: no branch role is ever granted
-- anything there (a default privilege on schema lobby does not reach it). Written by hq serve only.
CREATE SCHEMA IF NOT EXISTS lobby_hq;
CREATE TABLE lobby_hq.users (
  username text PRIMARY KEY,
  display_name text NOT NULL,
  role text NOT NULL CHECK (role IN ('hq-admin', 'hq-viewer')),
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'disabled')),
  password_hash text,
  setup_code_hash text UNIQUE,
  setup_expires_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE TABLE lobby_hq.sessions (
  id_hash text PRIMARY KEY,
  username text NOT NULL REFERENCES lobby_hq.users (username) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL
);
CREATE INDEX sessions_user ON lobby_hq.sessions (username);
CREATE TABLE lobby_hq.sign_in_failures (
  username text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX sign_in_failures_user ON lobby_hq.sign_in_failures (username, at);

-- Profiles: written by hq serve. The draft changes; a revision never does.
CREATE TABLE lobby.hq_profiles (
  id text PRIMARY KEY,
  name text NOT NULL,
  draft jsonb NOT NULL,
  draft_version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL
);
CREATE TABLE lobby.hq_profile_revisions (
  profile_id text NOT NULL REFERENCES lobby.hq_profiles (id),
  revision integer NOT NULL CHECK (revision > 0),
  content jsonb NOT NULL,
  published_at timestamptz NOT NULL,
  published_by text NOT NULL,
  PRIMARY KEY (profile_id, revision)
);
COMMENT ON TABLE lobby.hq_profile_revisions IS 'Published profiles: immutable (a trigger refuses UPDATE and DELETE), numbered per profile from 1';
CREATE FUNCTION lobby.hq_revision_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'a published profile revision never changes'; END $$;
CREATE TRIGGER hq_profile_revisions_immutable BEFORE UPDATE OR DELETE ON lobby.hq_profile_revisions
  FOR EACH ROW EXECUTE FUNCTION lobby.hq_revision_immutable();

-- Which profile each branch (queue unit) follows: written by hq serve, read by the branch (its own row).
CREATE TABLE lobby.hq_branches (
  queue_unit_id text PRIMARY KEY,
  profile_id text REFERENCES lobby.hq_profiles (id),
  assigned_at timestamptz NOT NULL,
  assigned_by text NOT NULL
);
-- What each branch did with the revisions: written by the branch (its own row), read by hq serve.
CREATE TABLE lobby.hq_branch_applies (
  queue_unit_id text PRIMARY KEY,
  profile_id text,
  revision integer,
  applied_at timestamptz,
  error_revision integer,
  error text,
  error_at timestamptz,
  reported_at timestamptz NOT NULL
);
COMMENT ON COLUMN lobby.hq_branch_applies.error IS 'Why the branch refused error_revision (in words, with the field); null once a later revision applied';
-- The branch's floor now, written by the branch every few seconds: what /hq/live lists.
CREATE TABLE lobby.hq_branch_live (
  queue_unit_id text PRIMARY KEY,
  name text NOT NULL,
  waiting integer NOT NULL,
  longest_wait_seconds integer NOT NULL,
  counters_open integer NOT NULL,
  over_target integer NOT NULL,
  lines jsonb NOT NULL,
  observed_at timestamptz NOT NULL,
  reported_at timestamptz NOT NULL DEFAULT now()
);

-- Row-level security: a branch role READS its own assignment and every profile and revision (what
-- it applies), and writes only its own outcome and live rows. With no policy for INSERT, UPDATE or
-- DELETE, the read-only tables refuse a branch's writes even where a default privilege granted
-- them (README: ALTER DEFAULT PRIVILEGES): only the owner (hq serve) publishes.
ALTER TABLE lobby.hq_profiles ENABLE ROW LEVEL SECURITY;
CREATE POLICY branch_reads ON lobby.hq_profiles FOR SELECT USING (true);
ALTER TABLE lobby.hq_profile_revisions ENABLE ROW LEVEL SECURITY;
CREATE POLICY branch_reads ON lobby.hq_profile_revisions FOR SELECT USING (true);
ALTER TABLE lobby.hq_branches ENABLE ROW LEVEL SECURITY;
CREATE POLICY branch_reads ON lobby.hq_branches FOR SELECT USING (lobby.writes_unit(current_user, queue_unit_id));
ALTER TABLE lobby.hq_branch_applies ENABLE ROW LEVEL SECURITY;
CREATE POLICY branch_rows ON lobby.hq_branch_applies
  USING (lobby.writes_unit(current_user, queue_unit_id)) WITH CHECK (lobby.writes_unit(current_user, queue_unit_id));
ALTER TABLE lobby.hq_branch_live ENABLE ROW LEVEL SECURITY;
CREATE POLICY branch_rows ON lobby.hq_branch_live
  USING (lobby.writes_unit(current_user, queue_unit_id)) WITH CHECK (lobby.writes_unit(current_user, queue_unit_id));
`,
  },
]

export const HEAD_OFFICE_SCHEMA_VERSION = HEAD_OFFICE_MIGRATIONS.at(-1)!.version

/** An arbitrary constant key for `pg_advisory_xact_lock`: one migration at a time per database. */
const MIGRATION_LOCK = 7_411_025

/** PostgreSQL's codes for a missing schema or table: the head office is empty. */
const MISSING = new Set(['3F000', '42P01'])

/** The version `lobby.schema_version` records, or 0 when the schema is not there yet. */
export async function headOfficeVersion(sql: SQL): Promise<number> {
  try {
    const [row] = await sql`SELECT coalesce(max(version), 0)::int AS version FROM lobby.schema_version`
    return (row as { version: number }).version
  } catch (error) {
    if (MISSING.has(String((error as { errno?: unknown }).errno ?? '')) || MISSING.has(String((error as { code?: unknown }).code ?? ''))) return 0
    throw error
  }
}

/**
 * Brings the head-office schema to this build's version; returns the versions applied. A role
 * without the right to create (a branch's own role) finds the schema migrated already, and
 * applies nothing; when it is behind, the error says who must migrate it.
 */
export async function migrateHeadOffice(sql: SQL): Promise<number[]> {
  if ((await headOfficeVersion(sql)) >= HEAD_OFFICE_SCHEMA_VERSION) return []
  try {
    return await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`
      await tx.unsafe('CREATE SCHEMA IF NOT EXISTS lobby')
      await tx.unsafe('CREATE TABLE IF NOT EXISTS lobby.schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())')
      const [row] = await tx`SELECT coalesce(max(version), 0)::int AS version FROM lobby.schema_version`
      const current = (row as { version: number }).version
      const applied: number[] = []
      for (const migration of HEAD_OFFICE_MIGRATIONS) {
        if (migration.version <= current) continue
        await tx.unsafe(migration.sql)
        await tx`INSERT INTO lobby.schema_version (version, name) VALUES (${migration.version}, ${migration.name})`
        applied.push(migration.version)
      }
      return applied
    })
  } catch (error) {
    if (String((error as { errno?: unknown }).errno ?? '') === '42501') {
      throw new Error(
        `the head-office schema "lobby" is behind this Lobby (version ${HEAD_OFFICE_SCHEMA_VERSION}) and this role may not create it: ` +
          'run `lobby replicate-migrate --replicate-to <URL of the schema owner>` once (README: head office)',
      )
    }
    throw error
  }
}
