// The fastest sign-in this bench can think of that still does what the product's must (bench/sign-ins.mjs): plain
// node:http, no framework, no query builder, and the product's own statements prepared once, on a copy of the
// product's SQLite database or on its PostgreSQL database (their tables, indexes and rows). A GET writes a login flow
// of the real size with a passkey challenge of its own, from a template; a POST reads the flow, finds the identity by
// its identifier, reads its credentials and the throttle, verifies the password with argon2, reads the identity and
// its addresses, clears the throttle, writes the session, reads the person's organisations, writes the audit entry
// and the last sign-in and marks the flow done, as the product's sign-in does (bench/README.md#sign-ins), then
// answers the session and its identity as JSON.
//   node bench/support/lean-sign-in.mjs PORT DATABASE ARGON2_PATH DRIVER_PATH
// DATABASE is a SQLite file (DRIVER_PATH better-sqlite3's) or a postgres:// URL (DRIVER_PATH pg's).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';

const [port, database, argon2Path, driverPath] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const argon2 = require(argon2Path);

/**
 * Statements prepared once, with `?` for their parameters: `get` answers the first row, `all` every row, `run`
 * nothing. SQLite's run at once on the compiled statement; PostgreSQL's are named, so each connection of the pool
 * parses and plans them once (as the product's fixed statements, docs/architecture.md).
 */
function sqlite() {
  const Database = require(driverPath);
  const db = new Database(database);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  return (sql) => {
    const statement = db.prepare(sql);
    return {
      get: async (...values) => statement.get(...values),
      all: async (...values) => statement.all(...values),
      run: async (...values) => void statement.run(...values),
    };
  };
}

function postgres() {
  const pg = require(driverPath);
  const pool = new pg.Pool({ connectionString: database, max: 4 });
  let named = 0;
  return (sql) => {
    named += 1;
    const text = sql.split('?').reduce((joined, part, index) => `${joined}$${index}${part}`);
    const query = { name: `lean_${named}`, text };
    const rows = async (values) => (await pool.query({ ...query, values })).rows;
    return {
      get: async (...values) => (await rows(values))[0],
      all: async (...values) => rows(values),
      run: async (...values) => void (await rows(values)),
    };
  };
}

const prepare = database.startsWith('postgres') ? postgres() : sqlite();

