// An organisation of many users for the benchmarks: seeded straight into the database, then served by a `portaal`
// process of its own, with its administrator signed in (second factor included). Needs `npm run build` first.
import fetchCookie from 'fetch-cookie';
import { generate } from 'otplib';
import { CookieJar } from 'tough-cookie';
import { createIdentityWithPassword, insertIdentity, systemClock } from '@portaal/idp';
import { DEMO_CATALOGUE_FILE } from '@portaal/users-api';
import { loadConfig } from '../../apps/server/dist/config.js';
import { withProduct } from '../../apps/server/dist/product.js';
import { benchPortaal } from './bench-portaal.mjs';

export const ADMIN = { email: 'bench-beheerder@voorbeeldstad.nl', password: 'Bench-Molen-Gracht-2026' };

const silent = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  trace() {},
  fatal() {},
  child() {
    return silent;
  },
  level: 'silent',
};

/** The administrator and `users` members of 'voorbeeldstad', each with one of three data roles. */
async function seed(env, users) {
  await withProduct(loadConfig(env), silent, async (product) => {
    await product.catalogue.loadFile(DEMO_CATALOGUE_FILE);
    const adminId = await createIdentityWithPassword(product.idp.services, {
      email: ADMIN.email,
      firstName: 'Bench',
      lastName: 'Beheerder',
      password: ADMIN.password,
      verified: true,
    });
    await product.relations.patch({
      insert: [
        { namespace: 'organizations', object: 'voorbeeldstad', relation: 'issuer', subject_id: adminId },
        { namespace: 'organizations', object: 'voorbeeldstad', relation: 'admin', subject_id: adminId },
      ],
    });
    const roles = ['sociaal-domein', 'ruimte', 'financien'];
    for (let start = 0; start < users; start += 1000) {
      await product.db.kysely.transaction().execute(async (trx) => {
        const tuples = [];
        for (let i = start; i < Math.min(start + 1000, users); i += 1) {
          const id = await insertIdentity(trx, systemClock, {
            traits: { email: `gebruiker${i}@voorbeeldstad.nl`, name: { first: 'Gebruiker', last: String(i) } },
          });
          tuples.push({ namespace: 'organizations', object: 'voorbeeldstad', relation: 'issuer', subject_id: id });
          tuples.push({
            namespace: 'subdivisions',
            object: `${roles[i % 3]}_voorbeeldstad`,
            relation: 'issuer',
            subject_id: id,
          });
        }
        await product.relations.within(trx).patch({ insert: tuples });
      });
    }
  });
}

/** Signs the administrator in through the JSON flows and links an authenticator app; the cookies are in `jar`. */
async function signIn(publicUrl) {
  const jar = new CookieJar();
  const f = fetchCookie(fetch, jar);
  const json = { accept: 'application/json', 'content-type': 'application/json' };
  const csrf = (flow) => flow.ui.nodes.find((n) => n.attributes.name === 'csrf_token').attributes.value;
  const login = await (await f(`${publicUrl}/self-service/login/browser`, { headers: json })).json();
  await f(login.ui.action, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      method: 'password',
      identifier: ADMIN.email,
      password: ADMIN.password,
      csrf_token: csrf(login),
    }),
  });
  const settings = await (await f(`${publicUrl}/self-service/settings/browser`, { headers: json })).json();
  const secret = settings.ui.nodes.find((n) => n.attributes.id === 'totp_secret_key').attributes.text.text;
  const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) });
  const enrolled = await f(settings.ui.action, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ method: 'totp', totp_code: code, csrf_token: csrf(settings) }),
  });
  if (!enrolled.ok) throw new Error(`TOTP enrolment failed: ${enrolled.status}`);
  return { fetch: f, jar };
}

/**
 * Seeds `users` members (SQLite in a temporary folder, or `database`), starts `portaal serve` on free ports and
 * signs the administrator in. `stop()` ends the process and removes the folder.
 */
export async function startOrganisation({ users, database, profile }) {
  const bench = await benchPortaal({ database, profile });
  const { env, publicUrl } = bench;
  const stop = () => bench.stop();
  try {
    const seedStart = Date.now();
    await seed(env, users);
    const seconds = ((Date.now() - seedStart) / 1000).toFixed(1);
    console.log(`seeded ${users} users in ${seconds} s (${database ? 'PostgreSQL' : 'SQLite'})`);
    const server = await bench.serve();
    const session = await signIn(publicUrl);
    return { publicUrl, server, ...session, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
