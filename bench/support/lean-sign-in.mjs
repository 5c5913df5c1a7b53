// The fastest sign-in this bench can think of that still stores what the product must (bench/sign-ins.mjs): plain
// node:http, no framework, no query builder, and the product's own statements prepared once, on a copy of the
// product's database (its tables, indexes and rows). A GET writes a login flow of the real size; a POST reads it,
// finds the identity by its identifier, reads its credentials and the throttle, verifies the password with argon2,
// reads the identity and its addresses, clears the throttle, writes the session and the audit entry and marks the
// flow done, as the product's sign-in does (bench/README.md#sign-ins), then answers a session of the real size.
//   node bench/support/lean-sign-in.mjs PORT DATABASE_FILE ARGON2_PATH BETTER_SQLITE3_PATH SESSION_BYTES
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';

const [port, file, argon2Path, sqlitePath, sessionBytes] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const argon2 = require(argon2Path);
const Database = require(sqlitePath);

const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');

/** An insert of every column, bound by name, for rows shaped like `template`. */
const insertInto = (table, template) => {
  const columns = Object.keys(template);
  return db.prepare(`insert into ${table} (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`);
};
const latest = (table) => db.prepare(`select * from ${table} order by created_at desc limit 1`).get();

const flowTemplate = db.prepare("select * from selfservice_flows where kind = 'login' order by created_at desc").get();
const sessionTemplate = latest('sessions');
const auditTemplate = db.prepare('select * from audit_log order by at desc limit 1').get();
const insertFlow = insertInto('selfservice_flows', flowTemplate);
const insertSession = insertInto('sessions', sessionTemplate);
const insertAudit = insertInto('audit_log', auditTemplate);
const { id: _id, submit_count: _count, ...flowColumns } = flowTemplate;
const updateFlow = db.prepare(
  `update selfservice_flows set ${Object.keys(flowColumns)
    .map((c) => `${c} = @${c}`)
    .join(', ')} where id = @id`,
);
const readFlow = db.prepare("select * from selfservice_flows where id = ? and kind = 'login'");
const identityOf = db.prepare(
  "select identity_id from identity_credential_identifiers where type = 'password' and identifier = ?",
);
const credentialsOf = db.prepare(
  `select c.*, i.identifier from identity_credentials c
   left join identity_credential_identifiers i on i.credential_id = c.id where c.identity_id = ?`,
);
const locked = db.prepare('select key from throttles where key in (?, ?) and locked_until > ?');
const identity = db.prepare('select * from identities where id = ?');
const verifiable = db.prepare('select * from identity_verifiable_addresses where identity_id = ?');
const recovery = db.prepare('select * from identity_recovery_addresses where identity_id = ?');
const clearThrottle = db.prepare('delete from throttles where key = ?');

const session = JSON.stringify({ pad: 'x'.repeat(Math.max(0, Number(sessionBytes) - 10)) });
const answer = (response, status, body) => {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
};

http
  .createServer((request, response) => {
    if (request.method === 'GET') {
      const id = randomUUID();
      insertFlow.run({ ...flowTemplate, id, state: 'choose_method', created_at: new Date().toISOString() });
      const action = `http://127.0.0.1:${port}/submit?flow=${id}`;
      // The flow as the product answers it: its stored ui, with this flow's action.
      return answer(response, 200, JSON.stringify({ id, ui: { ...JSON.parse(flowTemplate.ui), action } }));
    }
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', async () => {
      const { identifier, password } = JSON.parse(Buffer.concat(chunks).toString());
      const flowId = new URL(request.url, 'http://x').searchParams.get('flow');
      const flow = readFlow.get(flowId);
      const found = identityOf.get(identifier);
      const credentials = found ? credentialsOf.all(found.identity_id) : [];
      const now = new Date().toISOString();
      locked.get(`login:id:${identifier}`, 'login:ip:127.0.0.1', now);
      const hash = JSON.parse(credentials.find((c) => c.type === 'password')?.config ?? '{}').hashed_password;
      if (!flow || !hash || !(await argon2.verify(hash, password))) return answer(response, 400, '{}');
      identity.get(found.identity_id);
      verifiable.all(found.identity_id);
      recovery.all(found.identity_id);
      clearThrottle.run(`login:id:${identifier}`);
      insertSession.run({
        ...sessionTemplate,
        id: randomUUID(),
        token_hash: randomBytes(32).toString('hex'),
        logout_token_hash: randomBytes(32).toString('hex'),
        identity_id: found.identity_id,
        created_at: now,
      });
      insertAudit.run({ ...auditTemplate, id: randomUUID(), at: now, actor_id: found.identity_id });
      updateFlow.run({ ...flow, state: 'passed_challenge', updated_at: now });
      answer(response, 200, session);
    });
  })
  .listen(Number(port), '127.0.0.1', () => console.log('ready'));