/** An insert of every column of rows shaped like `template`, taking such a row. */
const insertInto = (table, template) => {
  const columns = Object.keys(template);
  const statement = prepare(
    `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
  );
  return (row) => statement.run(...columns.map((column) => row[column]));
};
const latest = (table, order) => prepare(`select * from ${table} order by ${order} desc limit 1`).get();

const flowTemplate = await latest("selfservice_flows where kind = 'login'", 'created_at');
const sessionTemplate = await latest('sessions', 'created_at');
const auditTemplate = await latest('audit_log', 'at');
const insertFlow = insertInto('selfservice_flows', flowTemplate);
const insertSession = insertInto('sessions', sessionTemplate);
const insertAudit = insertInto('audit_log', auditTemplate);
const { id: _id, submit_count: _count, ...flowColumns } = flowTemplate;
const flowUpdate = prepare(
  `update selfservice_flows set ${Object.keys(flowColumns)
    .map((column) => `${column} = ?`)
    .join(', ')} where id = ?`,
);
const updateFlow = (row) => flowUpdate.run(...Object.keys(flowColumns).map((column) => row[column]), row.id);
const readFlow = prepare("select * from selfservice_flows where id = ? and kind = 'login'");
const identityOf = prepare(
  "select identity_id from identity_credential_identifiers where type = 'password' and identifier = ?",
);
const credentialsOf = prepare(
  `select c.*, i.identifier from identity_credentials c
   left join identity_credential_identifiers i on i.credential_id = c.id where c.identity_id = ?`,
);
const locked = prepare('select key from throttles where key in (?, ?) and locked_until > ? limit 1');
const identity = prepare('select * from identities where id = ?');
const verifiable = prepare('select * from identity_verifiable_addresses where identity_id = ?');
const recovery = prepare('select * from identity_recovery_addresses where identity_id = ?');
const clearThrottle = prepare('delete from throttles where key = ?');
const organisations = prepare(
  `select distinct object from relation_tuples
   where namespace = 'organizations' and subject_id = ? and subject_set_namespace = ''
     and relation in ('issuer', 'access')
   order by object`,
);
const recordSignIn = prepare(
  `insert into last_sign_ins (identity_id, signed_in_at) values (?, ?)
   on conflict (identity_id) do update set signed_in_at = excluded.signed_in_at`,
);

// The template flow's passkey challenge, which each new flow replaces with its own in its stored ui and state.
const passkeyNode = JSON.parse(flowTemplate.ui).nodes.find((node) => node.attributes.name === 'passkey_challenge');
const templateChallenge = JSON.parse(passkeyNode.attributes.value).challenge;
const withChallenge = (text, challenge) => text.replaceAll(templateChallenge, challenge);

/** The answer of a sign-in: the token and the session with its identity, as the product's fields name them. */
function sessionAnswer(token, row, person, addresses) {
  const session = {
    id: row.id,
    active: true,
    expires_at: row.expires_at,
    authenticated_at: row.authenticated_at,
    authenticator_assurance_level: 'aal1',
    authentication_methods: JSON.parse(row.authentication_methods),
    issued_at: row.issued_at,
    identity: {
      id: person.id,
      schema_id: person.schema_id,
      state: person.state,
      traits: JSON.parse(person.traits),
      verifiable_addresses: addresses.verifiable,
      recovery_addresses: addresses.recovery,
      metadata_public: person.metadata_public && JSON.parse(person.metadata_public),
      created_at: person.created_at,
      updated_at: person.updated_at,
    },
    devices: [{ id: row.id, ip_address: row.ip_address, user_agent: row.user_agent, location: '' }],
  };
  return JSON.stringify({ session_token: token, session, continue_with: null });
}

const answer = (response, status, body) => {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
};

async function createFlow(response) {
  const id = randomUUID();
  const challenge = randomBytes(32).toString('base64url');
  const ui = withChallenge(flowTemplate.ui, challenge);
  const internal_context = withChallenge(flowTemplate.internal_context, challenge);
  const created_at = new Date().toISOString();
  await insertFlow({ ...flowTemplate, id, ui, internal_context, state: 'choose_method', created_at });
  const action = `http://127.0.0.1:${port}/submit?flow=${id}`;
  // The flow as the product answers it: its stored ui, with this flow's action.
  answer(response, 200, JSON.stringify({ id, ui: { ...JSON.parse(ui), action } }));
}

async function submit(request, response, body) {
  const { identifier, password } = JSON.parse(body);
  const flow = await readFlow.get(new URL(request.url, 'http://x').searchParams.get('flow'));
  const found = await identityOf.get(identifier);
  const credentials = found ? await credentialsOf.all(found.identity_id) : [];
  const now = new Date().toISOString();
  await locked.get(`login:id:${identifier}`, 'login:ip:127.0.0.1', now);
  const hash = JSON.parse(credentials.find((c) => c.type === 'password')?.config ?? '{}').hashed_password;
  if (!flow || !hash || !(await argon2.verify(hash, password))) return answer(response, 400, '{}');
  const id = found.identity_id;
  const person = await identity.get(id);
  const addresses = { verifiable: await verifiable.all(id), recovery: await recovery.all(id) };
  await clearThrottle.run(`login:id:${identifier}`);
  const token = `ory_st_${randomBytes(24).toString('base64url')}`;
  const session = {
    ...sessionTemplate,
    id: randomUUID(),
    token_hash: createHash('sha256').update(token).digest('hex'),
    logout_token_hash: createHash('sha256').update(randomBytes(24)).digest('hex'),
    identity_id: id,
    created_at: now,
  };
  await insertSession(session);
  // An audit entry in each of the person's organisations, or one in none.
  const memberOf = (await organisations.all(id)).map((row) => row.object);
  for (const organisation_id of memberOf.length > 0 ? memberOf : [null])
    await insertAudit({ ...auditTemplate, id: randomUUID(), at: now, actor_id: id, organisation_id });
  await recordSignIn.run(id, now);
  await updateFlow({ ...flow, state: 'passed_challenge', updated_at: now });
  answer(response, 200, sessionAnswer(token, session, person, addresses));
}

http
  .createServer((request, response) => {
    const failed = (error) => answer(response, 500, JSON.stringify({ error: String(error) }));
    if (request.method === 'GET') return void createFlow(response).catch(failed);
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => submit(request, response, Buffer.concat(chunks).toString()).catch(failed));
  })
  .listen(Number(port), '127.0.0.1', () => console.log('ready'));
